/// A file format recognised from its first bytes (never from its name): the public identifier
/// (the manifest's `format`, the API). What the pipeline does with each format lives in its
/// handler (`FormatHandler`), listed once in `FormatRegistry`; a new format declares its
/// identifier beside its handler (`extension SourceFormat { static let … }`).
///
/// Encoded as its raw value (`"jpeg"`, `"3gp"`); decoding a name no handler describes fails.
public struct SourceFormat: RawRepresentable, Hashable, Codable, Sendable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// The format named `rawValue`, or nil when no registered handler describes it.
    public init?(rawValue: String) {
        guard FormatRegistry.describes(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// A format's identifier as its handler declares it (`FormatRegistry` checks each is described once).
    public init(identifier: String) { self.rawValue = identifier }

    /// Every registered format, in the registry's order.
    public static var allCases: [SourceFormat] { FormatRegistry.formats }

    public var description: String { rawValue }

    public static let jpeg = SourceFormat(identifier: "jpeg")
    public static let png = SourceFormat(identifier: "png")
    public static let webp = SourceFormat(identifier: "webp")
    public static let gif = SourceFormat(identifier: "gif")
    public static let tiff = SourceFormat(identifier: "tiff")
    public static let heic = SourceFormat(identifier: "heic")
    public static let avif = SourceFormat(identifier: "avif")
    public static let svg = SourceFormat(identifier: "svg")
    public static let pdf = SourceFormat(identifier: "pdf")
    /// JPEG XL (a bare codestream or the ISO-BMFF container), decoded by libjxl.
    public static let jxl = SourceFormat(identifier: "jxl")
    /// Windows bitmap and icon, decoded by libvips' ImageMagick loader (the only one that
    /// reads them in libvips); an icon's largest image is used.
    public static let bmp = SourceFormat(identifier: "bmp")
    public static let ico = SourceFormat(identifier: "ico")
    /// Camera raw files, shown through their largest embedded JPEG preview (as Immich's
    /// "prefer embedded preview"), with the raw file's orientation and EXIF dates.
    public static let dng = SourceFormat(identifier: "dng")
    public static let cr2 = SourceFormat(identifier: "cr2")
    public static let nef = SourceFormat(identifier: "nef")
    public static let arw = SourceFormat(identifier: "arw")
    public static let orf = SourceFormat(identifier: "orf")
    public static let raf = SourceFormat(identifier: "raf")
    public static let rw2 = SourceFormat(identifier: "rw2")
    /// JPEG 2000: the JP2 file (signature box) or a bare J2K codestream, decoded by OpenJPEG.
    public static let jp2 = SourceFormat(identifier: "jp2")
    /// Netpbm's integer formats (PBM, PGM, PPM; plain-text and binary): `P1`–`P6`.
    public static let pnm = SourceFormat(identifier: "pnm")
    /// Portable float map (`PF` colour, `Pf` grey): linear-light floats, rows stored bottom-up.
    public static let pfm = SourceFormat(identifier: "pfm")
    /// OpenEXR (scanline or tiled): linear-light half or full floats.
    public static let exr = SourceFormat(identifier: "exr")
    /// Radiance RGBE (`#?RADIANCE`, `#?RGBE`): linear-light, often in absolute units.
    public static let hdr = SourceFormat(identifier: "hdr")
    /// QuickTime movie (`ftyp` brand `qt  `, or an old file starting with a `moov`/`mdat` box).
    public static let mov = SourceFormat(identifier: "mov")
    /// MPEG-4 video (`isom`, `mp41`, `mp42`, `avc1`, … brands).
    public static let mp4 = SourceFormat(identifier: "mp4")
    public static let m4v = SourceFormat(identifier: "m4v")
    public static let threeGP = SourceFormat(identifier: "3gp")
    /// MPEG-4 audio (`M4A `, `M4B `, `M4P ` brands).
    public static let m4a = SourceFormat(identifier: "m4a")
    public static let mp3 = SourceFormat(identifier: "mp3")
    public static let flac = SourceFormat(identifier: "flac")
    public static let ogg = SourceFormat(identifier: "ogg")
    /// AVI (RIFF `AVI `): old cameras' MJPEG and MPEG-4 Part 2 clips.
    public static let avi = SourceFormat(identifier: "avi")
    /// MPEG transport stream (`.ts`, and AVCHD `.mts`/`.m2ts` with 4-byte timestamps): camcorders.
    public static let mpegTS = SourceFormat(identifier: "mpegts")
    /// Matroska (EBML DocType `matroska`).
    public static let mkv = SourceFormat(identifier: "mkv")
    /// WebM (EBML DocType `webm`).
    public static let webm = SourceFormat(identifier: "webm")
    /// Photoshop document (PSD or PSB): read for its capture date only; no renditions.
    public static let psd = SourceFormat(identifier: "psd")
    /// DV (raw DIF blocks, `.dv`): tape camcorders' transfers; a video.
    public static let dv = SourceFormat(identifier: "dv")
    /// WAV (RIFF `WAVE`) and AIFF (`FORM` … `AIFF`/`AIFC`): uncompressed audio; artwork from an
    /// ID3 chunk's picture when there is one (iTunes, ffmpeg), else `noArtwork` like an MP3 without cover.
    public static let wav = SourceFormat(identifier: "wav")
    public static let aiff = SourceFormat(identifier: "aiff")
    /// Flash Video (`FLV`, version 1): old web and camera clips (H.264, or Sorenson/VP6, which
    /// the decoder allow-list refuses); a video.
    public static let flv = SourceFormat(identifier: "flv")
    /// MXF (SMPTE 377M; a header partition pack first): broadcast and professional cameras; a video.
    public static let mxf = SourceFormat(identifier: "mxf")
    /// Raw AAC in ADTS frames (`.aac`): no tags, so no artwork (`noArtwork`).
    public static let aac = SourceFormat(identifier: "aac")

    /// The IANA media type written to the manifest's `mediaType` (from the format's handler).
    public var mediaType: String { handling.mediaType }

    /// Vector formats are rendered at the size asked for rather than decoded and shrunk.
    public var isVector: Bool { handling.kind == .vector }

    /// Formats read by libavformat rather than libvips.
    public var isVideo: Bool { handling.kind == .video }
    public var isAudio: Bool { handling.kind == .audio }
    public var isImage: Bool { !isVideo && !isAudio }
    /// Camera raw formats: decoded from their embedded JPEG preview, not their sensor data.
    public var isCameraRaw: Bool { handling.kind == .cameraRaw }
    /// Formats whose metadata (capture date) is read but whose pixels are not decoded:
    /// `inspect` reports them, `convert` refuses them with `unsupportedFormat`.
    public var isMetadataOnly: Bool { handling.kind == .metadataOnly }
    /// Scene-referred float formats whose values are linear light with no fixed white: shown
    /// through an exposure and highlight roll-off (`LinearLightExposure`), not clipped.
    public var isLinearLight: Bool { handling.still?.linearLight ?? false }
}

/// What an asset is, as the manifest's `kind` reports it.
public enum AssetKind: String, Codable, Sendable {
    /// A still image: photo, artwork, icon or poster, processed by the photo pipeline.
    case photo
    /// A movie (MOV, MP4, M4V, 3GP, AVI, MPEG-TS/AVCHD, Matroska, WebM, DV, FLV, MXF).
    case video
    /// Cover art embedded in an audio file (MP3, M4A, FLAC, Ogg, WAV, AIFF, ADTS AAC): renditions from the cover.
    case artwork
    /// A still paired with its short movie (one manifest entry for both files).
    case livePhoto
    /// A drawing: SVG or PDF, or a small PNG/WebP/GIF with transparency. Rendered at the
    /// rendition size with transparency kept (WebP thumbnail with alpha, PNG fallback).
    case icon
}
