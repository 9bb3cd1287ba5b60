import JournalMediaCore

/// Why a bundle was refused before any work: not JSON, a schema version this toolkit does
/// not read, or a value of the wrong type or out of range, named by its JSON path
/// (`suggestion.items[3].steps: expected an integer`). The CLI prints it with the file's
/// name and exits 2.
public struct SuggestionBundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// JSON path of the offending value (`suggestion.items[3].steps`); empty for the whole file.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
