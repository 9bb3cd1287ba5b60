/// One video frame chosen as a poster, upright and in 8-bit RGB: interleaved R, G, B bytes,
/// BT.709/sRGB primaries, full range, rows `bytesPerRow` apart (always `width * 3`).
/// Made by `MediaFile.posterFrame(_:)`; the pipeline turns it into renditions like a photo.
public struct PosterFrame: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var bytesPerRow: Int
    /// `height * bytesPerRow` bytes.
    public var rgb: [UInt8]
    /// Presentation time of the frame, seconds from the stream's start.
    public var timeSeconds: Double
    /// Mean and standard deviation of the frame's BT.709 luma (0–255), as used to reject
    /// black or flat candidates.
    public var meanLuma: Double
    public var lumaDeviation: Double
    /// The frame was HDR (HLG or PQ) or wide-gamut BT.2020 and was tone-mapped to SDR BT.709.
    public var toneMapped: Bool
    /// Why an HDR or wide-gamut frame could not be tone-mapped (libavfilter could not be
    /// loaded, its graph refused the frame's format): it was converted like SDR video instead,
    /// its colours washed out. Nil when tone mapping worked or was not needed.
    public var toneMapFailure: String?

    public init(width: Int, height: Int, bytesPerRow: Int, rgb: [UInt8], timeSeconds: Double,
                meanLuma: Double, lumaDeviation: Double, toneMapped: Bool, toneMapFailure: String? = nil) {
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.rgb = rgb
        self.timeSeconds = timeSeconds
        self.meanLuma = meanLuma
        self.lumaDeviation = lumaDeviation
        self.toneMapped = toneMapped
        self.toneMapFailure = toneMapFailure
    }
}

/// How `MediaFile.posterFrame(_:)` picks and sizes a poster. The defaults are the cheap ones
/// the pipeline wants.
public struct PosterOptions: Sendable, Equatable {
    /// Largest side of the poster in pixels (downscaled in the colour conversion, never
    /// upscaled); nil keeps the display size.
    public var maxDimension: Int?
    /// Tone-map HDR (HLG, PQ) and BT.2020 frames to SDR BT.709 (`HDRToneMapper`: swscale to
    /// 16-bit RGB and a table-driven Möbius curve). `false` converts them with swscale like SDR video (washed out; for comparison).
    public var toneMapHDR: Bool
    /// How many seek positions to try at most before keeping the best frame seen.
    public var maxCandidates: Int
    /// Tests only: tone-map through libavfilter's graph even where the table path applies, to
    /// compare the two.
    package var forceFilterGraphToneMap = false

    public init(maxDimension: Int? = nil, toneMapHDR: Bool = true, maxCandidates: Int = 4) {
        self.maxDimension = maxDimension
        self.toneMapHDR = toneMapHDR
        self.maxCandidates = maxCandidates
    }
}
