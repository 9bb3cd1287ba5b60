/// An output file format for a rendition. A preset names the still formats (`webp`, `jpeg`,
/// `png`, `avif`, `jxl`); the others are made only as notification attachments (`gif` from animations,
/// `mp4` from movies and Live Photos, `m4a`/`mp3` from audio).
public enum RenditionFormat: String, Codable, Sendable, Hashable, CaseIterable {
    /// AVIF is written by libheif's AV1 encoder (libaom in Debian's build) through libvips'
    /// `heifsave`: the smallest files, and the slowest encode of the still formats.
    /// JPEG XL (`jxl`) is written by libjxl through libvips' `jxlsave` (quality maps to
    /// libjxl's distance; effort 1–9).
    case webp, jpeg, png, avif, jxl, gif, mp4, m4a, mp3

    /// The formats a preset's `format` and `formatWhenTransparent` accept.
    public static let stillFormats: [RenditionFormat] = [.webp, .jpeg, .png, .avif, .jxl]

    /// The file extension used for output paths.
    public var fileExtension: String {
        switch self {
        case .webp: "webp"
        case .jpeg: "jpg"
        case .png: "png"
        case .avif: "avif"
        case .jxl: "jxl"
        case .gif: "gif"
        case .mp4: "mp4"
        case .m4a: "m4a"
        case .mp3: "mp3"
        }
    }

    /// Whether the format can carry an alpha channel.
    public var carriesAlpha: Bool { [.webp, .png, .avif, .jxl, .gif].contains(self) }

    /// The quality used when a spec does not name one (ignored for PNG, which is lossless).
    public var defaultQuality: Int {
        switch self {
        case .webp: 80
        case .jpeg: 85
        case .avif: 50
        case .jxl: 75
        default: 100
        }
    }

    /// The Uniform Type Identifier Apple's `UNNotificationAttachmentOptionsTypeHintKey` takes.
    public var uniformTypeIdentifier: String {
        switch self {
        case .webp: "org.webmproject.webp"
        case .jpeg: "public.jpeg"
        case .png: "public.png"
        case .avif: "public.avif"
        case .jxl: "public.jpeg-xl"
        case .gif: "com.compuserve.gif"
        case .mp4: "public.mpeg-4"
        case .m4a: "public.mpeg-4-audio"
        case .mp3: "public.mp3"
        }
    }
}

/// JPEG chroma subsampling.
public enum ChromaSubsampling: String, Codable, Sendable, Hashable, CaseIterable {
    /// 4:2:0, half the colour resolution each way (the default; smaller files).
    case on
    /// 4:4:4, full colour resolution (sharp coloured edges: text, icons).
    case off
}

/// How a rendition fills its box.
public enum RenditionFit: String, Codable, Sendable, Hashable, CaseIterable {
    /// Scaled to fit inside the box, aspect ratio kept.
    case inside
    /// Scaled to cover the box, then cropped to it around the most interesting region
    /// (libvips' attention strategy).
    case cover
}

/// One rendition to produce for every asset: a role name, a box, a format and a quality.
///
/// A spec is pure configuration; the processor decodes each source once, at the size the
/// largest spec needs, and each spec then costs one resize and one encode from that image.
public struct RenditionSpec: Codable, Sendable, Hashable {
    /// Name of the rendition, used in output file names (`<source>.<role>.<ext>`):
    /// lowercase letters, digits and `-`, starting with a letter.
    public var role: String
    /// Format for opaque sources (and for transparent ones when `formatWhenTransparent` is nil).
    public var format: RenditionFormat
    /// Format used instead when the source has real transparency (some alpha below opaque).
    public var formatWhenTransparent: RenditionFormat?
    /// The box, in pixels. Sources are never upscaled into it (vector sources are rendered at it).
    public var width: Int
    public var height: Int
    public var fit: RenditionFit
    /// Encoder quality 1–100 (WebP and JPEG).
    public var quality: Int
    /// WebP: encoder effort 0 (fastest) – 6 (smallest), nil: 2; JPEG: 4 or more turns on
    /// Huffman table optimisation (nil: off, except under a byte limit); AVIF: 0 – 9, nil:
    /// libvips' default, 4; JPEG XL: 1 – 9, nil: 7. See `RenditionRenderer` for the measured
    /// trade-offs.
    public var effort: Int?
    /// JPEG: chroma subsampling; nil: 4:2:0 (`on`).
    public var chromaSubsampling: ChromaSubsampling?
    /// JPEG: progressive (interlaced) instead of baseline; nil: baseline.
    public var progressive: Bool?
    /// PNG: zlib compression level 0–9 (libvips' encode); nil: the "up" row filter and
    /// libdeflate's level 1 (fast, good for photos), or zlib level 6 under a byte limit.
    public var compression: Int?
    /// Largest encoded size in bytes: the quality is lowered, then the size, until the file
    /// fits. nil: no limit, except for the `notification` role, which always stays under
    /// Apple's attachment limit (`NotificationLimits`).
    public var maxBytes: Int?

