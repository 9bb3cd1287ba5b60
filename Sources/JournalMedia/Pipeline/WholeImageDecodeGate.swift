import Foundation
import Glibc
import JournalMediaCore
import JournalMediaImaging

/// Whole-image HEIF/AVIF (and JPEG XL, JPEG 2000, BMP, ICO, Netpbm, EXR, HDR) decodes run alone, process-wide.
///
/// libvips cannot shrink a HEIF or AVIF while loading it: libheif decodes the whole image
/// (and, for AV1, dav1d or libaom keep their own frame buffers), so a 20-megapixel 10-bit AVIF
/// holds about 540 MB inside libheif alone, about 30 bytes per pixel in all. Decodes that go
/// that way — AVIF, and 10/12-bit or alpha HEIF (8-bit HEIC without alpha takes the libavcodec
/// path, about 2 bytes per pixel) — of at least `minimumPixels` take the gate exclusively:
/// they wait for the decodes in progress to finish, no other decode starts meanwhile, and
/// glibc is asked to return the memory other threads freed (`malloc_trim`) before and after.
/// Every other still decode takes the gate shared, so ordinary decodes run beside each other
/// as before. A batch's peak is then about one such decode on its own, or `jobs` ordinary ones.
///
/// Used by `StillDecoding` before its deadline starts (waiting does not count against
/// `--timeout`, but the caller's cancellation or request deadline ends the wait); the gate is given back when the decode's thread finishes, also when the
/// caller stopped waiting for it, so an abandoned decode still counts. Costs a lock round
/// trip per decode; a heavy decode pauses the other jobs' decodes for its duration.
enum WholeImageDecodeGate {
    /// Smaller images decode freely: 4 MP × ~30 bytes ≈ 120 MB.
    static let minimumPixels = 4_000_000

    private static let condition = NSCondition()
    nonisolated(unsafe) private static var sharedHolders = 0
    nonisolated(unsafe) private static var exclusiveHeld = false
    nonisolated(unsafe) private static var exclusiveWaiting = 0

    /// Whether decoding the image `header` describes needs the gate exclusively.
    static func isWholeImage(_ header: ImageHeader) -> Bool {
        guard header.pixelCount >= minimumPixels else { return false }
        // JPEG XL (libjxl), JPEG 2000 (OpenJPEG), and the formats loaded whole (BMP, ICO,
        // Netpbm, PFM, OpenEXR, Radiance) have no shrink-on-load either.
        if header.format == .jxl || header.format.loadsWhole { return true }
        guard header.format == .heic || header.format == .avif else { return false }
        return header.format == .avif || header.highBitDepth || header.hasAlpha
    }

    /// Takes the gate: exclusively for a whole-image decode (after the decodes in progress),
    /// shared otherwise (after a whole-image decode in progress or waiting). Returns nil with
    /// the gate taken, or, without taking it, the reason `stop` (the caller's guard: its
    /// cancellation, a request's deadline) gave while it waited: a cancelled request does not
    /// sit behind another asset's decode. Waiting wakes every 50 ms to ask the guard.
    static func enter(exclusive: Bool, unless stop: DecodeGuard? = nil) -> StopReason? {
        condition.lock()
        defer { condition.unlock() }
        func mustWait() -> Bool {
            exclusive ? (exclusiveHeld || sharedHolders > 0) : (exclusiveHeld || exclusiveWaiting > 0)
        }
        if exclusive { exclusiveWaiting += 1 }
        while mustWait() {
            if let reason = stop?.stopReason {
                if exclusive {
                    exclusiveWaiting -= 1
                    // Shared waiters held back by this one may go now.
                    condition.broadcast()
                }
                return reason
            }
            _ = condition.wait(until: Date(timeIntervalSinceNow: stop == nil ? 3600 : 0.05))
        }
        if exclusive {
            exclusiveWaiting -= 1
            exclusiveHeld = true
            condition.unlock()
            releaseFreeMemory()
            condition.lock()
        } else {
            sharedHolders += 1
        }
        return nil
    }

    /// Gives the gate back.
    static func leave(exclusive: Bool) {
        if exclusive { releaseFreeMemory() }
        condition.lock()
        if exclusive { exclusiveHeld = false } else { sharedHolders -= 1 }
        condition.broadcast()
        condition.unlock()
    }

    /// glibc's `malloc_trim(0)`, found at run time (malloc.h is not in Swift's Glibc module,
    /// and the CLI's own C module for it belongs to the CLI): returns the free memory every
    /// thread's heap keeps. A few milliseconds, once before and once after a whole-image decode.
    private static func releaseFreeMemory() {
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }
}
