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
    /// What the input folders held that was not converted, with why (added in schema 1
    /// without a version change: readers of older manifests see an empty list).
    public var ignored: [IgnoredInput]
    public var summary: ManifestSummary

    public init(generator: String, preset: [RenditionSpec], assets: [ManifestEntry],
                ignored: [IgnoredInput] = [], summary: ManifestSummary) {
        self.schemaVersion = Manifest.currentSchemaVersion
        self.generator = generator
        self.preset = preset
        self.assets = assets
        self.ignored = ignored
        self.summary = summary
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion, generator, preset, assets, ignored, summary
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        generator = try container.decode(String.self, forKey: .generator)
        preset = try container.decode([RenditionSpec].self, forKey: .preset)
        assets = try container.decode([ManifestEntry].self, forKey: .assets)
        ignored = try container.decodeIfPresent([IgnoredInput].self, forKey: .ignored) ?? []
        summary = try container.decode(ManifestSummary.self, forKey: .summary)
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
