import JournalMediaCore

/// What `AssetProcessor` makes of each asset and what it refuses. Every default is in
/// `Defaults`.
public struct ProcessingOptions: Sendable, Equatable {
    /// Renditions to produce, in order. Defaults to `Defaults.renditions`.
    public var renditions: [RenditionSpec]
    /// Largest accepted image, width × height from the header. Defaults to `Defaults.maxPixels`.
    public var maxPixels: Int
    /// Largest accepted grid HEIC (decoded a row of tiles at a time, so its memory does not
    /// grow with its pixels). Defaults to `Defaults.maxTiledPixels`.
    public var maxTiledPixels: Int = Defaults.maxTiledPixels
    /// Largest still image file read into memory, from `fstat` before reading. Defaults to
    /// `Defaults.maxBytes`; movies and audio are streamed and not bound by it.
    public var maxBytes: Int
    /// Longest one decode may take, in seconds (wall clock); past it the asset fails with
    /// reason `timeout`. Defaults to `Defaults.decodeTimeoutSeconds`.
    public var timeoutSeconds: Double
    /// Compute `colors` and the ThumbHash `placeholder` from the decoded image (on by default;
    /// a few milliseconds per asset).
    public var analyzeColors: Bool
    /// Notification movies: a video longer than fits in 50 MB at the attachment bitrate is cut
    /// to its first this many seconds. Defaults to `Defaults.notificationClipSeconds`. Used
    /// only when the renditions include the `notification` role.
    public var notificationClipSeconds: Double
    /// Also make an audio attachment (M4A AAC, ≤ 5 MB) from audio files; off by default.
    public var notificationAudio: Bool
    /// Report where assets were made (`AssetResult.location`); on by default. Off
    /// (`--no-location`, a service's `--no-location`): every result's `location` and `place` are null and
    /// no warning about a location is kept. Renditions never carry metadata either way.
    public var includeLocation = true
    /// Walk a still's metadata for the entry: capture date, camera, location and place, Live
    /// Photo identifier, an Android motion photo's embedded video; on by default. Off (`serve`'s
    /// on-demand route, which answers only a rendition's bytes): bytes in memory are sniffed
    /// and bounds-checked, then decoded; the renditions are the same (the orientation comes
    /// from the image header), the entry has none of those fields. Saves the metadata walk
    /// (EXIF, MakerNote, XMP) and the place lookup per asset. Files (`process(fileAt:)`,
    /// batches) always read their metadata.
    public var readsMetadata = true

    public init(renditions: [RenditionSpec] = Defaults.renditions, maxPixels: Int = Defaults.maxPixels,
                maxBytes: Int = Defaults.maxBytes, timeoutSeconds: Double = Defaults.decodeTimeoutSeconds,
                analyzeColors: Bool = true,
                notificationClipSeconds: Double = Defaults.notificationClipSeconds, notificationAudio: Bool = false) {
        self.renditions = renditions
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
        self.timeoutSeconds = timeoutSeconds
        self.analyzeColors = analyzeColors
        self.notificationClipSeconds = notificationClipSeconds
        self.notificationAudio = notificationAudio
    }

    /// The options besides the renditions that change what an entry holds, as a manifest
    /// records them (what a re-run compares before reusing an entry).
    public var outputSettings: OutputSettings {
        let notification = notificationSpec != nil
        return OutputSettings(colors: analyzeColors,
                              notificationClipSeconds: notification ? notificationClipSeconds : nil,
                              notificationAudio: notification ? notificationAudio : nil,
                              location: includeLocation ? nil : false)
    }

    /// The `notification` spec among the renditions, if any.
    public var notificationSpec: RenditionSpec? { renditions.first(where: \.isNotification) }
}
