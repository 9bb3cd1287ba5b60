import Foundation
import JournalMediaCore
import JournalMediaMetadata
import JournalMediaVideo

/// What `journal-media inspect` reports for one file: its format and capture date, read from
/// headers only.
public struct Inspection: Sendable {
    public var source: URL
    public var format: SourceFormat?
    /// Size of the file in bytes.
    public var bytes: Int?
    public var captureDate: CaptureDate?
    /// Where the file says it was made (`Location`); nil also with `--no-location`.
    public var location: Location?
    /// The populated place nearest to `location` (`PlaceIndex`, offline).
    public var place: Place?
    /// The device, from EXIF or QuickTime keys (`CameraInfo`).
    public var camera: CameraInfo?
    /// Why a stated location was refused (`Location`'s sanity rules); empty when nothing to say.
    public var warnings: [String] = []
    /// Live Photo content identifier: Apple MakerNote tag 0x0011 of a still, or the
    /// `com.apple.quicktime.content.identifier` key of a movie; nil when there is none.
    public var contentIdentifier: String?
    /// Duration a movie's or audio file's header declares, in seconds.
    public var durationSeconds: Double?
    public var error: AssetError?
    /// `"percent"` when the file's name is not valid UTF-8 and `source` is its escaped
    /// spelling (`FileNameEscaping`); nil otherwise (the key is then left out of the line).
    public var sourceEncoding: String?

    public init(source: URL) {
        self.source = source
    }

    /// The `inspect` line (Schemas/inspect-line.v1.json): one JSON object, keys in the
    /// documented order, unknown values as `null`; `source` is the path as the user named it.
    public func jsonLine(source name: String) -> String {
        func quoted(_ s: String?) -> String { s.map { "\"\(JSONText.escape($0))\"" } ?? "null" }
        let errorJSON = error.map {
            "{\"stage\":\"\($0.stage.rawValue)\",\"reason\":\"\($0.reason.rawValue)\",\"message\":\(quoted($0.message))}"
        } ?? "null"
        let duration = durationSeconds.flatMap { $0.isFinite ? Self.millisecondsText($0) : nil }
        return "{\"source\":\(quoted(name)),\"format\":\(quoted(format?.rawValue)),"
            + "\"mediaType\":\(quoted(format?.mediaType)),\"bytes\":\(bytes.map(String.init) ?? "null"),"
            + "\"captureDate\":\(captureDate?.json ?? "null"),"
            + "\"location\":\(location?.json ?? "null"),\"place\":\(place?.json ?? "null"),"
            + "\"camera\":\(camera?.json ?? "null"),"
            + "\"contentIdentifier\":\(quoted(contentIdentifier)),\"durationSeconds\":\(duration ?? "null"),"
            + "\"error\":\(errorJSON)"
            + (sourceEncoding.map { ",\"sourceEncoding\":\(quoted($0))" } ?? "")
            + (warnings.isEmpty ? "" : ",\"warnings\":[" + warnings.map { quoted($0) }.joined(separator: ",") + "]") + "}"
    }
}

extension Inspection {
    /// The inspection without `location` (and the warnings about it, and a capture date's
    /// offset taken from the place's time zone): `--no-location`.
    public func withoutLocation() -> Inspection {
        var copy = self
        copy.captureDate = captureDate?.withoutPlaceZone()
        copy.location = nil
        copy.place = nil
        copy.warnings = []
        return copy
    }

    /// Seconds to the millisecond without trailing zeros (`2`, `2.046`, `0.12`), as JSON.
    static func millisecondsText(_ seconds: Double) -> String {
        var text = String(format: "%.3f", seconds)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty || text == "-" ? "0" : text
    }
}

/// Reads capture dates without decoding pixels: the file is probed once (`ProbedAsset`: the
/// container walked for its EXIF and XMP blocks, or libavformat's header parse for video and
/// audio) and `CaptureDateResolver` picks the most trusted value.
///
/// Stateless and Sendable; call it from as many threads as you like. `inspect(fileAt:)`
/// costs one open, a 64 KiB read and a few small `pread`s for images (the JPEG/PNG/WebP head,
/// a HEIF `meta` box), a libavformat header parse for movies, all through one descriptor.
public enum CaptureDateReader {
    /// Inspects the file at `url`; `displayName` names it in errors (default: its path).
    /// `sidecars`: a shared `XMPSidecars.listing()` when inspecting many files of a folder.
    public static func inspect(fileAt url: URL, displayName: String? = nil,
                               sidecars: XMPSidecars = .direct) -> Inspection {
        inspect(ProbedAsset.open(url, name: displayName, keepMediaOpen: false, sidecars: sidecars))
    }

