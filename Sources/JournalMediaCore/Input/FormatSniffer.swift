/// Recognises a supported image, video or audio format from a file's first bytes; the file
/// name plays no part.
///
/// Runs first for every asset, on the bytes already read; costs a few comparisons.
public enum FormatSniffer {
    /// How many leading bytes `sniff` looks at, at most.
    public static let prefixLength = 1024

    /// The format of `bytes`, or nil when it is none the toolkit reads: the registry's
    /// handlers asked in priority order (`FormatRegistry.sniff`).
    public static func sniff(_ bytes: some Collection<UInt8>) -> SourceFormat? {
        FormatRegistry.sniff(SniffHead(bytes))
    }
}
