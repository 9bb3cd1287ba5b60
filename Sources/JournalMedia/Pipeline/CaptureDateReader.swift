import Foundation

/// What `journal-media inspect` reports for one file: its format and capture date, read from
/// headers only.
public struct Inspection: Sendable {
    public var source: URL
    public var format: SourceFormat?
    /// Size of the file in bytes.
    public var bytes: Int?
    public var captureDate: CaptureDate?
    public var error: AssetError?

    public init(source: URL) {
        self.source = source
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
        do throws(FileBytesError) { file = try FileBytes(path: url.path) } catch {
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
        inspection.captureDate = captureDate(of: file, format: format, url: url, modified: file.modified)
        return inspection
    }

    /// The capture date of a file whose bytes are at hand (a batch has read it whole) or
    /// readable on demand. Video and audio tags are read from `url` by libavformat.
    static func captureDate(of source: some ByteSource, format: SourceFormat, url: URL, modified: Double?) -> CaptureDate? {
        var resolver = CaptureDateResolver(fileName: url.lastPathComponent, modified: modified)
        if format.isVideo || format.isAudio {
            if case .success(let tags) = ContainerMetadataReader.tags(ofFileAt: url.path) {
                resolver.containerTags = tags
            }
        } else {
            let blocks = MetadataBlocks.find(in: source, format: format)
            resolver.exif = blocks.exif.flatMap(ExifBlock.init(tiff:))
            resolver.xmp = blocks.xmp.map { String(decoding: $0, as: UTF8.self) }
            resolver.pngTexts = blocks.texts
        }
        return resolver.resolve()
    }
}