    /// Inspects bytes in memory (an upload) as `inspect(fileAt:)` inspects a file: capture
    /// date, location, place, camera, identifier, duration. `name` is the original file name
    /// (file-name dates read it; errors and `source` carry it); `modified` stands in for a
    /// file's modification time (the last-resort date). No XMP sidecar is looked for. Runs on
    /// the calling thread: headers only (for a movie, libavformat's open of the bytes), no
    /// pixels; the bytes are not copied.
    public static func inspect(data: [UInt8], name: String, modified: Double? = nil) -> Inspection {
        inspect(ProbedAsset(data: data, name: name, modified: modified))
    }

    /// `inspect(data:name:modified:)` for a `Data`, read in place (the generic entry below).
    public static func inspect(data: Data, name: String, modified: Double? = nil) -> Inspection {
        inspectInPlace(data, name: name, modified: modified)
    }

    /// `inspect(data:name:modified:)` for bytes in any collection that holds them
    /// contiguously — SwiftNIO's `ByteBuffer` as its `readableBytesView`, `Data`, an
    /// `ArraySlice` — read in place through `withContiguousStorageIfAvailable`, without a
    /// copy; other collections are copied into a `[UInt8]` first. On the calling thread.
    public static func inspect<Bytes: Collection<UInt8>>(data bytes: Bytes, name: String,
                                                         modified: Double? = nil) -> Inspection {
        if let array = bytes as? [UInt8] { return inspect(data: array, name: name, modified: modified) }
        return inspectInPlace(bytes, name: name, modified: modified)
    }

    private static func inspectInPlace<Bytes: Collection<UInt8>>(_ bytes: Bytes, name: String, modified: Double?) -> Inspection {
        bytes.withContiguousStorageIfAvailable { buffer in
            inspect(ProbedAsset(borrowing: UnsafeRawBufferPointer(buffer), name: name, modified: modified,
                                keepMediaOpen: false))
        } ?? inspect(data: [UInt8](bytes), name: name, modified: modified)
    }

    /// What a probe found, as `inspect` reports it.
    public static func inspect(_ probe: ProbedAsset) -> Inspection {
        var inspection = Inspection(source: probe.url ?? URL(fileURLWithPath: probe.name))
        inspection.bytes = probe.size
        inspection.format = probe.format
        inspection.captureDate = probe.captureDate
        inspection.location = probe.location
        inspection.place = probe.location.flatMap(Place.nearest(to:))
        inspection.camera = probe.camera
        inspection.warnings = probe.metadataWarnings
        inspection.contentIdentifier = probe.contentIdentifier
        inspection.durationSeconds = probe.durationSeconds
        inspection.error = probe.error
        if probe.pathBytes != nil { inspection.sourceEncoding = FileNameEscaping.encodingName }
        return inspection
    }
}

/// What the headers of one file say without decoding anything: capture date, Live Photo
/// content identifier and (movies) declared duration.
///
/// Images: the container is walked for EXIF and XMP (`MetadataBlocks`), EXIF is parsed once
/// by libexif and the Apple MakerNote by `AppleMakerNote`. Movies and audio: the tags of a
/// libavformat open (`ContainerMetadataReader` or a `MediaFile`), handed in by the probe.
struct HeaderMetadata {
    var captureDate: CaptureDate?
    var contentIdentifier: String?
    var durationSeconds: Double?
    /// An Android motion photo's embedded MP4 (JPEG and HEIF stills).
    var embeddedMotion: EmbeddedMotion?
    /// The XMP sidecar's `tiff:Orientation` (1–8), for a still whose file has no EXIF
    /// Orientation tag of its own; nil otherwise (see `SidecarOrientation`).
    var sidecarOrientation: Int?
    /// Where the file says it was made (`LocationReader`), and the device (`CameraReader`).
    var location: Location?
    var camera: CameraInfo?
    /// Why a stated location was refused or a value of it left out (`Location.checked`).
    var warnings: [String] = []

