import Foundation

/// The one switch between the toolkit's own fast paths and the libraries they replace.
///
/// The fast paths (JPEG decode on the calling thread through `CJPEGDecode`, the fixed-point
/// resampler of `CResampleKernel`, JPEG and WebP encodes through `CStillEncode`, the direct
/// ICC transforms, the HEIC and AVIF decodes through libav, the reuse of a source JPEG as its
/// fallback, the cards' own PNG coder) make the same outputs as the library path within a
/// stated tolerance, faster. With `JOURNAL_MEDIA_LIBRARY_PATHS=1` in the environment every
/// one of them is skipped and libvips (with libheif, libjpeg, libwebp, libpng) does the work:
/// for debugging, and for a platform where a fast path is wrong. Read once, when first asked.
public enum FastPaths {
    /// The environment variable that turns the fast paths off (`1`, `true` or `yes`).
    public static let environmentVariable = "JOURNAL_MEDIA_LIBRARY_PATHS"

    /// Whether the fast paths may run: true unless the environment turns them off.
    public static let enabled: Bool = {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable]?.lowercased() else { return true }
        return !["1", "true", "yes"].contains(value)
    }()
}
