import Foundation

/// One rendition: in memory when the processor returns it (`data`), and listed in the
/// manifest once written (`path`, `bytes`).
public struct Rendition: Codable, Sendable, Equatable {
    public var role: String
    /// Path relative to the output folder; nil until the rendition is written.
    @ExplicitNull public var path: String?
    public var format: RenditionFormat
    public var width: Int
    public var height: Int
    /// Size of the encoded file in bytes.
    public var bytes: Int
    /// The encoded file; emptied once it is written (not part of the JSON).
    public var data: [UInt8]
    /// For notification attachments only (role `notification…`): type hint, Apple's limit,
    /// thumbnail clipping rectangle and time. The key is absent on other renditions.
    public var attachment: NotificationAttachment?

    public init(role: String, format: RenditionFormat, width: Int, height: Int, data: [UInt8]) {
        self.role = role
        self.format = format
        self.width = width
        self.height = height
        self.bytes = data.count
        self.data = data
        self.path = nil
    }

    private enum CodingKeys: String, CodingKey { case role, path, format, width, height, bytes, attachment }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        role = try c.decode(String.self, forKey: .role)
        _path = try c.decode(ExplicitNull<String>.self, forKey: .path)
        format = try c.decode(RenditionFormat.self, forKey: .format)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        bytes = try c.decode(Int.self, forKey: .bytes)
        attachment = try c.decodeIfPresent(NotificationAttachment.self, forKey: .attachment)
        data = []
    }
}

/// The movie half of a Live Photo entry (the entry's own `source` is the still).
public struct LivePhotoRecord: Codable, Sendable, Equatable {
    /// How the still and the movie were matched.
    public enum PairedBy: String, Codable, Sendable {
        /// Equal content identifiers (MakerNote 0x0011 and the QuickTime key).
        case contentIdentifier
        /// Neither file has an identifier: same folder, same base name, movie ≤ 4 s.
        case fileName
        /// The caller said which files belong together (a suggestion bundle's `livePhoto` item).
        case given
        /// The movie is inside the still's file: an Android motion photo (Google/Samsung
        /// `MotionPhoto` XMP with an MP4 after the JPEG, or a HEIF `mpvd` box).
        case embedded
    }

    /// Path of the movie relative to its input root; for an embedded movie, the still's path
    /// followed by `#motion`.
    public var motionSource: String
    @ExplicitNull public var motionSha256: String?
    @ExplicitNull public var motionBytes: Int?
    @ExplicitNull public var motionModified: Double?
    @ExplicitNull public var motionMediaType: String?
    /// The movie file's device and inode (`FileIdentity`); the keys are absent for an
    /// embedded movie and in manifests written before they were added.
    public var motionDevice: UInt64?
    public var motionInode: UInt64?
    public var pairedBy: PairedBy
    /// Why the movie's poster could not be made; the still's renditions are kept.
    @ExplicitNull public var motionError: AssetError?

    public init(motionSource: String, pairedBy: PairedBy) {
        self.motionSource = motionSource
        self.pairedBy = pairedBy
    }
}

