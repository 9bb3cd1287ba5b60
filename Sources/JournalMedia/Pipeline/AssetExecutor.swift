import Dispatch
import Foundation
import JournalMediaCore
import Metrics
import Synchronization

/// The library's bound on work in flight: at most `maxConcurrentAssets` assets are
/// processed at once (each on a thread of its own, with one libvips thread); any
/// number of callers may ask, the rest wait in arrival order. A waiter whose task is
/// cancelled leaves the queue at once. With `maxQueued` set, a caller arriving to a full
/// queue is refused (`Refusal.queueFull`) instead of waiting: a server answers 503 then
/// rather than holding unbounded requests.
///
/// The one scheduler: every `AssetProcessor` async call (`AssetExecutor.shared` unless the
/// processor is given its own), the server's uploads and bundles, and `Batch`'s probes and
/// work units (a fresh executor of `jobs` slots per run, or `BatchConfiguration.executor`).
/// Memory stays that of N assets in flight however many callers wait.
///
/// Its policies, the same for the CLI, the library and the service:
/// - **Stopping** — each work item runs under a `DecodeGuard` (`run(under:)`): the calling
///   task's cancellation trips it, while waiting (the caller leaves the queue) or running (the
///   work stops at its next check, between libvips tiles, at libav's next read). The guard is
///   handed down the pipeline as a parameter (`DecodePlan.stop`); the one thread-local left is
///   the bridge to the C callbacks (`DecodeGuard.install`, installed by this executor on the
///   work's thread). A batch gives every unit its own guard under one batch guard: the CLI's
///   first Ctrl-C (`BatchStopRequest`) admits no more units while those running finish and the
///   manifest is written; cancelling the batch's task (the second Ctrl-C ends the process)
///   trips the batch guard, so every unit stops.
/// - **Deadlines** — a per-asset deadline (`--timeout`, `ProcessingOptions.timeoutSeconds`)
///   is a child guard of the item's, given to each decode (`DeadlineThread`). A decode that
///   cannot be stopped at its deadline is abandoned by its caller but keeps its slot (it is
///   counted under the item's guard: `DecodeGuard.workStarted()`) until it returns, so
///   abandoned work never lets more than `maxConcurrentAssets` items compute at once.
/// - **The whole-image gate** — inside a slot, a decode that must hold a whole large image
///   (`WholeImageDecodeGate`) runs alone, the others' decodes waiting for it; waiting for the
///   gate ends when the item's guard says stop and does not count against the deadline.
/// Costs one lock round per start and finish; waiting costs no thread. Publishes the
/// gauges `journalmedia_executor_running` and `journalmedia_executor_waiting` (swift-metrics,
/// dimension `executor` = `label`) on every change.
public final class AssetExecutor: Sendable {
    /// Why `run` did not run the work.
    public enum Refusal: Error, Sendable, Equatable {
        /// The caller's task was cancelled while it waited.
        case cancelled
        /// `maxQueued` callers were already waiting.
        case queueFull
    }

    /// What the executor has done, for tests, logs and metrics.
    public struct Counters: Sendable, Equatable {
        /// Assets running now, and the most ever running at once.
        public var running = 0, peakRunning = 0
        /// Callers waiting now, and the most ever waiting at once.
        public var waiting = 0, peakWaiting = 0
        /// Work items finished; callers that left the queue cancelled; callers refused.
        public var completed = 0, cancelledWhileWaiting = 0, refused = 0
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var counters = Counters()
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters whose cancellation arrived before they queued.
        var cancelledEarly: Set<UInt64> = []
    }

    /// Stack of each worker thread (libvips and libav recurse modestly; 8 MiB as glibc's default).
    static let workerStackSize = 8 << 20

    /// At most this many assets run at once (≥ 1).
    public let maxConcurrentAssets: Int
    /// At most this many callers wait; nil: no bound.
    public let maxQueued: Int?
    /// Names this executor in its gauges.
    public let label: String
    private let state = Mutex(State())

    /// The process-wide executor behind `AssetProcessor`'s default: as many assets at once
    /// as the machine has cores, no queue bound.
    public static let shared = AssetExecutor()

    public init(maxConcurrentAssets: Int = ProcessInfo.processInfo.activeProcessorCount, maxQueued: Int? = nil,
                label: String = "shared") {
        self.maxConcurrentAssets = max(1, maxConcurrentAssets)
        self.maxQueued = maxQueued.map { max(0, $0) }
        self.label = label
    }

    /// Records the running and waiting gauges.
    private func publish() {
        let now = counters
        Gauge(label: "journalmedia_executor_running", dimensions: [("executor", label)]).record(now.running)
        Gauge(label: "journalmedia_executor_waiting", dimensions: [("executor", label)]).record(now.waiting)
    }

    public var counters: Counters { state.withLock { $0.counters } }

