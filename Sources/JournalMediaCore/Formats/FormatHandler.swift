/// One file format, or a family of formats recognised by one signature: everything the
/// pipeline knows about it, in one place. Each handler is listed once in `FormatRegistry`.
///
/// `sniff` runs for every asset, in the registry's priority order, on the first
/// `FormatSniffer.prefixLength` bytes; it costs a few comparisons. `formats` is read once, when
/// the registry builds its table.
public protocol FormatHandler: Sendable {
    /// The formats this handler answers for, each with what the pipeline needs to know about it.
    /// A handler that only recognises another signature of a format described elsewhere has none.
    var formats: [FormatDescription] { get }
    /// Order among handlers: higher first. Signatures at a fixed offset that no other format
    /// shares are `FormatPriority.signature`; weaker ones (a single letter, a sync pattern,
    /// text) come later so that they never take a file a stronger signature claims.
    var priority: Int { get }
    /// Whether `head` is this handler's: a format it describes, `.claimed` when the signature is
    /// its family's but the content is nothing the toolkit reads (no later handler is asked),
    /// or nil when the bytes are not its.
    func sniff(_ head: SniffHead) -> SniffVerdict?
}

/// The priorities handlers use; libvips' loaders are ordered the same way.
public enum FormatPriority {
    /// A fixed signature at a fixed offset.
    public static let signature = 100
    /// A short or structural signature that is checked after every fixed one.
    public static let structural = 50
    /// Text that could start many files (XML).
    public static let text = 0
}

/// What a handler's `sniff` answers.
public enum SniffVerdict: Sendable, Equatable {
    /// The bytes are this format.
    case format(SourceFormat)
    /// The bytes carry this handler's family signature but nothing the toolkit reads
    /// (a Canon CR3 `ftyp`, an EBML document that is neither Matroska nor WebM).
    case claimed
}

/// The first bytes of a file, as handlers test them.
public struct SniffHead: Sendable {
    /// At most `FormatSniffer.prefixLength` bytes.
    public let bytes: [UInt8]

    public init(_ bytes: some Collection<UInt8>) { self.bytes = Array(bytes.prefix(FormatSniffer.prefixLength)) }

    public var count: Int { bytes.count }
    public subscript(index: Int) -> UInt8 { bytes[index] }

    /// Whether `magic` is found at `offset`.
    public func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
        bytes.count >= offset + magic.count && bytes[offset..<offset + magic.count].elementsEqual(magic)
    }

    /// Whether the ASCII text `magic` is found at `offset`.
    public func starts(with magic: String, at offset: Int = 0) -> Bool { starts(with: Array(magic.utf8), at: offset) }
}

/// What the pipeline treats an asset of one format as.
public enum FormatKind: Sendable, Equatable {
    /// A raster still decoded by libvips (or a fast path beside it).
    case still
    /// SVG and PDF: rendered at the size asked for rather than decoded and shrunk.
    case vector
    /// A camera raw file, shown through its largest embedded JPEG preview.
    case cameraRaw
    /// Read for its capture date only; `convert` refuses it with `unsupportedFormat`.
    case metadataOnly
    /// A movie read by libavformat.
    case video
    /// Audio read by libavformat; renditions from its cover art.
    case audio
}

/// Everything the pipeline needs to know about one `SourceFormat`, given by its handler.
public struct FormatDescription: Sendable {
    /// The public identifier (manifest `format`, API).
    public var format: SourceFormat
    /// The name people know the format by, as `convert --help` lists it (`JPEG 2000`); by
    /// default the identifier in capitals.
    public var displayName: String
    /// The IANA media type written to the manifest's `mediaType`.
    public var mediaType: String
    /// The names files of this format usually end with (lower case, no dot). The toolkit never
    /// decides a format from a name; these are for documentation and for tools that list files.
    public var suffixes: [String]
    public var kind: FormatKind
    /// How the still is loaded and decoded; nil for movies, audio and metadata-only formats.
    public var still: StillLoading?
    /// How `ContainerBounds` walks the file before any decoder sees it; nil when it does not.
    public var container: ContainerLayout?
    /// Where `MetadataBlocks` finds EXIF and XMP; nil when it does not look.
    public var metadata: MetadataLayout?
    /// The half of an Apple Live Photo a file of this format can be (`LivePhotoPairer`); nil: neither.
    public var livePhoto: LivePhotoPart?

    /// The halves of a Live Photo.
    public enum LivePhotoPart: Sendable, Equatable { case still, motion }

    public init(_ format: SourceFormat, displayName: String? = nil, mediaType: String, suffixes: [String], kind: FormatKind,
                still: StillLoading? = nil, container: ContainerLayout? = nil, metadata: MetadataLayout? = nil,
                livePhoto: LivePhotoPart? = nil) {
        self.format = format
        self.displayName = displayName ?? format.rawValue.uppercased()
        self.mediaType = mediaType
        self.suffixes = suffixes
        self.kind = kind
        self.still = still
        self.container = container
        self.metadata = metadata
        self.livePhoto = livePhoto
    }
}
