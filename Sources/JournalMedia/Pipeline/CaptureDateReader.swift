import Foundation

/// What `journal-media inspect` reports for one file: its format and capture date, read from
/// headers only.
public struct Inspection: Sendable {
    public var source: URL
    public var format: SourceFormat?
    /// Size of the file in bytes.
    public var bytes: Int?
    public var captureDate: CaptureDate?
    /// Live Photo content identifier: Apple MakerNote tag 0x0011 of a still, or the
    /// `com.apple.quicktime.content.identifier` key of a movie; nil when there is none.
    public var contentIdentifier: String?
    /// Duration a movie's or audio file's header declares, in seconds.
    public var durationSeconds: Double?
    public var error: AssetError?

    public init(source: URL) {
        self.source = source
    }

    /// The `inspect` line: one JSON object, keys in the documented order, unknown values as
    /// `null`; `source` is the path as the user named it.
    public func jsonLine(source name: String) -> String {
        func quoted(_ s: String?) -> String { s.map { "\"\(JSONText.escape($0))\"" } ?? "null" }
        let errorJSON = error.map { "{\"stage\":\"\($0.stage.rawValue)\",\"message\":\(quoted($0.message))}" } ?? "null"
        return "{\"source\":\(quoted(name)),\"format\":\(quoted(format?.rawValue)),"
            + "\"mediaType\":\(quoted(format?.mediaType)),\"bytes\":\(bytes.map(String.init) ?? "null"),"
            + "\"captureDate\":\(captureDate?.json ?? "null"),\"error\":\(errorJSON)}"
    }
}

/// Reads capture dates without decoding pixels: the container is walked for its EXIF and
/// XMP blocks (images) or opened by libavformat for its tags (video and audio), and
/// `CaptureDateResolver` picks the most trusted value.
///
/// Stateless and Sendable; call it from as many threads as you like. `inspect(fileAt:)`
/// costs one open, a 64 KiB read and a few small `pread`s for images (the JPEG/PNG/WebP head,
/// a HEIF `meta` box), a libavformat header parse for movies.
public enum CaptureDateReader {
    /// Inspects the file at `url`; `displayName` names it in errors (default: its path).
    public static func inspect(fileAt url: URL, displayName: String? = nil) -> Inspection {
        let name = displayName ?? url.path
        var inspection = Inspection(source: url)
        let file: FileBytes
        do throws(RegularFileError) { file = try FileBytes(path: url.path) } catch {
            inspection.error = AssetError(file: name, stage: .read, message: error.message)
            return inspection
        }
        inspection.bytes = file.size
        guard file.size > 0 else {
            inspection.error = AssetError(file: name, stage: .sniff, message: "empty file")
            return inspection
        }
        guard let head = file.read(0, min(file.size, FormatSniffer.prefixLength)),
              let format = FormatSniffer.sniff(head) else {
            inspection.error = AssetError(file: name, stage: .sniff,
                                          message: "unsupported or unrecognised format (not a media file this toolkit reads)")
            return inspection
        }
        inspection.format = format
        let metadata = HeaderMetadata.read(file, format: format, url: url, modified: file.modified)
        inspection.captureDate = metadata.captureDate
        inspection.contentIdentifier = metadata.contentIdentifier
        inspection.durationSeconds = metadata.durationSeconds
        return inspection
    }

    /// The capture date of a file whose bytes are at hand or readable on demand.
    static func captureDate(of source: some ByteSource, format: SourceFormat, url: URL, modified: Double?) -> CaptureDate? {
        HeaderMetadata.read(source, format: format, url: url, modified: modified).captureDate
    }
}

/// What the headers of one file say without decoding anything: capture date, Live Photo
/// content identifier and (movies) declared duration.
///
/// Images: the container is walked for EXIF and XMP (`MetadataBlocks`), EXIF is parsed once
/// by libexif and the Apple MakerNote by `AppleMakerNote`. Movies and audio: libavformat's
/// header parse (`ContainerMetadataReader`), or the tags of a `MediaFile` already open.
struct HeaderMetadata {
    var captureDate: CaptureDate?
    var contentIdentifier: String?
    var durationSeconds: Double?

    static let contentIdentifierKey = "com.apple.quicktime.content.identifier"

    static func read(_ source: some ByteSource, format: SourceFormat, url: URL, modified: Double?,
                     containerTags: [String: String]? = nil) -> HeaderMetadata {
        var resolver = CaptureDateResolver(fileName: url.lastPathComponent, modified: modified)
        var metadata = HeaderMetadata()
        if format.isVideo || format.isAudio {
            var tags = containerTags
            if tags == nil, let read = ContainerMetadataReader.read(path: url.path) {
                tags = read.tags
                metadata.durationSeconds = read.durationSeconds
            }
            resolver.containerTags = tags ?? [:]
            metadata.contentIdentifier = tags?[contentIdentifierKey].flatMap(Self.identifier)
        } else {
            let blocks = MetadataBlocks.find(in: source, format: format)
            let exif = blocks.exif.flatMap(ExifBlock.init(tiff:))
            resolver.exif = exif
            resolver.xmp = blocks.xmp.map { String(decoding: $0, as: UTF8.self) }
            resolver.pngTexts = blocks.texts
            if let note = exif?.makerNote() {
                metadata.contentIdentifier = AppleMakerNote.parse(note)?.contentIdentifier.flatMap(Self.identifier)
            }
        }
        metadata.captureDate = resolver.resolve()
        return metadata
    }

    /// An identifier with surrounding blanks removed; nil when empty.
    static func identifier(_ raw: String) -> String? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        return trimmed.isEmpty ? nil : trimmed
    }
}
