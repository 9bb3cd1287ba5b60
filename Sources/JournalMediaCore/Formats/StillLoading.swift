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
        /// libheif's rules for HEIF: deep or alpha images, unless the codec's own decoder in the
        /// pipeline bounds its memory (`StillDecoder.boundsMemory`: the HEVC path's tile rows).
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
    /// The coding inside the file when the toolkit has decoders of its own for it beside the
    /// loader (the pipeline's decoder table, `StillDecoders`, is keyed by it); nil: libvips'
    /// loader alone, which is all a new format needs.
    public var codec: StillCodec?
    /// The format can hold an animation, which a notification attachment keeps as an animated
    /// GIF (`AnimationAttachment`) rather than one still frame.
    public var animated = false
    /// A small image of this format with real transparency is an icon (`AssetKind.icon`):
    /// formats that clients use for glyphs and stickers.
    public var iconWhenTransparent = false

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
                rowOrder: RowOrder = .upright, appliesOwnOrientation: Bool = false, codec: StillCodec? = nil,
                animated: Bool = false, iconWhenTransparent: Bool = false) {
        self.loader = loader
        self.input = input
        self.viaImageMagick = viaImageMagick
        self.page = page
        self.loadsWhole = loadsWhole
        self.wholeImage = wholeImage ?? (loadsWhole ? .always : .never)
        self.linearLight = linearLight
        self.rowOrder = rowOrder
        self.appliesOwnOrientation = appliesOwnOrientation
        self.codec = codec
        self.animated = animated
        self.iconWhenTransparent = iconWhenTransparent
    }
}

/// A coding the toolkit decodes with its own code beside (or before) libvips' loader: the key
/// of the pipeline's decoder table (`StillDecoders` in JournalMedia, `LibvipsStillRoute` in
/// Imaging), so that a handler names what its files hold and the pipeline never names a format.
/// An open set, like `SourceFormat`: a handler for another container of one of these codings
/// declares the same value and gets the same decoders.
public struct StillCodec: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Baseline or progressive JPEG (libjpeg): the direct decode with DCT scaling, a lenient
    /// second try past damage, reuse as its own JPEG rendition.
    public static let jpeg = StillCodec(rawValue: "jpeg")
    /// PNG: the whole decode and the toolkit's resampler.
    public static let png = StillCodec(rawValue: "png")
    /// HEVC images in HEIF items: libavcodec's HEVC decoder, tile-wise for grids.
    public static let heifHEVC = StillCodec(rawValue: "heif-hevc")
    /// AV1 images in HEIF items (AVIF): libdav1d through libavcodec.
    public static let heifAV1 = StillCodec(rawValue: "heif-av1")
    /// JPEG 2000 codestreams (OpenJPEG).
    public static let jpeg2000 = StillCodec(rawValue: "jpeg2000")
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
