import CStillEncode
import CVips
import JournalMediaCore

/// Lossy WebP encode of an 8-bit image in memory with libwebp's `WebPEncode`, on the calling
/// thread. Same configuration as the linked libvips' `webpsave` for the arguments the renderer
/// passes (`WebPConfigPreset(DEFAULT, Q)`, method = effort, alpha quality 100, no sharp YUV,
/// no near-lossless, RGB/RGBA import, grey as RGB) and the same file layout as its output after
/// `WebPMetadataRemover` (a flag-less VP8X chunk ahead of an opaque bitstream): the bytes are
/// identical (`DirectStillEncodeTests`).
///
/// Runs for every WebP rendition whose image `DirectStillEncode.pixels(of:)` accepts and whose
/// sides fit WebP's 16383 px, with an effort of 0–6 (larger images and other efforts go to
/// libvips, which reports "image too large" or the argument's range, as before);
/// costs the libwebp encode alone, without libvips' disc sink (a frame copy and a worker
/// thread trading tiles with the caller). The guard is checked before and at libwebp's
/// progress points.
enum DirectWebPEncode {
    /// WebP's largest side.
    static let maxSide = 16383

    /// The encoded file, or nil when `image` is not one this encoder takes.
    static func encode(_ image: VipsImageHandle, quality: Int, effort: Int, stop: DecodeGuard? = nil) throws(VipsError) -> [UInt8]? {
        guard (0...6).contains(effort), (0...100).contains(quality), image.width <= maxSide, image.height <= maxSide,
              let pixels = DirectStillEncode.pixels(of: image) else { return nil }
        let width = Int32(image.width), height = Int32(image.height)
        return try DirectStillEncode.run("webpsave", stop: stop) { shouldStop, context, output in
            jm_webp_encode(pixels.data, width, height, Int32(pixels.bands), pixels.stride,
                           Int32(quality), Int32(effort), shouldStop, context, output)
        }
    }
}
