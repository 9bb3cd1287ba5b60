import Foundation

/// The one switch between the toolkit's own fast paths and the libraries they replace.
///
/// The fast paths (listed by `FastPath`; their code lives in `Sources/FastPaths/` and in the
/// `FastPaths/` folders of the imaging and video targets) make the same outputs as the library
/// path within a stated tolerance, faster. With `JOURNAL_MEDIA_LIBRARY_PATHS=1` in the
/// environment every one of them is skipped and libvips (with libheif, libjpeg, libwebp,
/// libpng, lcms) or libavfilter does the work: for debugging, and for a platform where a fast
/// path is wrong. Read once, when first asked; each call site asks `enabled` (or
/// `allows(_:)`, the same answer, naming the fast path it guards).
public enum FastPaths {
    /// The environment variable that turns the fast paths off (`1`, `true` or `yes`).
    public static let environmentVariable = "JOURNAL_MEDIA_LIBRARY_PATHS"

    /// Whether the fast paths may run: true unless the environment turns them off (or a test
    /// runs the current task on one side with `libraryPathsInThisTask`).
    public static var enabled: Bool { libraryPathsInThisTask.map { !$0 } ?? environmentAllows }

    /// Whether `path` may run: `enabled`, whichever it is (one switch for all of them).
    public static func allows(_ path: FastPath) -> Bool { enabled }

    private static let environmentAllows: Bool = {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable]?.lowercased() else { return true }
        return !["1", "true", "yes"].contains(value)
    }()

    /// Tests: `true` runs the current task (and the synchronous calls on its thread) on the
    /// library paths, `false` on the fast paths, whatever the environment says; nil follows it.
    /// Work handed to other threads (a batch's decode pool) does not see it.
    @TaskLocal package static var libraryPathsInThisTask: Bool?
}

/// Each piece of the toolkit's own code that stands in for a library function, with the
/// library path it replaces (what `JOURNAL_MEDIA_LIBRARY_PATHS=1` runs instead). Each has a
/// differential test against that library path (`FastPathDifferentialTests` and the suites
/// named in docs/fast-paths.md). A catalogue: it costs nothing at run time.
public enum FastPath: String, CaseIterable, Sendable {
    /// `DirectJPEGDecode` (CJPEGDecode, libjpeg on the calling thread) for libvips' `jpegload`.
    case jpegDecode
    /// `JPEGResampledDecode`: DCT-scaled decode, resampled in memory, for `jpegload` + `resize`.
    case jpegResampledDecode
    /// `InMemoryResize` (JournalMediaResampling, CResampleKernel) for libvips' `resize` (Lanczos 3).
    case resize
    /// `DirectJPEGEncode` / `DirectWebPEncode` (CStillEncode) for `jpegsave` / `webpsave`.
    case stillEncode
    /// `DirectProfileTransform` (lcms directly, matrix-shaper tables) for `icc_transform`.
    case profileTransform
    /// `SRGBProfileMatch`: an sRGB-in-all-but-name profile skips `icc_transform`.
    case srgbProfileMatch
    /// `JPEGFallbackReuse`: the source JPEG's coded picture copied instead of decode + `jpegsave`.
    case jpegReuse
    /// `CardPNGEncoder` (own deflate) for `pngsave` of a card.
    case cardPNG
    /// `HEIFHEVCDecoder` (HEVCStills, libavcodec) for `heifload` (libheif + libde265).
    case heicDecode
    /// `AVIFAV1Decoder` (AV1Stills, libdav1d through libavcodec) for `heifload` (libheif + libaom/dav1d).
    case avifDecode
    /// `HDRToneCurve` (tables after one swscale pass) for libavfilter's zscale + tonemap graph.
    case hdrToneCurve
    /// `DirectPNGEncode` (Paeth filter, own run-and-Huffman deflate) for `pngsave` of a default-settings PNG rendition.
    case pngEncode
    /// `PNGResampledDecode`: a PNG decoded whole and shrunk by `InMemoryResize`, for `thumbnail`.
    case pngResampledDecode
    /// `PNGDirectDecode` (libdeflate, own unfilter) for libvips' `pngload` (libpng + zlib).
    case pngDecode
    /// `OpaqueAlpha`: one pass over decoded pixels for `extract_band` + `min`, and a copy for `flatten`.
    case opaqueAlpha
}
