import Foundation

/// `manifest.json`, schema version 1: what a batch made, one entry per asset, plus a summary.
/// docs/manifest.md documents every field.
public struct Manifest: Codable, Sendable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// `journal-media <version>` and the libvips version that made the files.
    public var generator: String
    /// The rendition specs every asset was processed with; a re-run with other specs redoes all.
    public var preset: [RenditionSpec]
    /// The other options that shaped the entries (added in schema 1 without a version
    /// change: a manifest without it was made with `OutputSettings.defaults(for: preset)`).
    public var settings: OutputSettings?
    public var assets: [ManifestEntry]
    /// What the input folders held that was not converted, with why (added in schema 1
    /// without a version change: readers of older manifests see an empty list).
    public var ignored: [IgnoredInput]
    public var summary: ManifestSummary
    /// The inputs of the run that wrote it, as canonical absolute paths (a path that is not
    /// valid UTF-8 percent-escaped, `FileNameEscaping`), in command-line order. A later run
    /// over the same inputs prunes the renditions it no longer makes; over other inputs it
    /// prunes nothing without `--prune`. Added in schema 1 without a version change: absent
    /// in manifests written before, which count as written for other inputs.
    public var inputs: [String]?
    /// False when the run that wrote it was stopped (Ctrl-C, SIGTERM, cancelled) before every
    /// input was reached: the inputs not reached keep the entry an earlier run gave them
    /// (`--force` too), or have none. Absent (nil) when the run reached every input. Added in
    /// schema 1 without a version change.
    public var complete: Bool?

    public init(generator: String, preset: [RenditionSpec], settings: OutputSettings? = nil, assets: [ManifestEntry],
                ignored: [IgnoredInput] = [], summary: ManifestSummary) {
        self.schemaVersion = Manifest.currentSchemaVersion
        self.generator = generator
        self.preset = preset
        self.settings = settings
        self.assets = assets
        self.ignored = ignored
        self.summary = summary
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion, generator, preset, settings, assets, ignored, summary, inputs, complete
    }

    /// The settings the entries were made with, the defaults for a manifest that predates the field.
    public var effectiveSettings: OutputSettings { settings ?? OutputSettings.defaults(for: preset) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
        generator = try container.decode(String.self, forKey: .generator)
        preset = try container.decode([RenditionSpec].self, forKey: .preset)
        settings = try container.decodeIfPresent(OutputSettings.self, forKey: .settings)
        assets = try container.decode([ManifestEntry].self, forKey: .assets)
        ignored = try container.decodeIfPresent([IgnoredInput].self, forKey: .ignored) ?? []
        summary = try container.decode(ManifestSummary.self, forKey: .summary)
        inputs = try container.decodeIfPresent([String].self, forKey: .inputs)
        complete = try container.decodeIfPresent(Bool.self, forKey: .complete)
    }

    /// JSON as written to disk: pretty, keys sorted, slashes unescaped.
    public func encoded() throws -> Data {
        var data = try Manifest.prettyEncoder().encode(self)
        data.append(0x0A)
        return data
    }

    /// The same bytes as `encoded()`, handed to `emit` in pieces: the text around the asset
    /// list, then one asset at a time, so writing a manifest of N assets holds one encoded
    /// entry in memory rather than the whole document. Used for the manifest a batch writes
    /// at its end; linear in the number of assets.
    public func encode(streamingTo emit: (Data) throws -> Void) throws {
        try Manifest.encode(outline: self, assets: assets, emit)
    }

    /// `outline` (its own `assets` ignored) with `assets` in its asset list, streamed as
    /// `encode(streamingTo:)` does: lets a batch write its entries from its own list.
    public static func encode(outline shell: Manifest, assets: some Collection<ManifestEntry>,
                              _ emit: (Data) throws -> Void) throws {
        let encoder = Manifest.prettyEncoder()
        var shell = shell
        shell.assets = []
        var outline = try encoder.encode(shell)
        outline.append(0x0A)
        // Keys are sorted, so the empty asset list appears once, at the top level, spelled
        // as the pretty printer spells an empty array at depth one.
        let empty = Data("\"assets\" : [\n\n  ]".utf8)
        guard !assets.isEmpty else { return try emit(outline) }
        guard let slot = outline.range(of: empty) else {
            shell.assets = Array(assets)
            return try emit(try shell.encoded())
        }
        try emit(outline[..<slot.lowerBound] + Data("\"assets\" : [".utf8))
        for (index, entry) in assets.enumerated() {
            var piece = Data(index == 0 ? "\n".utf8 : ",\n".utf8)
            // An entry sits at depth two: every non-empty line moves right by four spaces
            // (JSON strings never hold a raw line break, so lines are the printer's own).
            let lines = try encoder.encode(entry).split(separator: 0x0A, omittingEmptySubsequences: false)
            for (lineIndex, line) in lines.enumerated() {
                if lineIndex > 0 { piece.append(0x0A) }
                if !line.isEmpty { piece.append(contentsOf: [0x20, 0x20, 0x20, 0x20]) }
                piece.append(contentsOf: line)
            }
            try emit(piece)
        }
        try emit(Data("\n  ]".utf8) + outline[slot.upperBound...])
    }

    static func prettyEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
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