/// Everything the toolkit learned and made from one asset: the one record per asset. The
/// processor returns it (renditions in memory), `Batch` writes the renditions and stores
/// the same value as the manifest entry (`ManifestEntry`), and it encodes to exactly the
/// manifest entry's JSON (every documented field present, `null` when unknown).
///
/// On failure `error` is set and the fields reached before the failing stage are still
/// filled (a file that was read has its digest and capture date).
public struct AssetResult: Codable, Sendable, Equatable {
    /// The input's name: a batch's path relative to its input root, or the name given.
    public var source: String
    /// Lowercase hex SHA-256 of the file's bytes; nil when the file could not be read.
    @ExplicitNull public var sha256: String?
    /// Size of the file in bytes.
    @ExplicitNull public var bytes: Int?
    /// Modification time of the file, seconds since 1970.
    @ExplicitNull public var modified: Double?
    /// The file's device and inode (`FileIdentity`), which a re-run compares with size and
    /// modification time to reuse the entry without reading the file. The keys are absent
    /// for bytes that are not a file and in manifests written before they were added. Not
    /// part of `==` (they name where the bytes are, not what they are).
    public var device: UInt64?
    public var inode: UInt64?
    @ExplicitNull public var kind: AssetKind?
    /// From the sniffed content (a Live Photo's: the still's).
    @ExplicitNull public var mediaType: String?
    /// Display size: after EXIF orientation or display rotation is applied.
    @ExplicitNull public var width: Int?
    @ExplicitNull public var height: Int?
    /// EXIF orientation (1–8) found in the file; 1 when there is none.
    @ExplicitNull public var orientation: Int?
    /// Where `orientation` came from when not the file itself: `"xmp-sidecar.tiff:Orientation"`
    /// when the file has no EXIF Orientation tag and its XMP sidecar has one. The key is absent
    /// otherwise.
    public var orientationSource: String?
    /// When the asset was captured, from its metadata, name or modification time.
    @ExplicitNull public var captureDate: CaptureDate?
    /// Where the asset was made (a Live Photo's: the still's, else the movie's); nil when
    /// the file states no position, a refused one (see `Location`, and `warnings`), or when
    /// locations are switched off (`--no-location`).
    @ExplicitNull public var location: Location?
    /// The populated place nearest to `location` (GeoNames, offline: `PlaceIndex`); nil
    /// without a location.
    @ExplicitNull public var place: Place?
    /// The device, from EXIF (stills) or QuickTime keys (movies); nil when not named.
    @ExplicitNull public var camera: CameraInfo?
    /// Live Photo content identifier (of the file, or of a pair's still).
    @ExplicitNull public var contentIdentifier: String?
    /// Movie facts for videos and for the motion half of Live Photos; nil for stills.
    @ExplicitNull public var video: VideoRecord?
    /// The pairing of a `livePhoto` entry; nil otherwise.
    @ExplicitNull public var livePhoto: LivePhotoRecord?
    public var renditions: [Rendition]
    /// Average, dominant and card colours (nil when not computed or on error).
    @ExplicitNull public var colors: ColorInfo?
    /// ThumbHash placeholder (nil when not computed or on error).
    @ExplicitNull public var placeholder: Placeholder?
    @ExplicitNull public var error: AssetError?
    /// What a decoder complained about in a file it still decoded (a JPEG with a corrupt
    /// restart marker, shown as viewers show it), one line each; the key is absent when
    /// there was nothing to say.
    public var warnings: [String]?
    /// `"percent"` when the file's name is not valid UTF-8: `source` then spells each byte
    /// that is not part of a valid UTF-8 character, and every `%`, as `%XX` (uppercase hex),
    /// so the name is kept losslessly. The key is absent for every other name.
    public var sourceEncoding: String?
    /// Seconds spent in each stage (not part of the JSON).
    public var timings = StageTimings()

    /// The sniffed format, carried as the probe found it (not part of the JSON: `mediaType`
    /// is). Setting it sets `mediaType`. For an entry read back from a manifest (or whose
    /// `mediaType` was set alone) it is the format with that media type.
    public var format: SourceFormat? {
        get {
            if let sniffedFormat, sniffedFormat.mediaType == mediaType { return sniffedFormat }
            return mediaType.flatMap { type in SourceFormat.allCases.first { $0.mediaType == type } }
        }
        set {
            sniffedFormat = newValue
            mediaType = newValue?.mediaType
        }
    }
    /// `format` as set (not coded).
    private var sniffedFormat: SourceFormat?

    public init(source: String) {
        self.source = source
        self.renditions = []
    }

    public var succeeded: Bool { error == nil }

    /// The file identity recorded with the entry, when both halves are.
    public var fileIdentity: FileIdentity? {
        get { device.flatMap { device in inode.map { FileIdentity(device: device, inode: $0) } } }
        set { (device, inode) = (newValue?.device, newValue?.inode) }
    }

    private enum CodingKeys: String, CodingKey {
        case source, sha256, bytes, modified, device, inode, kind, mediaType, width, height, orientation, orientationSource, captureDate,
             location, place, camera, contentIdentifier, video, livePhoto, renditions, colors, placeholder, error, warnings, sourceEncoding
    }

    public static func == (a: AssetResult, b: AssetResult) -> Bool {
        // Timings are measurements, not content.
        var a = a, b = b
        a.timings = StageTimings()
        b.timings = StageTimings()
        (a.device, a.inode, b.device, b.inode) = (nil, nil, nil, nil)
        return a.sameContent(b)
    }

    private func sameContent(_ other: AssetResult) -> Bool {
        source == other.source && sha256 == other.sha256 && bytes == other.bytes && modified == other.modified
            && kind == other.kind && mediaType == other.mediaType && width == other.width && height == other.height
            && orientation == other.orientation && orientationSource == other.orientationSource
            && captureDate == other.captureDate && location == other.location && place == other.place
            && camera == other.camera
            && contentIdentifier == other.contentIdentifier && video == other.video && livePhoto == other.livePhoto
            && renditions == other.renditions && colors == other.colors && placeholder == other.placeholder
            && Self.sameError(error, other.error) && warnings == other.warnings
            && sourceEncoding == other.sourceEncoding
    }

    /// Errors compare by stage, reason and message: the file is the entry's own `source`
    /// and is not stored in the JSON.
    private static func sameError(_ a: AssetError?, _ b: AssetError?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.stage == b.stage && a.reason == b.reason && a.message == b.message
    }
}

/// A manifest entry is the processor's result, stored as is.
public typealias ManifestEntry = AssetResult
