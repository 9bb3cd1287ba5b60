import CFFmpeg
import JournalMediaCore

extension MediaFile {
    /// Duration, sizes, rotation, codec, frame rate, audio presence, colour signalling and the
    /// container's tags of this file's best video stream. Runs once per video asset, right
    /// after the open; costs no decoding (reads what `avformat_find_stream_info` found).
    /// Throws `probe` when the file has no video stream or the stream has no size.
    package func videoInfo() throws(AssetError) -> VideoInfo {
        let stream = try videoStream()
        guard let parameters = stream.pointee.codecpar else { throw failure(.probe, "video stream without parameters") }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw failure(.probe, "video stream without a frame size") }

        let rotation = DisplayRotation.clockwiseDegrees(of: stream)
        var shownWidth = width
        if let aspect = LibavRuntime.value(parameters.pointee.sample_aspect_ratio), aspect > 0, aspect != 1 {
            shownWidth = max(1, Int((Double(width) * aspect).rounded()))
        }
        let quarter = rotation == 90 || rotation == 270

        let rate = LibavRuntime.value(stream.pointee.avg_frame_rate) ?? LibavRuntime.value(stream.pointee.r_frame_rate)
        let hasAudio = streams.contains { $0.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_AUDIO }

        return VideoInfo(
            durationSeconds: durationSeconds,
            codedWidth: width, codedHeight: height,
            displayWidth: quarter ? height : shownWidth, displayHeight: quarter ? shownWidth : height,
            rotation: rotation,
            codec: LibavRuntime.string(avcodec_get_name(parameters.pointee.codec_id)) ?? "unknown",
            frameRate: rate.flatMap { $0 > 0 && $0 < 10_000 ? $0 : nil },
            hasAudio: hasAudio,
            color: Self.colorDescription(parameters.pointee),
            containerTags: containerTags)
    }

    /// libavutil's names for the stream's colour signalling; nil for "unspecified".
    static func colorDescription(_ p: AVCodecParameters) -> VideoColorDescription {
        func named(_ pointer: UnsafePointer<CChar>?, unspecified: Bool) -> String? {
            unspecified ? nil : LibavRuntime.string(pointer)
        }
        let format = AVPixelFormat(rawValue: p.format)
        let depth = av_pix_fmt_desc_get(format).map { Int($0.pointee.comp.0.depth) }
        return VideoColorDescription(
            transfer: named(av_color_transfer_name(p.color_trc), unspecified: p.color_trc == AVCOL_TRC_UNSPECIFIED),
            primaries: named(av_color_primaries_name(p.color_primaries), unspecified: p.color_primaries == AVCOL_PRI_UNSPECIFIED),
            matrix: named(av_color_space_name(p.color_space), unspecified: p.color_space == AVCOL_SPC_UNSPECIFIED),
            range: named(av_color_range_name(p.color_range), unspecified: p.color_range == AVCOL_RANGE_UNSPECIFIED),
            bitDepth: depth.flatMap { $0 > 0 ? $0 : nil })
    }
}
