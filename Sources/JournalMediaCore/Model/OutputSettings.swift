/// The processing options besides the rendition preset that change what a manifest entry
/// holds: whether colours and the placeholder are computed, and, when the preset has a
/// `notification` rendition, how long a clipped movie or audio attachment is and whether
/// audio attachments are made. Limits (`maxPixels`, `maxBytes`, the decode timeout) are not
/// here: they only refuse, and a refused asset is always redone.
///
/// Written into `manifest.json` (`settings`) and the batch journal's header; a re-run reuses
/// an earlier entry only when both the preset and these are equal, and `Manifest.merge`
/// refuses parts made with different ones. A manifest written before this field existed is
/// read as made with the defaults. Comparing costs nothing measurable.
public struct OutputSettings: Codable, Sendable, Equatable {
    /// Colours and the ThumbHash placeholder were computed.
    public var colors: Bool
    /// Seconds a notification movie or audio attachment is cut to; nil without a
    /// `notification` rendition (then it changes nothing).
    public var notificationClipSeconds: Double?
    /// Audio files also got an M4A attachment; nil without a `notification` rendition.
    public var notificationAudio: Bool?
    /// `false` when locations were left out (`--no-location`); absent (nil) when reported,
    /// so manifests written before the field existed compare equal to a default run.
    public var location: Bool?

    public init(colors: Bool = true, notificationClipSeconds: Double? = nil, notificationAudio: Bool? = nil,
                location: Bool? = nil) {
        self.location = location
        self.colors = colors
        self.notificationClipSeconds = notificationClipSeconds
        self.notificationAudio = notificationAudio
    }

    /// What a run with `preset` and every default made: how to read a manifest or journal
    /// written before the field existed.
    public static func defaults(for preset: [RenditionSpec]) -> OutputSettings {
        let notification = preset.contains(where: \.isNotification)
        return OutputSettings(colors: true,
                              notificationClipSeconds: notification ? Defaults.notificationClipSeconds : nil,
                              notificationAudio: notification ? false : nil)
    }
}