    /// Waits for a slot (cancellable), runs `work` on a thread of its own, frees the slot
    /// and returns the work's value. Costs a thread start (tens of microseconds) per call.
    /// Work that starts decodes runs under a guard instead (`run(under:_:)`): only then does a
    /// decode it stops waiting for keep the slot.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws(Refusal) -> T {
        try await acquire()
        return await runInSlot(work) { self.release() }
    }

    /// `run(_:)` with `stop` installed as the work thread's `DecodeGuard` (the bridge to the
    /// C callbacks), tripped when the calling task is cancelled (while waiting or running):
    /// the wrapper every caller that processes an asset or a bundle uses, handing `stop` down
    /// to the work as a parameter. The refusal comes back as a value, not thrown.
    ///
    /// The slot stays taken until everything the work started under `stop` has returned: a
    /// decode the work stopped waiting for at its deadline (`DeadlineThread`, counted by its
    /// guard, a child of `stop`: `DecodeGuard.workStarted()`) keeps the slot until the decoder
    /// gives its thread back, though the caller has its answer (a timeout) already. So at most
    /// `maxConcurrentAssets` slots' work runs at once, abandoned decodes included, and the
    /// threads in use stay bounded by the slots.
    public func run<T: Sendable>(under stop: DecodeGuard,
                                 _ work: @escaping @Sendable () -> T) async -> Result<T, Refusal> {
        await withTaskCancellationHandler {
            do throws(Refusal) {
                try await acquire()
            } catch {
                return .failure(error)
            }
            return .success(await runInSlot({ stop.install { work() } }) {
                stop.whenNoWorkRunning { self.release() }
            })
        } onCancel: {
            stop.cancel()
        }
    }

    private enum Admission { case run, wait, refuse, cancelled }

    private func acquire() async throws(Refusal) {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let admission = state.withLock { state -> Admission in
                        if state.cancelledEarly.remove(id) != nil {
                            state.counters.cancelledWhileWaiting += 1
                            return .cancelled
                        }
                        if state.counters.running < maxConcurrentAssets && state.waiters.isEmpty {
                            state.counters.running += 1
                            state.counters.peakRunning = max(state.counters.peakRunning, state.counters.running)
                            return .run
                        }
                        if let maxQueued, state.waiters.count >= maxQueued {
                            state.counters.refused += 1
                            return .refuse
                        }
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                        state.counters.waiting = state.waiters.count
                        state.counters.peakWaiting = max(state.counters.peakWaiting, state.waiters.count)
                        return .wait
                    }
                    publish()
                    switch admission {
                    case .run: continuation.resume()
                    case .wait: break
                    case .refuse: continuation.resume(throwing: Refusal.queueFull)
                    case .cancelled: continuation.resume(throwing: Refusal.cancelled)
                    }
                }
            } onCancel: {
                let waiting = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                        let waiter = state.waiters.remove(at: index)
                        state.counters.waiting = state.waiters.count
                        state.counters.cancelledWhileWaiting += 1
                        return waiter.continuation
                    }
                    state.cancelledEarly.insert(id)
                    return nil
                }
                publish()
                waiting?.resume(throwing: Refusal.cancelled)
            }
        } catch {
            throw (error as? Refusal) ?? .cancelled
        }
        // Admitted: a cancellation that arrived after admission must not linger.
        state.withLock { _ = $0.cancelledEarly.remove(id) }
    }

    /// Hands the slot to the first waiter, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.counters.completed += 1
            guard !state.waiters.isEmpty else {
                state.counters.running -= 1
                return nil
            }
            let waiter = state.waiters.removeFirst()
            state.counters.waiting = state.waiters.count
            return waiter.continuation
        }
        publish()
        next?.resume()
    }

    /// Runs `work` in the slot just granted, then `free` (which gives the slot back, now or
    /// later), then hands the value to the waiting caller.
    private func runInSlot<T: Sendable>(_ work: @escaping @Sendable () -> T,
                                        free: @escaping @Sendable () -> Void) async -> T {
        // A thread of its own per slot, not the global Dispatch queue: a slot that was granted
        // runs at once, however many other blocking jobs the process has queued there. The
        // slot is given back on that thread as soon as the work (and what it left running)
        // returns, not when the awaiting task resumes: that needs a thread of Swift's
        // cooperative pool, which other blocking work can hold for seconds while the next
        // waiter could already run.
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let value = work()
                free()
                continuation.resume(returning: value)
            }
            thread.stackSize = Self.workerStackSize
            thread.start()
        }
    }
}

extension AssetExecutor.Refusal {
    /// What a caller the executor did not run is told, as an asset's error (stage `read`:
    /// nothing was read): `busy` when the queue was full, else the cancellation of `stop`,
    /// the guard the caller waited under. `waiting` names what queues (assets, requests).
    /// One wording for the library, a batch and the service.
    public func error(file: String, stop: DecodeGuard, waiting: String = "assets") -> AssetError {
        self == .queueFull
            ? AssetError(file: file, stage: .read, reason: .busy, message: "too many \(waiting) waiting; try again later")
            : stop.error(file: file, stage: .read, reason: .cancelled)
    }
}
