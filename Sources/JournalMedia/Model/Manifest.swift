import Foundation

/// `manifest.json`, schema version 1: what a batch made, one entry per asset, plus a summary.
/// The README documents every field.
public struct Manifest: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `journal-media <version>` and the libvips version that made the files.
    public var generator: String
    /// The rendition specs every asset was processed with; a re-run with other specs redoes all.
    public var preset: [RenditionSpec]
    public var assets: [ManifestEntry]
    public var summary: ManifestSummary

    public init(generator: String, preset: [RenditionSpec], assets: [ManifestEntry], summary: ManifestSummary) {
        self.schemaVersion = Manifest.currentSchemaVersion
        self.generator = generator
        self.preset = preset
        self.assets = assets
        self.summary = summary
    }

    /// JSON as written to disk: pretty, keys sorted, slashes unescaped.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    public static func decode(_ data: Data) throws -> Manifest {
        try JSONDecoder().decode(Manifest.self, from: data)
    }
}

/// One rendition file as listed in the manifest.
public struct RenditionRecord: Codable, Sendable, Equatable {
    public var role: String
    /// Path relative to the output folder.
    public var path: String
    public var format: RenditionFormat
    public var width: Int
    public var height: Int
    public var bytes: Int
}

/// The movie half of a Live Photo entry (the entry's own `source` is the still).
public struct LivePhotoRecord: Codable, Sendable, Equatable {
    /// How the still and the movie were matched.
    public enum PairedBy: String, Codable, Sendable {
        /// Equal content identifiers (MakerNote 0x0011 and the QuickTime key).
        case contentIdentifier
        /// Neither file has an identifier: same folder, same base name, movie ≤ 4 s.
        case fileName
    }

    /// Path of the movie relative to its input root.
    public var motionSource: String
    public var motionSha256: String?
    public var motionBytes: Int?
    public var motionModified: Double?
    public var motionMediaType: String?
    public var pairedBy: PairedBy
    /// Why the movie's poster could not be made; the still's renditions are kept.
    public var motionError: ErrorRecord?

    public init(motionSource: String, pairedBy: PairedBy) {
        self.motionSource = motionSource
        self.pairedBy = pairedBy
    }

    private enum CodingKeys: String, CodingKey {
        case motionSource, motionSha256, motionBytes, motionModified, motionMediaType, pairedBy, motionError
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(motionSource, forKey: .motionSource)
        try c.encode(motionSha256, forKey: .motionSha256)
        try c.encode(motionBytes, forKey: .motionBytes)
        try c.encode(motionModified, forKey: .motionModified)
        try c.encode(motionMediaType, forKey: .motionMediaType)
        try c.encode(pairedBy, forKey: .pairedBy)
        try c.encode(motionError, forKey: .motionError)
    }
}

/// The manifest's `error` object.
public struct ErrorRecord: Codable, Sendable, Equatable {
    public var stage: ProcessingStage
    public var message: String
}

/// One asset in the manifest.
public struct ManifestEntry: Codable, Sendable, Equatable {
    /// Path of the input relative to its input root (see README, "Output paths").
    public var source: String
    public var sha256: String?
    public var bytes: Int?
    /// Modification time of the input when it was processed, seconds since 1970.
    public var modified: Double?
    public var kind: AssetKind?
    public var mediaType: String?
    public var width: Int?
    public var height: Int?
    public var orientation: Int?
    public var captureDate: CaptureDate?
    /// Live Photo content identifier of the file (or of the pair's still).
    public var contentIdentifier: String?
    /// Movie facts for `video` entries, and for the motion part of `livePhoto` entries.
    public var video: VideoRecord?
    /// The pairing of a `livePhoto` entry: its movie file and how the two were matched.
    public var livePhoto: LivePhotoRecord?
    public var renditions: [RenditionRecord]
    public var colors: ColorInfo?
    public var placeholder: Placeholder?
    public var error: ErrorRecord?

    public init(source: String) {
        self.source = source
        self.renditions = []
    }

    private enum CodingKeys: String, CodingKey {
        case source, sha256, bytes, modified, kind, mediaType, width, height, orientation, captureDate,
             contentIdentifier, video, livePhoto, renditions, colors,
             placeholder, error
    }

    // Written by hand so that unknown values appear as explicit `null`s.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(source, forKey: .source)
        try c.encode(sha256, forKey: .sha256)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(modified, forKey: .modified)
        try c.encode(kind, forKey: .kind)
        try c.encode(mediaType, forKey: .mediaType)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(orientation, forKey: .orientation)
        try c.encode(captureDate, forKey: .captureDate)
        try c.encode(contentIdentifier, forKey: .contentIdentifier)
        try c.encode(video, forKey: .video)
        try c.encode(livePhoto, forKey: .livePhoto)
        try c.encode(renditions, forKey: .renditions)
        try c.encode(colors, forKey: .colors)
        try c.encode(placeholder, forKey: .placeholder)
        try c.encode(error, forKey: .error)
    }
}

/// Counts and timing of one batch run.
public struct ManifestSummary: Codable, Sendable, Equatable {
    /// Assets in the manifest.
    public var assets: Int
    /// Assets without an error (processed now or reused from an earlier run).
    public var succeeded: Int
    public var failed: Int
    /// Assets processed by this run.
    public var processed: Int
    /// Assets whose earlier entry was reused because input and preset were unchanged.
    public var skipped: Int
    public var elapsedSeconds: Double
    /// Processed assets per second of this run.
    public var assetsPerSecond: Double

    public init(assets: Int = 0, succeeded: Int = 0, failed: Int = 0, processed: Int = 0,
                skipped: Int = 0, elapsedSeconds: Double = 0, assetsPerSecond: Double = 0) {
        self.assets = assets
        self.succeeded = succeeded
        self.failed = failed
        self.processed = processed
        self.skipped = skipped
        self.elapsedSeconds = elapsedSeconds
        self.assetsPerSecond = assetsPerSecond
    }
}
