import Foundation
import JournalMediaCore

/// A bundle processed in memory (`SuggestionProcessor.process(bundleAt:)`,
/// `process(_:files:)`): the `suggestion.json` model and every file the disk path would
/// write to `output/<bundleId>/`, by the name the model gives it. Holds the encoded bytes
/// (a few hundred KiB for a bundle of cards); costs nothing more.
public struct SuggestionResult: Sendable {
    /// The model of `suggestion.json`: per item its renditions (`OutputRendition.path` is
    /// the key of its bytes in `files`), the card's texts and colours, errors and warnings.
    public var output: SuggestionOutput
    /// Every output file by name: renditions, cards, cover collages and `suggestion.json`.
    public var files: [String: [UInt8]]

    /// The name of the JSON document among `files`.
    public static let jsonName = "suggestion.json"

    public init(output: SuggestionOutput, files: [String: [UInt8]]) {
        self.output = output
        self.files = files
    }

    /// The encoded bytes of `rendition` (an item's, a cover's or a collage's).
    public func data(for rendition: OutputRendition) -> [UInt8]? { files[rendition.path] }

    /// `suggestion.json` as the disk path writes it (sorted keys, a final newline).
    public var json: [UInt8] { files[Self.jsonName] ?? (try? Self.encode(output)) ?? [] }

    /// Writes every file to `output/<bundleId>/`, each atomically (what the blocking
    /// `process(bundleAt:output:)` writes). Blocks the calling thread for the writes.
    public func write(to output: URL) throws {
        let target = output.appendingPathComponent(self.output.bundleId)
        for (name, bytes) in files.sorted(by: { $0.key < $1.key }) {
            try AtomicFile.write(bytes, to: target.appendingPathComponent(name))
        }
    }

    static func encode(_ output: SuggestionOutput) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(output)) + [0x0A]
    }
}
