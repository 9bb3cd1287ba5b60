import Synchronization

/// The work a `DecodeGuard` counts as still running: pieces started under it that their caller
/// may stop waiting for, and what to do once the last of them returns.
struct WorkLeftRunning {
    var running = 0
    var whenNoneRunning: [@Sendable () -> Void] = []
}

/// Work that may outlive the caller that started it, counted by the guard it runs under.
///
/// A decode that cannot be stopped at once runs on a thread of its own (`DeadlineThread`); at
/// its deadline the caller is answered and stops waiting, but the thread goes on until the
/// decoder returns, holding a core and its memory. The guard the work was started under —
/// and every guard enclosing it, such as the one an `AssetExecutor` slot runs under — counts
/// it from `workStarted()` to `workReturned()`, and `whenNoWorkRunning(_:)` waits for the count
/// to reach zero: the executor gives its slot back only then, so abandoned work never lets
/// more work run at once than the executor has slots. The guard is handed down as a
/// parameter; nothing here is read from the thread. Costs one lock round per guard in the
/// chain (two or three) per piece of work started and returned.
extension DecodeGuard {
    /// One more piece of work runs under this guard (and under each enclosing guard).
    package func workStarted() {
        var next: DecodeGuard? = self
        while let current = next {
            current.workLeftRunning.withLock { $0.running += 1 }
            next = current.parent
        }
    }

    /// A piece of work counted by `workStarted()` has returned; for each guard in the chain
    /// whose count reaches zero, the actions waiting for it run (on the calling thread).
    package func workReturned() {
        var next: DecodeGuard? = self
        while let current = next {
            let actions = current.workLeftRunning.withLock { state -> [@Sendable () -> Void] in
                state.running -= 1
                guard state.running == 0 else { return [] }
                defer { state.whenNoneRunning = [] }
                return state.whenNoneRunning
            }
            for action in actions { action() }
            next = current.parent
        }
    }

    /// Runs `action` once no work counted under this guard is running: at once (on the
    /// calling thread) when none is, else on the thread of the last piece to return.
    package func whenNoWorkRunning(_ action: @escaping @Sendable () -> Void) {
        let now = workLeftRunning.withLock { state -> Bool in
            guard state.running > 0 else { return true }
            state.whenNoneRunning.append(action)
            return false
        }
        if now { action() }
    }
}
