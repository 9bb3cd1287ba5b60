import CCrypto
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
        "journal-media \(toolkit): libvips \(VipsRuntime.version), \(LibavVersion.summary), "
            + "\(ExifLibraryVersion.loadedObject), \(cryptoVersion), \(PangoVersion.text)"
    }

    /// libcrypto's own version text without the build date ("OpenSSL 3.0.17").
    static var cryptoVersion: String {
        guard let text = OpenSSL_version(OPENSSL_VERSION) else { return "libcrypto" }
        let words = String(cString: text).split(separator: " ")
        return words.prefix(2).joined(separator: " ")
    }
}
