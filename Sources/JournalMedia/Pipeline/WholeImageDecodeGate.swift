import Dispatch
import JournalMediaCore
import JournalMediaImaging

/// One whole-image HEIF/AVIF decode at a time, process-wide.
///
/// libvips cannot shrink a HEIF or AVIF while loading it: libheif decodes the whole image
/// (and, for AV1, dav1d or libaom keep their own frame buffers), so a 20-megapixel 10-bit AVIF
/// holds about 540 MB inside libheif alone, 26–30 bytes per pixel in all. Two of those at once
/// under `--jobs 2` doubled the batch's peak. Decodes that go that way — AVIF, 10/12-bit or
/// alpha HEIF (8-bit HEIC without alpha takes the libavcodec path, which holds about 2 bytes
/// per pixel) — of at least `minimumPixels` wait here for each other; everything else runs
/// freely beside them. A batch's peak is then about one such decode plus `jobs − 1` ordinary
/// assets.
///
/// Used by `StillDecoding` before its deadline starts (waiting does not count against
/// `--timeout`); the slot is given back when the decode's thread finishes, also when the caller
/// stopped waiting for it, so an abandoned decode still counts. Costs nothing for other images.
enum WholeImageDecodeGate {
    /// Smaller images decode freely: 4 MP × ~28 bytes ≈ 110 MB.
    static let minimumPixels = 4_000_000

    private static let slot = DispatchSemaphore(value: 1)

    /// Whether decoding the image `header` describes goes through the gate.
    static func applies(to header: ImageHeader) -> Bool {
        guard header.format == .heic || header.format == .avif, header.pixelCount >= minimumPixels else { return false }
        return header.format == .avif || header.highBitDepth || header.hasAlpha
    }

    /// Waits for the slot.
    static func enter() { slot.wait() }

    /// Gives the slot back.
    static func leave() { slot.signal() }
}
