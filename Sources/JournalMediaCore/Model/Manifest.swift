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
