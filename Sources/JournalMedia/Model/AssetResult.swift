import Foundation

/// One rendition encoded in memory: what the processor hands back before anything is written.
public struct EncodedRendition: Sendable {
    public var role: String
    public var format: RenditionFormat
    public var width: Int
    public var height: Int
    public var data: [UInt8]
}

/// Everything the toolkit learned and made from one input file.
///
/// Produced by `AssetProcessor.process(fileAt:)`. On failure `error` is set and the fields
/// reached before the failing stage are still filled (a file that was read has its digest).
public struct AssetResult: Sendable {
    public var source: URL
    /// Lowercase hex SHA-256 of the file's bytes; nil when the file could not be read.
    public var sha256: String?
    /// Size of the file in bytes.
    public var bytes: Int?
    /// Modification time of the file, seconds since 1970.
    public var modified: Double?
    public var kind: AssetKind?
    public var format: SourceFormat?
    /// Display size: after EXIF orientation is applied (a portrait photo stored sideways
    /// reports its upright width and height).
    public var width: Int?
    public var height: Int?
    /// EXIF orientation (1–8) found in the file; 1 when there is none.
    public var orientation: Int?
    /// When the asset was captured, from its metadata, name or modification time (nil when
    /// the file could not be read or is not a format the toolkit reads).
    public var captureDate: CaptureDate?
    /// Live Photo content identifier (Apple MakerNote 0x0011, or the QuickTime key
    /// `com.apple.quicktime.content.identifier`); nil when the file has none.
    public var contentIdentifier: String?
    /// Movie facts (duration, codec, rotation, …); nil for stills.
    public var video: VideoRecord?
    public var renditions: [EncodedRendition]
    /// Average, dominant and card colours (nil when not computed or on error).
    public var colors: ColorInfo?
    /// ThumbHash placeholder (nil when not computed or on error).
    public var placeholder: Placeholder?
    public var error: AssetError?
    /// Seconds spent in each stage (`read` and `write` are filled by `Batch`).
    public var timings = StageTimings()

    public init(source: URL) {
        self.source = source
        self.renditions = []
    }

    public var succeeded: Bool { error == nil }
}
