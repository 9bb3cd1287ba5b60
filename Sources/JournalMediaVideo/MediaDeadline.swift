import CFFmpeg
import Foundation
import JournalMediaCore

/// A wall-clock limit that libavformat checks while it blocks in I/O (its interrupt
/// callback), so a pathological file cannot make `avformat_find_stream_info` or a seek run
/// for ever. One per `MediaFile`; `restart(seconds:)` before each long operation.
///
/// It also expires when `stop`, the guard of the work on the file, says stop (the caller
/// cancelled, or the asset's own deadline passed): the same interrupt callback, the reads of
/// `LibavInput` and the frame loops that poll `hasExpired` then end within one packet. The
/// guard is handed in (at the open, and by the source that decodes the file afterwards), since
/// libav calls back on the thread that called it with no way to hand anything else down.
///
/// Costs a monotonic clock read and an atomic load each time libav polls it.
package final class MediaDeadline {
    private var expiry: UInt64
    /// The guard of the work on the file now; set before each long operation, like `restart`.
    var stop: DecodeGuard?

    package init(seconds: Double, stop: DecodeGuard? = nil) {
        expiry = 0
        self.stop = stop
        restart(seconds: seconds)
    }

    func restart(seconds: Double) {
        expiry = Self.now() &+ UInt64(max(0, seconds) * 1e9)
    }

    var hasExpired: Bool { Self.now() >= expiry || stop?.shouldStop == true }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }

    /// The callback record to store in `AVFormatContext.interrupt_callback`; valid while this
    /// object lives (the `MediaFile` owns both).
    var interruptCallback: AVIOInterruptCB {
        let check: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<MediaDeadline>.fromOpaque(opaque).takeUnretainedValue().hasExpired ? 1 : 0
        }
        return AVIOInterruptCB(callback: check, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
