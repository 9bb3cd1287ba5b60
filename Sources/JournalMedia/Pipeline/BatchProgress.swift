import Foundation
import Synchronization

/// Where a running batch stands; handed to the progress callback after every asset.
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    /// Assets that failed in this run (not counting `failedEarlier`).
    public var failed: Int
    /// Assets whose earlier entry was reused (unchanged input, preset and settings), the
    /// failures kept from an earlier run (`failedEarlier`) included.
    public var skipped: Int
    public var elapsedSeconds: Double
    /// Failures kept from an earlier run: the same bytes failed the same way before and were
    /// not tried again (`Batch.retryFailed` tries them).
    public var failedEarlier = 0
    /// Input bytes of every unit of the batch, of the units finished, and of the finished
    /// units that were reused rather than processed (a Live Photo's still and movie together).
    public var bytesTotal = 0
    public var bytesDone = 0
    public var bytesSkipped = 0

    public init(done: Int, total: Int, failed: Int, skipped: Int, elapsedSeconds: Double) {
        self.done = done
        self.total = total
        self.failed = failed
        self.skipped = skipped
        self.elapsedSeconds = elapsedSeconds
    }

    /// Assets per second over the assets processed (not skipped) so far.
    public var assetsPerSecond: Double {
        elapsedSeconds > 0 ? Double(done - skipped) / elapsedSeconds : 0
    }

    /// Estimated seconds left; nil until it means something. Units start largest first, so
    /// a rate in assets per second over the first (largest) assets promised minutes for a
    /// 19 s run: the estimate is in bytes, from the input bytes processed so far over the
    /// bytes left, and only once at least 10 % of the bytes to process are done (and three
    /// assets processed, one second elapsed, so a first instant failure or a run of reused
    /// entries does not promise a finish in two seconds). Without sizes (all unknown) it falls
    /// back to assets per second.
    public var secondsRemaining: Double? {
        guard done - skipped >= 3, elapsedSeconds >= 1 else { return nil }
        let processedBytes = bytesDone - bytesSkipped
        let toProcess = bytesTotal - bytesSkipped
        if bytesTotal > 0 {
            guard processedBytes > 0, processedBytes * 10 >= toProcess else { return nil }
            return Double(bytesTotal - bytesDone) / (Double(processedBytes) / elapsedSeconds)
        }
        let rate = assetsPerSecond
        return rate > 0 ? Double(total - done) / rate : nil
    }
}

/// Asks a running `Batch` to stop starting assets (Ctrl-C in the CLI): the assets in flight
/// finish, the manifest is written with every finished entry (and the earlier entries of the
/// assets not reached, so nothing is lost), and stale renditions are not pruned. Safe to call
/// from any thread, e.g. a signal handler's queue; costs one atomic store.
public final class BatchStopRequest: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func request() { flag.store(true, ordering: .releasing) }

    public var isRequested: Bool { flag.load(ordering: .acquiring) }
}
