/// Every default of the toolkit, in one place. docs/formats-and-limits.md ("Defaults") mirrors this file.
public enum Defaults {
    /// The renditions made for every asset unless a preset says otherwise:
    /// - `thumbnail`: WebP q80 fitting 512×512, alpha kept;
    /// - `fallback`: baseline JPEG q85 (4:2:0) fitting 1600×1600, or PNG when the source has
    ///   real transparency: the image any client can always show in place of the asset.
    public static let renditions: [RenditionSpec] = [
        RenditionSpec(role: "thumbnail", format: .webp, width: 512, quality: 80),
        RenditionSpec(role: "fallback", format: .jpeg, formatWhenTransparent: .png, width: 1600, quality: 85),
    ]

    /// The notification attachment (`--notification`, or a preset spec with role
    /// `notification`; off by default): JPEG q85 fitting 1024×1024, PNG when the source has
    /// real transparency, always under Apple's 10 MB image limit (quality lowered, then size).
    /// Movies and Live Photos also get an MP4 (`notificationVideoMaxSide`,
    /// `notificationClipSeconds`), animations a GIF, audio its cover (and a clip on request).
    public static let notificationRendition = RenditionSpec(
        role: RenditionSpec.notificationRole, format: .jpeg, formatWhenTransparent: .png, width: 1024, quality: 85)

    /// Longest side of a notification movie (MP4, H.264), in pixels.
    public static let notificationVideoMaxSide = 1280

    /// A video too long for a whole-video attachment at the sensible bitrate is cut to its
    /// first this many seconds.
    public static let notificationClipSeconds: Double = 15

    /// Largest source accepted, in pixels (width × height from the header, checked before decoding).
    public static let maxPixels = 100_000_000

    /// Largest grid HEIC accepted, in pixels: 268,402,689 (16383 × 16383, sharp's default
    /// limit). Such a file is decoded a row of tiles at a time into the rendition's size, so
    /// its memory is bounded by a strip of tiles, not by its pixels (a 200 MP Samsung photo
    /// converts in well under 300 MB); its time still grows with them, which is what this
    /// bounds. Checked from the header like `maxPixels`,
    /// which stays the limit for everything decoded whole.
    public static let maxTiledPixels = 268_402_689

    /// Largest still image file read into memory, in bytes (checked from `fstat` before
    /// reading). Movies and audio are streamed and not bound by it.
    public static let maxBytes = 512 * 1024 * 1024

    /// Longest one asset's decode may take, in seconds of wall-clock time (libvips' kill flag
    /// for stills, vector drawings and PDFs; libav's interrupt callback for movies and audio).
    public static let decodeTimeoutSeconds: Double = 10

    /// Largest rendition side a preset may ask for.
    public static let maxRenditionSide = 10_000

    /// Colour transparent sources are flattened on when the output format has no alpha.
    public static let flattenBackground: [Double] = [255, 255, 255]

    /// A PNG, WebP or GIF with real transparency and no side longer than this is an `icon`.
    public static let iconMaximumSide = 1_024

    /// A running batch appends each finished entry to its journal at once (a killed process
    /// loses none) and flushes the journal to disk (`fdatasync`) at most this often, in
    /// seconds, or after `journalSyncEntries` entries, whichever comes first.
    public static let journalSyncInterval: Double = 2
    public static let journalSyncEntries = 1_000
}
