import Foundation

/// What a video file's container and best video stream say, read by `MediaFile.videoInfo()`
/// after one `avformat_open_input` + `avformat_find_stream_info`; no frame is decoded for it
/// beyond what stream-info probing does itself.
///
/// Sizes: `codedWidth`/`codedHeight` are the stored frame size; `displayWidth`/`displayHeight`
/// are the size a player shows, after the sample aspect ratio and the display-matrix rotation.
public struct VideoInfo: Sendable, Equatable {
    /// Container duration in seconds (the stream's when the container has none); nil when
    /// neither is known.
    public var durationSeconds: Double?
    /// Stored frame size, as the codec parameters give it.
    public var codedWidth: Int
    public var codedHeight: Int
    /// Size after the sample aspect ratio and `rotation` (90 and 270 swap the two).
    public var displayWidth: Int
    public var displayHeight: Int
    /// Clockwise rotation a player applies to show the frames upright: 0, 90, 180 or 270.
    /// (libav's `av_display_rotation_get` is anticlockwise; this is its negation, snapped to
    /// the nearest quarter turn. ExifTool's QuickTime `Rotation` uses the same sign as this.)
    public var rotation: Int
    /// libavcodec's codec name: `h264`, `hevc`, `mjpeg`, `prores`, …
    public var codec: String
    /// Average frame rate (frames per second), else the stream's base rate; nil when unknown.
    public var frameRate: Double?
    /// The file has at least one audio stream.
    public var hasAudio: Bool
    /// Colour description of the video stream.
    public var color: VideoColorDescription
    /// Container-level metadata tags as libavformat exposes them (for QuickTime files written
    /// with `mdta` keys these include `com.apple.quicktime.content.identifier`).
    public var containerTags: [String: String]

    /// The Live Photo identifier of a QuickTime movie: the `com.apple.quicktime.content.identifier`
    /// key, when the file carries one.
    public var contentIdentifier: String? {
        containerTags[LivePhotoIdentifier.quickTimeKey].flatMap(LivePhotoIdentifier.normalized)
    }

    /// `com.apple.quicktime.still-image-time` in seconds when libavformat exposes it as a
    /// container tag. iPhones store it as a sample of a timed-metadata (`mebx`) track, which
    /// libavformat does not parse, so for camera files this is normally nil.
    public var stillImageTimeSeconds: Double? {
        guard let raw = containerTags["com.apple.quicktime.still-image-time"] else { return nil }
        return Double(raw.trimmingCharacters(in: .whitespaces))
    }

    public init(durationSeconds: Double?, codedWidth: Int, codedHeight: Int, displayWidth: Int,
                displayHeight: Int, rotation: Int, codec: String, frameRate: Double?, hasAudio: Bool,
                color: VideoColorDescription, containerTags: [String: String]) {
        self.durationSeconds = durationSeconds
        self.codedWidth = codedWidth
        self.codedHeight = codedHeight
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.rotation = rotation
        self.codec = codec
        self.frameRate = frameRate
        self.hasAudio = hasAudio
        self.color = color
        self.containerTags = containerTags
    }
}

/// The colour signalling of a video stream, by libavutil's names (`bt709`, `bt2020`,
/// `arib-std-b67`, `smpte2084`, `bt2020nc`, `tv`, `pc`); nil where the stream leaves it
/// unspecified.
public struct VideoColorDescription: Sendable, Equatable {
    public var transfer: String?
    public var primaries: String?
    public var matrix: String?
    public var range: String?
    /// Bits per luma sample of the decoded pixel format (8, 10, 12); nil when unknown.
    public var bitDepth: Int?

    /// HDR transfer: HLG (`arib-std-b67`) or PQ (`smpte2084`). Posters of these are tone-mapped.
    public var isHDR: Bool { transfer == "arib-std-b67" || transfer == "smpte2084" }

    public init(transfer: String?, primaries: String?, matrix: String?, range: String?, bitDepth: Int?) {
        self.transfer = transfer
        self.primaries = primaries
        self.matrix = matrix
        self.range = range
        self.bitDepth = bitDepth
    }
}

/// A movie as the manifest's `video` object describes it (also the motion part of a Live
/// Photo). Display `width`/`height` are the manifest entry's own.
public struct VideoRecord: Codable, Sendable, Equatable {
    public var durationSeconds: Double?
    /// libavcodec's codec name, e.g. `h264`, `hevc`.
    public var codec: String
    public var frameRate: Double?
    public var hasAudio: Bool
    /// Degrees clockwise the stored frames are turned to display (0, 90, 180, 270).
    public var rotation: Int
    /// HLG or PQ transfer: the poster is tone-mapped to SDR BT.709 (when that fails, the
    /// entry's warnings say so and the poster is an SDR conversion, washed out).
    public var hdr: Bool
    /// Where in the movie the poster frame was taken, in seconds.
    public var posterTimeSeconds: Double

    public init(info: VideoInfo, posterTimeSeconds: Double) {
        durationSeconds = info.durationSeconds.map { ($0 * 1000).rounded() / 1000 }
        codec = info.codec
        frameRate = info.frameRate.map { ($0 * 1000).rounded() / 1000 }
        hasAudio = info.hasAudio
        rotation = info.rotation
        hdr = info.color.isHDR
        self.posterTimeSeconds = (posterTimeSeconds * 1000).rounded() / 1000
    }
}
