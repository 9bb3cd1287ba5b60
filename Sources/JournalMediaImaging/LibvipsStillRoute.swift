import JournalMediaCore

/// The imaging layer's part of the decoder table: what `ImageDecoder` and `ImageHeaderReader`
/// do beside the plain libvips load for a still whose handler declares a coding
/// (`StillLoading.codec`). The pipeline's `StillDecoders` holds the rest (the video layer's
/// HEIF decoders, the lenient retry, the refusals); both are keyed by the same codec, so
/// neither names a format and a handler without a codec is decoded by libvips alone.
///
/// Looked up once per header read and per decode: one dictionary probe.
package struct LibvipsStillRoute: Sendable {
    /// A decode into memory followed by the toolkit's resampler, tried before libvips'
    /// `thumbnail` (each names the one coding it reads inside itself).
    package enum ResampledDecode: Sendable { case jpeg, png }

    package var resampled: ResampledDecode?
    /// libjpeg's DCT scaling through `jpegload_buffer`'s `shrink` before the thumbnail, when
    /// the resampled decode is off or declines.
    package var dctShrinkOnLoad = false
    /// libheif: load the primary image and shrink it when the embedded thumbnail libvips'
    /// `thumbnail` took has another size than it claims ("bad image dimensions on decode").
    package var primaryImageRetry = false
    /// libheif: a grid whose `irot` comes before its `ispe` is reported unturned
    /// (`ImageHeaderReader.heifTurnedSize`); the header takes the file's own display size.
    package var turnedGridSize = false

    /// libvips' loader alone.
    package static let plain = LibvipsStillRoute()

    /// The table, by the coding a handler declares.
    static let table: [StillCodec: LibvipsStillRoute] = [
        .jpeg: LibvipsStillRoute(resampled: .jpeg, dctShrinkOnLoad: true),
        .png: LibvipsStillRoute(resampled: .png),
        .heifHEVC: LibvipsStillRoute(primaryImageRetry: true, turnedGridSize: true),
    ]

    /// The route for a still whose handler declares `codec`.
    package static func of(_ codec: StillCodec?) -> LibvipsStillRoute { codec.flatMap { table[$0] } ?? .plain }

    /// The route for `format`, from its handler's `StillLoading.codec`.
    package static func of(_ format: SourceFormat) -> LibvipsStillRoute { of(format.handling.still?.codec) }
}
