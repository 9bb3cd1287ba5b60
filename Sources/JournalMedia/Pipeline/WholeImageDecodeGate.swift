import Foundation
import Glibc
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaImaging

/// Whole-image HEIF/AVIF (and JPEG XL, JPEG 2000, BMP, ICO, Netpbm, EXR, HDR) decodes run alone, process-wide.
///
/// libvips cannot shrink a HEIF or AVIF while loading it: libheif decodes the whole image
/// (and, for AV1, dav1d or libaom keep their own frame buffers), so a 20-megapixel 10-bit AVIF
/// holds about 540 MB inside libheif alone, about 30 bytes per pixel in all. Decodes that go
/// that way — AVIF, and 10/12-bit or alpha HEIF (8-bit HEIC without alpha takes the libavcodec
/// path, about 2 bytes per pixel; so does a 10/12-bit grid HEIC, decoded a row of tiles at a
/// time, its memory bounded by that strip, and a 10/12-bit single item whose frame is no
/// larger than the largest 8-bit one's: see `Hold`, `boundedFrame`) — of at least
/// `minimumPixels` take the gate exclusively:
/// they wait for the decodes in progress to finish, no other decode starts meanwhile, and
/// glibc is asked to return the memory other threads freed (`malloc_trim`) before and after.
/// Every other still decode takes the gate shared, so ordinary decodes run beside each other
/// as before. A batch's peak is then about one such decode on its own, or `jobs` ordinary ones.
///
/// Used by `StillLoading` before its deadline starts (waiting does not count against
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

    /// Whether decoding the image `header` describes needs the gate exclusively. With the
    /// file's `bytes`, a 10/12-bit HEIC that the HEVC path decodes a row of tiles at a time
    /// (a grid of HEVC tiles whose primary image that path takes: `boundedByTileRows`) does not.
    static func isWholeImage(_ header: ImageHeader, bytes: UnsafeRawBufferPointer? = nil) -> Bool {
        guard header.pixelCount >= minimumPixels else { return false }
        // The format's handler says (`StillLoading.wholeImage`): formats without shrink-on-load
        // (and AVIF: libheif's AV1 decoders hold whole frames) always; HEIF by libheif's rules
        // below, unless the codec's own decoder bounds the memory (`StillDecoder.boundsMemory`).
        switch header.format.handling.still?.wholeImage ?? .never {
        case .never: return false
        case .always: return true
        case .heifRules: break
        }
        guard header.highBitDepth || header.hasAlpha else { return false }
        let bounds = StillDecoders.entry(for: header.format).boundsMemory
        return !(!header.hasAlpha && bytes.flatMap { bytes in bounds.map { $0(bytes, header.pixelCount) } } == true)
    }

    /// The largest frame (bytes) that a single HEVC item above 8 bits may fill on the HEVC
    /// path beside other decodes: the frame of the largest 8-bit single item that already
    /// decodes shared (`Defaults.maxPixels`, 100 MP, at 4:2:0: 1.5 bytes a pixel). libavcodec
    /// holds such an item's whole picture at 2 bytes a sample (a 33 MP 10-bit 4:2:2 camera
    /// HEIF: 131 MB); the HEVC path narrows it in bands (`HEIFPictureStream.band`), never whole.
    static let largestSharedFrameBytes = 150_000_000

    /// Whether the HEVC path decodes this HEIF as one HEVC item (one that `HEIFImageItems`
    /// takes) whose decoded frame, `pixels` at the depth and chroma format its `hvcC` names,
    /// is at most `largestSharedFrameBytes`. Costs the `meta` walk and a copy of the coded
    /// item, like `boundedByTileRows`.
    static func boundedFrame(_ bytes: UnsafeRawBufferPointer, pixels: Int) -> Bool {
        guard let primary = HEIFImageItems.primaryAndThumbnail(in: BorrowedBytes(bytes: bytes))?.primary,
              primary.tiles.count == 1, let perPixel = frameBytesPerPixel(hvcC: primary.configuration) else { return false }
        return Double(pixels) * perPixel <= Double(largestSharedFrameBytes)
    }

    /// Bytes a pixel of libavcodec's decoded frame for an HEVC configuration record (`hvcC`:
    /// chroma format at byte 16, luma bit depth − 8 at byte 17): 1 luma sample plus 0, ½, 1
    /// or 2 chroma samples (monochrome, 4:2:0, 4:2:2, 4:4:4), each 1 byte at 8 bits, else 2.
    static func frameBytesPerPixel(hvcC: [UInt8]) -> Double? {
        guard hvcC.count > 18 else { return nil }
        let samples: [Double] = [1, 1.5, 2, 3]
        return samples[Int(hvcC[16] & 3)] * (hvcC[17] & 7 > 0 ? 2 : 1)
    }

    /// Whether the HEVC path decodes this HEIF a row of tiles at a time: its primary image is
    /// a grid of HEVC tiles and `HEIFImageItems` takes it (no alpha, no PQ/HLG nclx, known
    /// properties). Costs the `meta` walk and a copy of the coded tiles (the file's size).
    /// What only the stream reveals (a PQ/HLG VUI, a pixel format that path does not convert)
    /// sends the decode to libvips after all: `Hold.beforeWholeImageDecode` then takes the
    /// gate exclusively.
    static func boundedByTileRows(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let source = BorrowedBytes(bytes: bytes)
        return HEIFImageItems.isTiledGrid(in: source) && HEIFImageItems.primaryAndThumbnail(in: source) != nil
    }

    /// The gate as one decode holds it, from `enter` to `leave`: shared or exclusive as
    /// `isWholeImage` chose, or not at all once a wait for it was stopped. A 10/12-bit grid
    /// HEIC enters shared; if the HEVC path declines it and libvips is to decode it whole,
    /// `beforeWholeImageDecode` gives the shared hold back and waits for the exclusive one.
    /// Used on the decode's own thread only.
    final class Hold: @unchecked Sendable {
        private(set) var exclusive: Bool
        private var held = false
        /// Whether a libvips fallback must first take the gate exclusively.
        private let upgradesBeforeWholeImage: Bool

        init(header: ImageHeader, bytes: UnsafeRawBufferPointer) {
            exclusive = WholeImageDecodeGate.isWholeImage(header, bytes: bytes)
            upgradesBeforeWholeImage = !exclusive && WholeImageDecodeGate.isWholeImage(header)
        }

        /// Takes the gate (see `WholeImageDecodeGate.enter`); nil when taken.
        func enter(unless stop: DecodeGuard?) -> StopReason? {
            let reason = WholeImageDecodeGate.enter(exclusive: exclusive, unless: stop)
            held = reason == nil
            return reason
        }

        /// Before libvips decodes the picture whole: the exclusive gate, when this decode
        /// entered shared on the HEVC path's account. Returns the stop reason when the wait
        /// was stopped (the gate is then not held).
        func beforeWholeImageDecode(unless stop: DecodeGuard?) -> StopReason? {
            guard held, upgradesBeforeWholeImage, !exclusive else { return nil }
            WholeImageDecodeGate.leave(exclusive: false)
            exclusive = true
            return enter(unless: stop)
        }

        /// Gives the gate back, if held.
        func leave() {
            if held { WholeImageDecodeGate.leave(exclusive: exclusive) }
            held = false
        }
    }

    /// The decodes holding the gate now: shared holders and whether one holds it exclusively
    /// (tests assert on admission with it).
    static var holders: (shared: Int, exclusive: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (sharedHolders, exclusiveHeld)
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
