/// A file format recognised from its first bytes (never from its name).
public enum SourceFormat: String, Codable, Sendable, CaseIterable {
    case jpeg, png, webp, gif, tiff, heic, avif, svg, pdf
    /// JPEG XL (a bare codestream or the ISO-BMFF container), decoded by libjxl.
    case jxl
    /// Windows bitmap and icon, decoded by libvips' ImageMagick loader (the only one that
    /// reads them in libvips); an icon's largest image is used.
    case bmp, ico
    /// Camera raw files, shown through their largest embedded JPEG preview (as Immich's
    /// "prefer embedded preview"), with the raw file's orientation and EXIF dates.
    case dng, cr2, nef, arw, orf, raf, rw2
    /// JPEG 2000: the JP2 file (signature box) or a bare J2K codestream, decoded by OpenJPEG.
    case jp2
    /// Netpbm's integer formats (PBM, PGM, PPM; plain-text and binary): `P1`–`P6`.
    case pnm
    /// Portable float map (`PF` colour, `Pf` grey): linear-light floats, rows stored bottom-up.
    case pfm
    /// OpenEXR (scanline or tiled): linear-light half or full floats.
    case exr
    /// Radiance RGBE (`#?RADIANCE`, `#?RGBE`): linear-light, often in absolute units.
    case hdr
    /// QuickTime movie (`ftyp` brand `qt  `, or an old file starting with a `moov`/`mdat` box).
    case mov
    /// MPEG-4 video (`isom`, `mp41`, `mp42`, `avc1`, … brands).
    case mp4
    case m4v
    case threeGP = "3gp"
    /// MPEG-4 audio (`M4A `, `M4B `, `M4P ` brands).
    case m4a
    case mp3, flac, ogg
    /// AVI (RIFF `AVI `): old cameras' MJPEG and MPEG-4 Part 2 clips.
    case avi
    /// MPEG transport stream (`.ts`, and AVCHD `.mts`/`.m2ts` with 4-byte timestamps): camcorders.
    case mpegTS = "mpegts"
    /// Matroska (EBML DocType `matroska`).
    case mkv
    /// WebM (EBML DocType `webm`).
    case webm
    /// Photoshop document (PSD or PSB): read for its capture date only; no renditions.
    case psd
    /// DV (raw DIF blocks, `.dv`): tape camcorders' transfers; a video.
    case dv
    /// WAV (RIFF `WAVE`) and AIFF (`FORM` … `AIFF`/`AIFC`): uncompressed audio; artwork from an
    /// ID3 chunk's picture when there is one (iTunes, ffmpeg), else `noArtwork` like an MP3 without cover.
    case wav, aiff
    /// Flash Video (`FLV`, version 1): old web and camera clips (H.264, or Sorenson/VP6, which
    /// the decoder allow-list refuses); a video.
    case flv
    /// MXF (SMPTE 377M; a header partition pack first): broadcast and professional cameras; a video.
    case mxf
    /// Raw AAC in ADTS frames (`.aac`): no tags, so no artwork (`noArtwork`).
    case aac

    /// The IANA media type written to the manifest's `mediaType`.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        case .jxl: "image/jxl"
        case .bmp: "image/bmp"
        case .ico: "image/vnd.microsoft.icon"
        case .dng: "image/x-adobe-dng"
        case .cr2: "image/x-canon-cr2"
        case .nef: "image/x-nikon-nef"
        case .arw: "image/x-sony-arw"
        case .orf: "image/x-olympus-orf"
        case .raf: "image/x-fuji-raf"
        case .rw2: "image/x-panasonic-rw2"
        case .jp2: "image/jp2"
        case .pnm: "image/x-portable-anymap"
        case .pfm: "image/x-portable-floatmap"
        case .exr: "image/x-exr"
        case .hdr: "image/vnd.radiance"
        case .mov: "video/quicktime"
        case .mp4: "video/mp4"
        case .m4v: "video/x-m4v"
        case .threeGP: "video/3gpp"
        case .m4a: "audio/mp4"
        case .mp3: "audio/mpeg"
        case .flac: "audio/flac"
        case .ogg: "audio/ogg"
        case .avi: "video/x-msvideo"
        case .mpegTS: "video/mp2t"
        case .mkv: "video/x-matroska"
        case .webm: "video/webm"
        case .psd: "image/vnd.adobe.photoshop"
        case .dv: "video/dv"
        case .wav: "audio/wav"
        case .aiff: "audio/aiff"
        case .flv: "video/x-flv"
        case .mxf: "application/mxf"
        case .aac: "audio/aac"
        }
    }

    /// Vector formats are rendered at the size asked for rather than decoded and shrunk.
    public var isVector: Bool { self == .svg || self == .pdf }

    /// Formats read by libavformat rather than libvips.
    public var isVideo: Bool { [.mov, .mp4, .m4v, .threeGP, .avi, .mpegTS, .mkv, .webm, .dv, .flv, .mxf].contains(self) }
    public var isAudio: Bool { [.m4a, .mp3, .flac, .ogg, .wav, .aiff, .aac].contains(self) }
    public var isImage: Bool { !isVideo && !isAudio }
    /// Camera raw formats: decoded from their embedded JPEG preview, not their sensor data.
    public var isCameraRaw: Bool { [.dng, .cr2, .nef, .arw, .orf, .raf, .rw2].contains(self) }
    /// Formats whose metadata (capture date) is read but whose pixels are not decoded:
    /// `inspect` reports them, `convert` refuses them with `unsupportedFormat`.
    public var isMetadataOnly: Bool { self == .psd }
    /// Scene-referred float formats whose values are linear light with no fixed white: shown
    /// through an exposure and highlight roll-off (`LinearLightExposure`), not clipped.
    public var isLinearLight: Bool { [.pfm, .exr, .hdr].contains(self) }
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