    /// The role of notification attachments (`UNNotificationAttachment`), off by default.
    public static let notificationRole = "notification"

    /// Whether this spec makes notification attachments (role `notification`).
    public var isNotification: Bool { role == Self.notificationRole }

    /// The byte limit the encoder must meet: `maxBytes`, and for a notification attachment
    /// never more than Apple's limit for images.
    public var byteLimit: Int? {
        isNotification ? min(maxBytes ?? NotificationLimits.imageBytes, NotificationLimits.imageBytes) : maxBytes
    }

    public init(
        role: String, format: RenditionFormat, formatWhenTransparent: RenditionFormat? = nil,
        width: Int, height: Int? = nil, fit: RenditionFit = .inside, quality: Int? = nil
    ) {
        self.role = role
        self.format = format
        self.formatWhenTransparent = formatWhenTransparent
        self.width = width
        self.height = height ?? width
        self.fit = fit
        self.quality = quality ?? format.defaultQuality
    }

    /// The format an image with (or without) real transparency is written in.
    public func outputFormat(transparent: Bool) -> RenditionFormat {
        transparent ? (formatWhenTransparent ?? format) : format
    }

    private enum CodingKeys: String, CodingKey {
        case role, format, formatWhenTransparent, width, height, fit, quality, effort, chromaSubsampling, progressive,
             compression, maxBytes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(RenditionFormat.self, forKey: .format)
        let width = try container.decode(Int.self, forKey: .width)
        self.init(
            role: try container.decode(String.self, forKey: .role),
            format: format,
            formatWhenTransparent: try container.decodeIfPresent(RenditionFormat.self, forKey: .formatWhenTransparent),
            width: width,
            height: try container.decodeIfPresent(Int.self, forKey: .height),
            fit: try container.decodeIfPresent(RenditionFit.self, forKey: .fit) ?? .inside,
            quality: try container.decodeIfPresent(Int.self, forKey: .quality))
        effort = try container.decodeIfPresent(Int.self, forKey: .effort)
        chromaSubsampling = try container.decodeIfPresent(ChromaSubsampling.self, forKey: .chromaSubsampling)
        progressive = try container.decodeIfPresent(Bool.self, forKey: .progressive)
        compression = try container.decodeIfPresent(Int.self, forKey: .compression)
        maxBytes = try container.decodeIfPresent(Int.self, forKey: .maxBytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(role, forKey: .role)
        try container.encode(format, forKey: .format)
        try container.encodeIfPresent(formatWhenTransparent, forKey: .formatWhenTransparent)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(fit, forKey: .fit)
        try container.encode(quality, forKey: .quality)
        // Encoder settings appear only when set, so presets without them keep their JSON.
        try container.encodeIfPresent(effort, forKey: .effort)
        try container.encodeIfPresent(chromaSubsampling, forKey: .chromaSubsampling)
        try container.encodeIfPresent(progressive, forKey: .progressive)
        try container.encodeIfPresent(compression, forKey: .compression)
        try container.encodeIfPresent(maxBytes, forKey: .maxBytes)
    }
}
