/// Something inside an input folder that a batch did not convert, with why: a symbolic link
/// resolving outside the inputs, a dangling link, a link to a folder, an unreadable folder,
/// a FIFO, socket or device. The manifest lists these under `ignored`, so nothing found is
/// silently absent. (Hidden names, starting with `.`, are skipped without being listed.)
public struct IgnoredInput: Codable, Sendable, Equatable {
    /// Path relative to its input root, spelled as an asset's `source` would be.
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
