import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// The toolkit's version and the versions of the C libraries it runs on.
public enum Version {
    public static let toolkit = "0.1.0"

    /// `journal-media <version> (libvips <version>)`, written to every manifest.
    public static var generator: String { "journal-media \(toolkit) (libvips \(VipsRuntime.version))" }
}

extension Version {
    /// One line naming the toolkit and every native library version, for `--version`.
    public static var libraries: String {
        "journal-media \(toolkit): libvips \(VipsRuntime.version), \(LibavVersion.summary)"
    }
}