    static let contentIdentifierKey = LivePhotoIdentifier.quickTimeKey

    static func read(_ source: some ByteSource, format: SourceFormat, fileName: String, modified: Double?,
                     sidecar: XMPPacket? = nil, container: ContainerMetadataReader.Metadata? = nil) -> HeaderMetadata {
        var resolver = CaptureDateResolver(fileName: fileName, modified: modified)
        resolver.sidecar = sidecar
        var metadata = HeaderMetadata()
        // An XMP sidecar's position comes first, as its full timestamp does: a location set or
        // corrected in Lightroom or darktable for a raw file or a movie lives only there.
        if let sidecar, sidecar[XMPName(XMPName.exifNamespace, "GPSLatitude")] != nil {
            metadata.settle(LocationReader.read(sidecar, source: "xmp-sidecar.exif:GPS", warnings: &metadata.warnings))
        }
        if format.isVideo || format.isAudio {
            let tags = container?.tags
            metadata.durationSeconds = container?.durationSeconds
            resolver.containerTags = tags ?? [:]
            switch format {
            case .avi: (resolver.containerDateSource, resolver.containerDateIsLocal) = ("riff.IDIT", true)
            case .mkv, .webm:
                resolver.containerDateSource = "matroska.DateUTC"
                // libav refuses some files whose Info element is whole (a damaged seek head).
                if resolver.containerTags["creation_time"] == nil, let date = MatroskaDateUTC.find(in: source) {
                    resolver.containerTags["creation_time"] = date
                }
            case .dv: resolver.recordingDate = DVRecordingDate.find(in: source).map { ($0, DVRecordingDate.source) }
            case .wav: resolver.recordingDate = RIFFWaveDate.find(in: source)
            default: break
            }
            if let avchd = container.flatMap({ AVCHDRecordingDate.find(in: $0.leadingVideoPackets) }) {
                resolver.recordingDate = (avchd, AVCHDRecordingDate.source)
            }
            metadata.contentIdentifier = tags?[contentIdentifierKey].flatMap(Self.identifier)
            if var tags {
                let matroska = format == .mkv || format == .webm
                if matroska { tags = LocationReader.matroskaTags(tags) }
                metadata.settle(LocationReader.read(containerTags: tags, matroska: matroska, warnings: &metadata.warnings))
                metadata.camera = CameraReader.read(containerTags: tags)
            }
        } else {
            let blocks = MetadataBlocks.find(in: source, format: format)
            let exif = blocks.exif.flatMap(ExifBlock.init(tiff:))
            resolver.exif = exif
            resolver.xmpBytes = blocks.xmp
            resolver.pngTexts = blocks.texts
            metadata.embeddedMotion = EmbeddedMotionLocator.locate(in: source, format: format, xmp: blocks.xmp)
            resolver.movieCreated = blocks.movieCreated
            metadata.sidecarOrientation = SidecarOrientation.applicable(sidecar, format: format,
                                                                        fileHasOrientation: exif?.hasOrientation ?? false)
            if let note = exif?.makerNote() {
                metadata.contentIdentifier = AppleMakerNote.parse(note)?.contentIdentifier.flatMap(Self.identifier)
            }
            if let exif {
                metadata.settle(LocationReader.read(exif, warnings: &metadata.warnings))
                metadata.camera = CameraReader.read(exif)
            }
            // The XMP packet is parsed for a position only when EXIF gave none and it names one.
            if metadata.location == nil, let bytes = blocks.xmp, ByteSearch.contains(Self.xmpGPSName, in: bytes[...]) {
                let packet = XMPPacket(bytes)
                resolver.xmp = packet
                metadata.settle(LocationReader.read(packet, warnings: &metadata.warnings))
            }
        }
        resolver.location = metadata.location
        metadata.captureDate = resolver.resolve()
        return metadata
    }

    private static let xmpGPSName = Array("GPSLatitude".utf8)

    /// Keeps the first location found; a refused one becomes a warning.
    private mutating func settle(_ reading: Location.Reading) {
        switch reading {
        case .absent: break
        case .found(let found): if location == nil { location = found }
        case .refused(let why): warnings.append("location ignored: \(why)")
        }
    }

    /// An identifier with surrounding blanks removed; nil when empty.
    static func identifier(_ raw: String) -> String? { LivePhotoIdentifier.normalized(raw) }

}
