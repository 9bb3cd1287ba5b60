/// The sizes `UNNotificationAttachment` accepts, by kind of file (Apple's documentation of
/// `UNNotificationAttachment`, "Supported file types and sizes"): images (JPEG, GIF, PNG) up
/// to 10 MB, audio (AIFF, WAV, MP3, M4A) up to 5 MB, movies (MPEG, MPEG-2, MP4, AVI) up to
/// 50 MB. HEIC, WebP and QuickTime `.mov` are not on the list. Megabytes are taken as 10⁶
/// bytes, the stricter reading. Constants only; nothing runs.
public enum NotificationLimits {
    public static let imageBytes = 10_000_000
    public static let audioBytes = 5_000_000
    public static let videoBytes = 50_000_000

    /// The limit for an attachment in `format`.
    public static func bytes(for format: RenditionFormat) -> Int {
        switch format {
        case .mp4: videoBytes
        case .m4a, .mp3: audioBytes
        default: imageBytes
        }
    }
}

/// What a notification service extension needs to attach one file: the type hint, and the
/// thumbnail choices Apple's attachment options take. Set on the manifest entry's rendition
/// (`attachment`) of every notification attachment; absent on other renditions.
///
/// Made by the rendition step (images) and the video layer's clip encoder (movies); costs one
/// attention analysis of the encoded image (a few milliseconds at 1024 px).
public struct NotificationAttachment: Codable, Sendable, Equatable {
    /// `UNNotificationAttachmentOptionsTypeHintKey`: `public.jpeg`, `public.png`,
    /// `com.compuserve.gif`, `public.mpeg-4`, `public.mpeg-4-audio` or `public.mp3`.
    public var uti: String
    /// Apple's byte limit for this kind of attachment; the file's `bytes` is at most this.
    public var limitBytes: Int
    /// `UNNotificationAttachmentOptionsThumbnailClippingRectKey`: the square (in pixels of the
    /// attachment) that libvips' attention crop picks, normalised to 0…1 of the width and
    /// height (origin top left, as `CGRect(dictionaryRepresentation:)` reads it). nil for audio.
    @ExplicitNull public var thumbnailClippingRect: ClippingRect?
    /// `UNNotificationAttachmentOptionsThumbnailTimeKey` for movies: the poster frame's time in
    /// seconds from the start of the attachment; nil for images and audio.
    @ExplicitNull public var thumbnailTimeSeconds: Double?

    public init(uti: String, limitBytes: Int, thumbnailClippingRect: ClippingRect? = nil,
                thumbnailTimeSeconds: Double? = nil) {
        self.uti = uti
        self.limitBytes = limitBytes
        self.thumbnailClippingRect = thumbnailClippingRect
        self.thumbnailTimeSeconds = thumbnailTimeSeconds
    }
}

/// A rectangle in unit coordinates (0…1 of the image's width and height, origin top left),
/// the form of `UNNotificationAttachmentOptionsThumbnailClippingRectKey`.
public struct ClippingRect: Codable, Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The pixel rectangle `left, top, side × side` of a `imageWidth` × `imageHeight` image,
    /// normalised and rounded to 4 decimals (a tenth of a pixel at 1024 px).
    public init(left: Int, top: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int) {
        func unit(_ value: Int, _ whole: Int) -> Double {
            (Double(value) / Double(max(1, whole)) * 10_000).rounded() / 10_000
        }
        self.init(x: unit(left, imageWidth), y: unit(top, imageHeight),
                  width: unit(width, imageWidth), height: unit(height, imageHeight))
    }
}

/// What a movie notification attachment (MP4, H.264 + AAC) is made to: the pipeline fills it
/// from `Defaults`/`ProcessingOptions` and the video layer's `MovieClipEncoder` follows it.
public struct MovieAttachmentRequest: Sendable, Equatable {
    /// The rendition role the MP4 gets (`notification-video`, `notification-motion`).
    public var role: String
    /// Longest side of the clip in pixels (never enlarged).
    public var maxSide: Int
    /// When the whole movie does not fit in `maxBytes` at the chosen bitrate, the clip is its
    /// first this many seconds.
    public var clipSeconds: Double
    /// The file's limit in bytes.
    public var maxBytes: Int

    public init(role: String, maxSide: Int = Defaults.notificationVideoMaxSide,
                clipSeconds: Double = Defaults.notificationClipSeconds, maxBytes: Int = NotificationLimits.videoBytes) {
        self.role = role
        self.maxSide = maxSide
        self.clipSeconds = clipSeconds
        self.maxBytes = maxBytes
    }
}

/// What an audio notification attachment (M4A, AAC-LC) is made to, when asked for
/// (`ProcessingOptions.notificationAudio`, `convert --notification-audio`).
public struct AudioAttachmentRequest: Sendable, Equatable {
    /// The rendition role the M4A gets (`notification-audio`).
    public var role: String
    /// When the whole sound does not fit in `maxBytes`, the clip is its first this many seconds.
    public var clipSeconds: Double
    public var maxBytes: Int

    public init(role: String, clipSeconds: Double = Defaults.notificationClipSeconds,
                maxBytes: Int = NotificationLimits.audioBytes) {
        self.role = role
        self.clipSeconds = clipSeconds
        self.maxBytes = maxBytes
    }
}
