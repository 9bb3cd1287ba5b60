import CStillEncode
import CVips
import JournalMediaCore

/// JPEG encode of an 8-bit grey or RGB image in memory with libjpeg (into a growing buffer of
/// `CStillEncode`'s own), on the calling thread. Same settings as the linked libvips' `jpegsave` with `strip`: quality with
/// baseline tables, Huffman optimisation, progressive scans (`jpeg_simple_progression`),
/// chroma 4:2:0 for `on`, 4:4:4 for `off`, and for `auto` 4:2:0 below quality 90; grey as a
/// one-component JPEG; libjpeg's default DCT (islow); no APP markers at all (libvips writes
/// no JFIF header when stripping). Bytes identical to libvips' (`DirectStillEncodeTests`).
///
/// Runs for every JPEG rendition whose image `DirectStillEncode.pixels(of:)` accepts without
/// alpha (flattened images are lazy and stay on libvips); costs the libjpeg encode alone,
/// without libvips' disc sink and its worker thread. The guard is checked before every 16 rows.
enum DirectJPEGEncode {
    /// The encoded file, or nil when `image` is not one this encoder takes. `subsampleMode`
    /// is libvips' nick: `on`, `off` or `auto`.
    static func encode(_ image: VipsImageHandle, quality: Int, optimizeCoding: Bool, progressive: Bool,
                       subsampleMode: String, stop: DecodeGuard? = nil) throws(VipsError) -> [UInt8]? {
        guard let pixels = DirectStillEncode.pixels(of: image), pixels.bands == 1 || pixels.bands == 3 else { return nil }
        let subsample: Bool
        switch subsampleMode {
        case "on": subsample = true
        case "off": subsample = false
        case "auto": subsample = quality < 90
        default: return nil
        }
        let settings = jm_jpeg_settings(quality: Int32(quality), optimize_coding: optimizeCoding ? 1 : 0,
                                        progressive: progressive ? 1 : 0, subsample: subsample ? 1 : 0)
        let width = Int32(image.width), height = Int32(image.height)
        return try DirectStillEncode.run("jpegsave", stop: stop) { shouldStop, context, output in
            jm_jpeg_encode(pixels.data, width, height, Int32(pixels.bands), pixels.stride, settings,
                           shouldStop, context, output)
        }
    }
}
