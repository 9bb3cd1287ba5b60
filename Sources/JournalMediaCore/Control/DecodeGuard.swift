import Foundation
import Synchronization

/// Why work on an asset was told to stop.
public enum StopReason: String, Sendable, Equatable {
    /// The caller cancelled (its task was cancelled, or `cancel()` was called).
    case cancelled
    /// The guard's deadline passed.
    case deadline
}

/// The one stop signal for the work on one asset: cancellation by the caller OR a
/// wall-clock deadline, whichever comes first. Every long-running layer polls the same
/// object: the pipeline at each stage boundary, libvips through an eval callback that sets
/// the image's kill flag (`VipsInterrupt`, in the imaging layer), libav through its
/// interrupt callback and I/O reads (`MediaDeadline`, in the video layer).
///
/// The pipeline hands the guard down as a parameter (`AssetExecutor.run(under:)` → the
/// processor's `stop:` → `DecodePlan.stop` → the decode's child guard → `RenditionStep`), and
/// so do the imaging and video layers below it (`stop:` on the decode, the resize, the
/// encoders, the card drawing, the HEVC tile loop; `MediaDeadline.stop` for libav's interrupt
/// callback; libjpeg's row loop and libvips' eval callback get it as their callback data).
/// One C callback is reached through the thread instead: librsvg's drawing, stopped through
/// `cairo_image_surface_create` on a libvips worker thread with no argument to carry it
/// (`VipsInterrupt.connectDrawingStop`). `install(_:)` makes the guard the calling thread's
/// `current` for a synchronous block, done where work is handed to libvips (the executor's
/// slot thread, the processor's blocking entry, a decode's own thread), and libvips lends the
/// guard of the thread that starts a computation to its own worker threads.
/// `cancel()` may be called from any thread. Costs: `shouldStop` is one atomic load plus,
/// with a deadline, one monotonic clock read; `current` is one thread-specific-data lookup.
public final class DecodeGuard: Sendable {
    private let cancelledFlag = Atomic<Bool>(false)
    /// libvips' progress (percent) of the computation this guard stopped, -1 when none was.
    private let stoppedPercent = Atomic<Int>(-1)
    /// Monotonic nanoseconds after which `stopReason` is `.deadline`; nil: no deadline.
    private let expiry: UInt64?
    /// The deadline as given, for messages.
    public let deadlineSeconds: Double?
    /// An enclosing guard (the caller's) whose stop also stops this one: a per-decode
    /// deadline inside a cancellable request.
    public let parent: DecodeGuard?
    /// Work started under this guard that may outlive its caller (`DecodeGuard+WorkLeftRunning`).
    let workLeftRunning = Mutex(WorkLeftRunning())

    /// A guard that stops on `cancel()`, once `deadlineSeconds` (from now) have passed when
    /// given, and whenever `parent` says stop.
    public init(deadlineSeconds: Double? = nil, parent: DecodeGuard? = nil) {
        self.deadlineSeconds = deadlineSeconds
        self.parent = parent
        if let deadlineSeconds, deadlineSeconds.isFinite {
            expiry = Self.monotonicNow() &+ UInt64(max(0, deadlineSeconds) * 1e9)
        } else {
            expiry = nil
        }
    }

    /// Asks the work to stop at its next check. Safe from any thread; idempotent.
    public func cancel() { cancelledFlag.store(true, ordering: .releasing) }

    /// Whether `cancel()` was called.
    public var isCancelled: Bool { cancelledFlag.load(ordering: .acquiring) }

    /// Why the work should stop now, or nil to go on. Cancellation wins over the deadline.
    public var stopReason: StopReason? {
        if isCancelled { return .cancelled }
        if let expiry, Self.monotonicNow() >= expiry { return .deadline }
        return parent?.stopReason
    }

    public var shouldStop: Bool { stopReason != nil }

    /// Records that a computation in flight was stopped by this guard `percent` % of the
    /// way through (libvips' own progress count, at the tile where it saw the kill flag).
    /// Called from the imaging layer's eval callback; the first stop is kept, here and in
    /// the enclosing guards (whose error is the one the caller sees).
    public func noteComputationStopped(atPercent percent: Int) {
        _ = stoppedPercent.compareExchange(expected: -1, desired: min(max(percent, 0), 100), ordering: .relaxed)
        parent?.noteComputationStopped(atPercent: percent)
    }

    /// How far the computation this guard stopped had got (percent), or nil when the stop
    /// came at a stage boundary rather than inside a computation. Part of the error message,
    /// so a timeout says how much of the decode was left.
    public var computationStoppedAt: Int? {
        let value = stoppedPercent.load(ordering: .relaxed)
        return value < 0 ? nil : value
    }

    /// The typed error for a stop in `stage` of `file`: reason `cancelled` or `timeout`.
    public func error(file: String, stage: ProcessingStage, reason: StopReason) -> AssetError {
        let progress = computationStoppedAt.map { ", stopped \($0) % into a computation" } ?? ""
        switch reason {
        case .cancelled:
            return AssetError(file: file, stage: stage, reason: .cancelled, message: "cancelled\(progress)")
        case .deadline:
            let limit = deadlineSeconds.map { " of \(Self.format($0)) s" } ?? ""
            return AssetError(file: file, stage: stage, reason: .timeout, message: "ran past its deadline\(limit)\(progress)")
        }
    }

    /// Throws the typed stop error when the work should stop (a stage boundary).
    public func check(file: String, stage: ProcessingStage) throws(AssetError) {
        if let reason = stopReason { throw error(file: file, stage: stage, reason: reason) }
    }

    // MARK: The calling thread's guard

    /// The guard installed on the calling thread, nil outside `install(_:)`.
    public static var current: DecodeGuard? {
        guard let raw = pthread_getspecific(threadKey) else { return nil }
        return Unmanaged<DecodeGuard>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Runs `body` on the calling thread with this guard as `current` (restoring the
    /// previous one afterwards), so code below it and the C callbacks it triggers on this
    /// thread can see the guard.
    public func install<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = pthread_getspecific(Self.threadKey)
        pthread_setspecific(Self.threadKey, Unmanaged.passUnretained(self).toOpaque())
        defer {
            pthread_setspecific(Self.threadKey, previous)
            withExtendedLifetime(self) {}
        }
        return try body()
    }

    /// The stop error if the current thread's guard says stop, else nil.
    @available(*, deprecated, message: "pass the guard as a parameter and call its check(file:stage:)")
    public static func currentStop(file: String, stage: ProcessingStage) -> AssetError? {
        guard let installed = current, let reason = installed.stopReason else { return nil }
        return installed.error(file: file, stage: stage, reason: reason)
    }

    /// Throws when the current thread's guard (if any) says stop: a stage boundary.
    @available(*, deprecated, message: "pass the guard as a parameter and call its check(file:stage:)")
    public static func checkCurrent(file: String, stage: ProcessingStage) throws(AssetError) {
        if let stop = currentStop(file: file, stage: stage) { throw stop }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// CLOCK_MONOTONIC in nanoseconds.
    public static func monotonicNow() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
