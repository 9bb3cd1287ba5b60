import JournalMediaCore

/// The kinds of input file a processor knows, asked in order; the first that accepts a
/// probed file makes its source. A value: an `AssetProcessor` (or a `Batch`) is built with
/// one, `SourceRegistry.builtIn` by default, and a program adds its own kinds at run time:
///
///     var sources = SourceRegistry.builtIn
///     sources.register(MyFormatSource.self)          // asked before the built-in kinds
///     let processor = AssetProcessor(sources: sources)
///
/// Consulted once per asset; costs a few comparisons.
public struct SourceRegistry: Sendable {
    /// The kinds, in the order they are asked.
    public private(set) var fileSources: [any FileSource.Type]

    /// The toolkit's own kinds: movies, audio files' cover art, camera raw, then stills.
    public static let builtIn = SourceRegistry(fileSources: [
        VideoSource.self,
        ArtworkSource.self,
        CameraRawSource.self,
        PhotoSource.self,
    ])

    public init(fileSources: [any FileSource.Type]) {
        self.fileSources = fileSources
    }

    /// Adds a kind ahead of those already registered, so it is asked first (it can take a
    /// format from a built-in kind, or read one none of them reads).
    public mutating func register(_ kind: any FileSource.Type) {
        fileSources.insert(kind, at: 0)
    }

    /// The source for `probe`, or nil when no kind reads it.
    func source(for probe: ProbedAsset, content: SourceFile) -> (any ImageSource)? {
        guard let kind = fileSources.first(where: { $0.accepts(probe) }) else { return nil }
        return kind.init(probe: probe, content: content)
    }
}

#if compiler(>=6.2)
/// What lets a kind's type (`any FileSource.Type`) cross threads: Swift's `SendableMetatype`
/// (a conformance isolated to an actor could not be used from the processor's threads).
public typealias FileSourceKind = SendableMetatype
#else
/// Before Swift 6.2 every metatype may cross threads; nothing to require.
public protocol FileSourceKind {}
#endif
