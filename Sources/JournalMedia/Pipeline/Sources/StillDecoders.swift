import JournalMediaCore
import JournalMediaHEIF
import JournalMediaImaging
import JournalMediaVideo

/// What the pipeline does to decode a still beside libvips' loader, for one coding
/// (`StillLoading.codec`): the video layer's in-process decoder, a header read from the file's
/// own boxes, a refusal before decoding, the tile-wise limit, the lenient retry. The photo
/// source and the memory gate ask this table (`StillDecoders.entry(for:)`) and switch on no
/// format; a handler that declares no codec gets `StillDecoder.libvips`, which is all a format
/// libvips reads needs. `LibvipsStillRoute` is the imaging layer's half of the same table.
///
/// Plain data and closures, built once; a lookup is one dictionary probe.
struct StillDecoder: Sendable {
    /// An in-process decode tried before libvips (never for an enlarged, vector source).
    struct FastDecode: Sendable {
        /// Words for the errors that name it ("the HEVC decode declined it").
        var label: String
        /// The catalogue entry that switches it off (`FastPaths`).
        var path: FastPath
        /// Decodes to fit `box`; `.declined` with the reason this path gives, if any.
        var decode: @Sendable (_ bytes: UnsafeRawBufferPointer, _ box: (width: Int, height: Int),
                               _ header: ImageHeader, _ limits: PixelLimits, _ stop: DecodeGuard?) -> Outcome
    }

    enum Outcome {
        case decoded(HEIFDecodedRGB)
        case declined(String?)
    }

    var fast: FastDecode?
    /// A header read without libvips, for a file libvips' loader refuses that `fast` decodes.
    var headerWithoutLibvips: (@Sendable (UnsafeRawBufferPointer) -> ImageHeader?)?
    /// Why a file is refused before any decode (a case the loader gets wrong), or nil.
    var refusal: (@Sendable ([UInt8]) -> String?)?
    /// Whether `fast` decodes this file a row of tiles at a time, so that it may exceed the
    /// whole-image limit up to `--max-tiled-pixels` (and must not reach libvips if above it).
    var tileWise: (@Sendable (UnsafeRawBufferPointer) -> Bool)?
    /// Whether `fast` bounds this file's decode memory (`pixels` given), so that a
    /// `StillLoading.WholeImage.heifRules` decode need not take the gate exclusively.
    var boundsMemory: (@Sendable (UnsafeRawBufferPointer, _ pixels: Int) -> Bool)?
    /// The decoder checks the guard itself often enough to run on the caller's thread
    /// (libjpeg every 64 rows, libvips between tiles): no `DeadlineThread` of its own.
    var stopsByItself = false
    /// A first decode fails on any decoder warning and a second reads past the damage
    /// (`StillDecoding.lenientPixels`); else one decode that fails only on missing pixels.
    var retriesPastWarnings = false
    /// libheif through libvips: a header failure whose only message is "bad seek to N" past the
    /// end says nothing, and `HeaderReadFailure` explains it.
    var libheifSeekNoise = false

    /// libvips' loader alone.
    static let libvips = StillDecoder()
}

enum StillDecoders {
    /// The table, by the coding a handler declares.
    static let table: [StillCodec: StillDecoder] = [
        .jpeg: StillDecoder(stopsByItself: true, retriesPastWarnings: true),
        .heifHEVC: heifHEVC,
        .heifAV1: StillDecoder(fast: .init(label: "AV1 decode", path: .avifDecode) { bytes, box, header, _, _ in
            AVIFAV1Decoder.decode(bytes, boxWidth: box.width, boxHeight: box.height,
                                  expectedSize: (header.displayWidth, header.displayHeight)).map { .decoded($0) } ?? .declined(nil)
        }, libheifSeekNoise: true),
        .jpeg2000: StillDecoder(refusal: { bytes in
            guard let size = JPEG2000Size(MemoryBytes(bytes: bytes)), size.firstComponentIsSubsampled,
                  let first = size.components.first else { return nil }
            return "a JPEG 2000 whose first component is subsampled \(first.dx)×\(first.dy): libvips 8.14 decodes "
                + "such files wrongly (it reads past the component's samples), so it is not decoded"
        }),
    ]

    /// HEVC images in HEIF: libavcodec's HEVC decoder (`HEIFHEVCDecoder`), tile rows for grids.
    private static let heifHEVC = StillDecoder(
        fast: .init(label: "HEVC decode", path: .heicDecode) { bytes, box, header, limits, stop in
            switch HEIFHEVCDecoder.attempt(bytes, boxWidth: box.width, boxHeight: box.height,
                                           expectedSize: (header.displayWidth, header.displayHeight),
                                           maximumPixels: limits.tiled, stop: stop) {
            case .success(let decoded): .decoded(decoded)
            case .failure(let reason): .declined(reason.message)
            }
        },
        headerWithoutLibvips: { ImageHeaderReader.heifWithoutLibvips($0) },
        tileWise: { HEIFImageItems.isTiledGrid(in: BorrowedBytes(bytes: $0)) },
        boundsMemory: { bytes, pixels in
            WholeImageDecodeGate.boundedByTileRows(bytes) || WholeImageDecodeGate.boundedFrame(bytes, pixels: pixels)
        },
        libheifSeekNoise: true)

    /// The decoders for a still whose handler declares `codec`.
    static func entry(codec: StillCodec?) -> StillDecoder { codec.flatMap { table[$0] } ?? .libvips }

    /// The decoders for `format`, from its handler's `StillLoading.codec`.
    static func entry(for format: SourceFormat) -> StillDecoder { entry(codec: format.handling.still?.codec) }
}
