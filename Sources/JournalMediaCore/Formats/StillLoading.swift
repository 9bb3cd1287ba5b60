/// How a still format is loaded: the libvips loader and how it gets the bytes, and the decode
/// policy that follows from what that loader can do. Plain data, read by `ImageHeaderReader`,
/// `DecodedImage` and `WholeImageDecodeGate`; no format is switched over there.
public struct StillLoading: Sendable {
    /// How the loader is handed the asset's bytes (which are read once, into memory).
    public enum Input: Sendable, Equatable {
        /// A `*load_buffer` over the bytes in memory.
        case buffer
        /// A `*load_source` over a `VipsSource` reading the bytes in memory (8.14 has no buffer
        /// variant for the loader).
        case source
        /// A file-only loader, handed a memfd holding a copy of the bytes (`MemoryFile`); the
        /// name shows in `/proc` and in libvips' messages.
        case memoryFile(name: String)
    }

    /// Which page (sub-image) of a multi-image file is decoded.
    public enum Page: Sendable, Equatable {
        /// The loader's default, page 0.
        case first
        /// A Windows icon's largest image (`IconDirectory`).
        case largestIconEntry
    }

    /// When decoding needs `WholeImageDecodeGate` exclusively (above its pixel floor).
    public enum WholeImage: Sendable, Equatable {
        /// The loader shrinks on load or streams: never.
        case never
        /// The loader holds the whole image: always.
        case always
        /// HEIF/AVIF: libheif's rules (deep or alpha images, unless the HEVC path bands them).
        case heifRules
    }

    /// The libvips operation that reads the header and the pixels.
    public var loader: String
    public var input: Input = .buffer
    /// The loader is libvips' ImageMagick one: made available on first use, and it takes no
    /// `fail_on`.
    public var viaImageMagick = false
    public var page: Page = .first
    /// The loader has no shrink-on-load and is called by name (never picked by content): the
    /// image is loaded whole, then `thumbnail_image`'d.
    public var loadsWhole = false
    public var wholeImage: WholeImage = .never
    /// Scene-referred floats (linear light, no fixed white): shown through `LinearLightExposure`.
    public var linearLight = false
    /// The decoder applies the file's own rotation and mirroring (libheif's `irot`/`imir`), so
    /// an XMP sidecar's orientation is never applied on top (`SidecarOrientation`).
    public var appliesOwnOrientation = false
    /// The order the loader returns the rows in: upright, or bottom-up as the file stores them
    /// (the decode then flips them right after the load).
    public var rowOrder: RowOrder = .upright

    /// How a loader returns a format's rows.
    public enum RowOrder: Sendable, Equatable {
        case upright
        /// The file stores rows bottom-up and libvips returns them as stored.
        case bottomUp
        /// As `bottomUp` on the libvips Debian 12 ships; releases after libvips issue 3885 turn
        /// them (docs/library-versions.md).
        case bottomUpBeforeLibvips815

        /// Whether the rows need a vertical flip after a load by libvips `major`.`minor`.
        public func needsFlip(libvipsMajor major: Int, minor: Int) -> Bool {
            switch self {
            case .upright: false
            case .bottomUp: true
            case .bottomUpBeforeLibvips815: major < 8 || (major == 8 && minor <= 14)
            }
        }
    }

    public init(loader: String, input: Input = .buffer, viaImageMagick: Bool = false, page: Page = .first,
                loadsWhole: Bool = false, wholeImage: WholeImage? = nil, linearLight: Bool = false,
                rowOrder: RowOrder = .upright, appliesOwnOrientation: Bool = false) {
        self.loader = loader
        self.input = input
        self.viaImageMagick = viaImageMagick
        self.page = page
        self.loadsWhole = loadsWhole
        self.wholeImage = wholeImage ?? (loadsWhole ? .always : .never)
        self.linearLight = linearLight
        self.rowOrder = rowOrder
        self.appliesOwnOrientation = appliesOwnOrientation
    }
}

/// The container structures `ContainerBounds` walks before a decoder sees the bytes.
public enum ContainerLayout: Sendable {
    case pngChunks, jpegSegments, riffChunks, isoBMFFBoxes, tiffDirectories, bmpHeader, iconDirectory
    /// A binary Netpbm or PFM raster after its header.
    case portableAnymap
    /// A header that declares the whole file's length: `length` reads it from the first
    /// `FormatSniffer.prefixLength` bytes (nil when it cannot tell); a file shorter than that
    /// is refused, naming `container`.
    case declaredLength(container: String, length: @Sendable (SniffHead) -> Int?)
}

/// Where `MetadataBlocks` finds EXIF, XMP and text blocks.
public enum MetadataLayout: Sendable, Equatable {
    case jpegSegments, pngChunks, riffChunks, heifItems, tiffDirectories
    /// A raw file's own TIFF directories, whatever their magic number (ORF and RW2 change it).
    case rawTIFFDirectories
    /// A Fujifilm RAF: the JPEG it embeds (offset and length at bytes 84 and 88).
    case rafEmbeddedJPEG
    case photoshopResources
}
