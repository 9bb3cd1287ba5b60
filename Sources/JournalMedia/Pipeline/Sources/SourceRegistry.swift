import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// The kinds of input file the processor knows, asked in order; the first that accepts a
/// probed file makes its source. Consulted once per asset; costs a few comparisons.
public enum SourceRegistry {
    public static let fileSources: [any FileSource.Type] = [
        VideoSource.self,
        ArtworkSource.self,
        CameraRawSource.self,
        PhotoSource.self,
    ]

    /// The source for `probe`, or nil when no kind reads it.
    static func source(for probe: ProbedAsset, content: SourceFile) -> (any ImageSource)? {
        guard let kind = fileSources.first(where: { $0.accepts(probe) }) else { return nil }
        return kind.init(probe: probe, content: content)
    }
}
