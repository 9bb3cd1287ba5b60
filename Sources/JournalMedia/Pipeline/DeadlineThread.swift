import Foundation
import JournalMediaImaging

/// Runs one decode on a thread of its own and waits for it at most until its deadline.
///
/// libvips stops a computation at its deadline between tiles (`VipsDeadline`), but some
/// decoders do all their work in one call that nothing can interrupt: librsvg draws an SVG
/// in one 2000-pixel tile (a 1 KB drawing of stacked blurs takes half a minute), libheif
/// decodes a whole HEIF image at once. For those the caller stops waiting at the deadline
/// and reports `timeout`; the thread is left to finish on its own (its kill flag set, its
/// result discarded), holding its memory and one core until the library returns.
///
/// Used by `StillDecoding` for every still decode. Costs one thread start (tens of
/// microseconds) per decode.
enum DeadlineThread {
    /// The outcome of `work`, or nil when the deadline passed first.
    static func run<T>(deadline: VipsDeadline, _ work: @escaping () -> T) -> T? {
        let box = OutcomeBox<T>(work)
        let thread = Thread { box.finish(box.work()) }
        // libvips and the libraries under it expect a normal thread's stack.
        thread.stackSize = 8 << 20
        thread.start()
        guard box.wait(seconds: deadline.remainingSeconds) else {
            deadline.abandon()
            return nil
        }
        return box.take()
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
