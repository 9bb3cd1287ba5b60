/// Something inside an input folder that a batch did not convert, with why: a symbolic link
/// resolving outside the inputs, a dangling link, a link to a folder, an unreadable folder,
/// a FIFO, socket or device; and, unless `--strict`, a file that is not media by its content
/// (text such as README.md, JSON or an XMP sidecar, a ZIP, a database). The manifest lists
/// these under `ignored`, so nothing found is silently absent. (Hidden names, starting with
/// `.`, are skipped without being listed.)
public struct IgnoredInput: Codable, Sendable, Equatable {
    /// Path relative to its input root, spelled as an asset's `source` would be.
    public var path: String
    public var reason: String
    /// `"percent"` when `path` is percent-escaped (a name that is not valid UTF-8, see
    /// `FileNameEscaping`); absent otherwise.
    public var pathEncoding: String?
    /// Whether the file was passed over because it is not media (true), rather than
    /// unreachable (a link, a FIFO, an unreadable folder); absent for the latter.
    public var notMedia: Bool?

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
