import Foundation
import JournalMediaCore

/// Runs one decode on a thread of its own, under a `DecodeGuard` (the decode's deadline, and
/// the caller's guard as its parent), and waits for it only while the guard lets it.
///
/// libvips stops a computation between tiles when the guard says stop (`VipsInterrupt`, the
/// kill flag), but some decoders do all their work in one call that nothing can interrupt:
/// librsvg draws an SVG in one 2000-pixel tile (a 1 KB drawing of stacked blurs takes half a
/// minute), libheif decodes a whole HEIF image at once. librsvg is stopped all the same, at
/// its next new surface (`VipsInterrupt.connectDrawingStop`, within a filter pass); libheif is
/// not. For those the caller stops waiting when the guard stops (deadline or cancellation)
/// and reports why; the thread is left to finish on its own (its result discarded), holding
/// its memory, one core, and the `AssetExecutor` slot it runs in (the work is counted under
/// `stop`, whose parents lead to the slot's guard: `DecodeGuard.workStarted()`): no new work
/// takes that slot until the decoder returns.
///
/// Used by `StillDecoding` for every still decode but JPEG's, which stops by itself at the
/// guard's next check and runs on the caller's thread. Costs one thread start (tens of
/// microseconds) per decode, a wake-up every `pollSeconds` while waiting, and after a stop up to
/// `stopGraceSeconds` more for a decoder that does not stop at once.
enum DeadlineThread {
    /// How long a stopped caller still waits for the work to return (seconds).
    static let stopGraceSeconds = 0.25
    /// How often the waiting caller asks the guard whether to stop (seconds).
    static let pollSeconds = 0.05

    /// What became of the work: its outcome, or why the caller stopped waiting.
    enum Outcome<T> {
        case finished(T)
        case stopped(StopReason)
    }

    /// The outcome of `work`, or the reason `stop` gave when it said stop first (read before
    /// the abandoned computation is cancelled, so a deadline stays a deadline).
    static func run<T>(under stop: DecodeGuard, _ work: @escaping () -> T) -> Outcome<T> {
        let box = OutcomeBox<T>(work)
        // Counted under `stop` and the guards enclosing it until the thread returns, even when
        // the caller has stopped waiting for it: the executor slot they run in stays taken.
        stop.workStarted()
        let thread = Thread {
            box.finish(stop.install { box.work() })
            stop.workReturned()
        }
        // libvips and the libraries under it expect a normal thread's stack.
        thread.stackSize = 8 << 20
        thread.start()
        while !box.wait(seconds: pollSeconds) {
            // No cancel() needed: the guard already says stop (its deadline or its parent), which
            // the thread's computation sees at its next tile. The reason is read here, once.
            if let reason = stop.stopReason {
                // A libvips computation sees the stop at its next tile and returns: give it a
                // moment, so its memory and the decode gate are free before the caller moves
                // on and the error can say how far it got. A decoder that cannot be stopped
                // (librsvg, libheif) is left to finish on its own after this grace.
                _ = box.wait(seconds: stopGraceSeconds)
                return .stopped(reason)
            }
        }
        guard let value = box.take() else { return .stopped(stop.stopReason ?? .cancelled) }
        return .finished(value)
    }

    /// Hands the work to the thread and its result back to the waiting caller. Unchecked
    /// Sendable because the two never touch it at once: the thread alone runs `work` and
    /// writes `outcome`, the caller reads `outcome` only after the semaphore says it is
    /// written, and never when it gave up waiting.
    private final class OutcomeBox<T>: @unchecked Sendable {
        let work: () -> T
        private let done = DispatchSemaphore(value: 0)
        private var outcome: T?

        init(_ work: @escaping () -> T) {
            self.work = work
        }

        func finish(_ value: T) {
            outcome = value
            done.signal()
        }

        func wait(seconds: Double) -> Bool {
            done.wait(timeout: .now() + max(0, min(seconds, 1e6))) == .success
        }

        func take() -> T? { outcome }
    }
}
