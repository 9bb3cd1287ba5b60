import CFFmpeg
import Foundation
import JournalMediaCore

/// A movie notification attachment as encoded: the MP4's bytes and what it holds.
package struct EncodedMovie: Sendable {
    package var data: [UInt8]
    package var width: Int
    package var height: Int
    /// Seconds of video in the file.
    package var durationSeconds: Double
    package var hasAudio: Bool
    /// False when the movie was cut to its first `clipSeconds`.
    package var wholeMovie: Bool
    /// The H.264 target bitrate, bits per second.
    package var videoBitRate: Int
}

extension MediaFile {
    /// This file's video as an MP4 notification attachment (see `MovieClipEncoder`), under
    /// `request.maxBytes`: when an encode comes out over (the rate control overshot), it is
    /// redone once or twice at a bitrate lowered in proportion. Throws `probe` (no video),
    /// `decode` or `encode` errors naming this file.
    package func movieAttachment(_ request: MovieAttachmentRequest) throws(AssetError) -> EncodedMovie {
        var scale = 1.0
        for _ in 0..<3 {
            let movie: EncodedMovie
            do throws(LibavFailure) {
                movie = try MovieClipEncoder(media: self, request: request, bitRateScale: scale).encode()
            } catch {
                throw failure(.encode, "movie attachment: \(error.message)", reason: .encodeFailed)
            }
            if movie.data.count <= request.maxBytes { return movie }
            scale *= 0.8 * Double(request.maxBytes) / Double(movie.data.count)
        }
        throw failure(.encode, "movie attachment: still over \(request.maxBytes) bytes after lowering the bitrate",
                      reason: .encodeFailed)
    }
}

/// Encodes a movie (or a Live Photo's motion) into an MP4 that `UNNotificationAttachment`
/// plays: H.264 (libx264 through libavcodec, `veryfast`, High profile, yuv420p BT.709
/// limited range) and, when the original has sound, AAC (libavcodec's encoder, the
/// original's rate, mono or stereo), muxed by libavformat into memory. All in-process.
///
/// - Size: the display size (sample aspect applied), shrunk to `maxSide` on its longer side,
///   even sides; the display-matrix rotation is applied to the pixels, so the file needs none.
/// - Bitrate: 0.1 bit per pixel per frame, 400 kbit/s – 5 Mbit/s (720p30 ≈ 2.8 Mbit/s), plus
///   64 kbit/s per audio channel. The whole movie is kept when it fits in 90 % of `maxBytes`
///   at that rate; otherwise its first `clipSeconds` (or fewer, if those would not fit).
/// - Loopable: starts with a keyframe at time 0 (frames before the movie's start are
///   dropped), constant codec settings to the end, audio cut to the video's length.
/// - HDR (HLG/PQ/BT.2020) frames go through the poster's tone curve (`HDRToneMapper`) to
///   SDR before the YUV conversion.
///
/// Runs once per movie attachment, on the processor's thread, libx264 with one thread (the
/// batch runs one asset per core). Costs a decode of every frame up to the clip's end, one
/// swscale pass per frame, and the encode: roughly real time or faster for 720p on one
/// core. Bounded by `timeLimitSeconds` (5
/// minutes, or the file's own time limit when longer): an encode is a stage of its own, longer
/// than a poster's decode.
final class MovieClipEncoder {
    static let bitsPerPixelFrame = 0.1
    static let bitRateRange = 400_000...5_000_000
    static let audioBitRatePerChannel = 64_000
    /// Share of the byte limit the planned bitrate may fill (container overhead, rate overshoot).
    static let budgetShare = 0.9
    static let timeLimitSeconds = 300.0
    /// Sample rates libavcodec's AAC encoder takes.
    static let aacRates: Set<Int32> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    let media: MediaFile
    let request: MovieAttachmentRequest
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: VideoDecoder
    let rotation: Int
    /// Size before rotation (what swscale writes) and after (what the encoder gets).
    let scaledWidth: Int, scaledHeight: Int
    let width: Int, height: Int
    let frameRate: AVRational
    let videoBitRate: Int
    let audio: AudioTrackSource?
    /// Seconds to keep; nil for the whole movie.
    let clipEnd: Double?

    init(media: MediaFile, request: MovieAttachmentRequest, bitRateScale: Double) throws(LibavFailure) {
        self.media = media
        self.request = request
        do { stream = try media.videoStream() } catch { throw LibavFailure(error.message) }
        decoder = try VideoDecoder(stream: stream)
        rotation = DisplayRotation.clockwiseDegrees(of: stream)
        guard let parameters = stream.pointee.codecpar, parameters.pointee.width > 0, parameters.pointee.height > 0 else {
            throw LibavFailure("video stream without a frame size")
        }
        var shownWidth = Double(parameters.pointee.width)
        let shownHeight = Double(parameters.pointee.height)
        if let aspect = LibavRuntime.value(parameters.pointee.sample_aspect_ratio), aspect > 0.1, aspect < 10 {
            shownWidth *= aspect
        }
        let scale = min(1, Double(max(16, request.maxSide)) / max(shownWidth, shownHeight))
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        scaledWidth = even(shownWidth * scale)
        scaledHeight = even(shownHeight * scale)
        let quarter = rotation == 90 || rotation == 270
        width = quarter ? scaledHeight : scaledWidth
        height = quarter ? scaledWidth : scaledHeight

        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 || Double(rate.num) / Double(rate.den) > 240 { rate = stream.pointee.r_frame_rate }
        if rate.num <= 0 || rate.den <= 0 || Double(rate.num) / Double(rate.den) > 240 { rate = AVRational(num: 30, den: 1) }
        frameRate = rate
        let fps = Double(rate.num) / Double(rate.den)
        let planned = Self.bitsPerPixelFrame * Double(width * height) * fps
        let clamped = min(max(planned, Double(Self.bitRateRange.lowerBound)), Double(Self.bitRateRange.upperBound))
        videoBitRate = max(100_000, Int(clamped * bitRateScale))

        audio = AudioTrackSource(media: media)
        let audioBitRate = audio.map { Self.audioBitRatePerChannel * $0.outputChannels } ?? 0
        let fitting = Double(request.maxBytes) * 8 * Self.budgetShare / Double(videoBitRate + audioBitRate)
        if let duration = media.durationSeconds, duration <= fitting {
            clipEnd = nil
        } else {
            clipEnd = min(request.clipSeconds, fitting)
        }
    }

    func encode() throws(LibavFailure) -> EncodedMovie {
        media.deadline.restart(seconds: max(media.timeLimit, Self.timeLimitSeconds))
        let muxer = try MP4Muxer()
        guard let h264 = avcodec_find_encoder_by_name("libx264") else {
            throw LibavFailure("libavcodec has no libx264 encoder")
        }
        let timeBase = stream.pointee.time_base.num > 0 && stream.pointee.time_base.den > 0
            ? stream.pointee.time_base : AVRational(num: 1, den: 90_000)
        let video = try LibavEncoder(codec: h264, muxer: muxer,
                                     options: ["preset": "veryfast", "profile": "high"]) { [self] context in
            context.pointee.width = Int32(width)
            context.pointee.height = Int32(height)
            context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
            context.pointee.time_base = timeBase
            context.pointee.framerate = frameRate
            context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
            context.pointee.bit_rate = Int64(videoBitRate)
            context.pointee.rc_max_rate = Int64(videoBitRate) * 3 / 2
            context.pointee.rc_buffer_size = Int32(clamping: videoBitRate * 2)
            context.pointee.gop_size = Int32(max(1, (Double(frameRate.num) / Double(frameRate.den) * 2).rounded()))
            context.pointee.thread_count = 1
            context.pointee.color_range = AVCOL_RANGE_MPEG
            context.pointee.colorspace = AVCOL_SPC_BT709
            context.pointee.color_primaries = AVCOL_PRI_BT709
            context.pointee.color_trc = AVCOL_TRC_BT709
        }
        let sound: AudioTrackEncoder?
        if let audio {
            sound = try AudioTrackEncoder(source: audio, muxer: muxer,
                                          endSeconds: clipEnd ?? media.durationSeconds ?? .infinity)
        } else {
            sound = nil
        }
        try muxer.writeHeader()

        let converter = FrameToYUV(width: scaledWidth, height: scaledHeight, rotation: rotation,
                                   outputWidth: width, outputHeight: height)
        let packet = try LibavPacket()
        let frame = try LibavFrame()
        let index = stream.pointee.index
        let start = stream.pointee.start_time == LibavRuntime.noTimestamp ? 0 : stream.pointee.start_time
        let unit = Double(timeBase.num) / Double(timeBase.den)
        _ = av_seek_frame(media.context, index, start, AVSEEK_FLAG_BACKWARD)
        var lastPTS = Int64.min
        var videoDone = false
        var frames = 0
        var lastTime = 0.0

        func takeFrames() throws(LibavFailure) {
            while true {
                let received = avcodec_receive_frame(decoder.context, frame.pointer)
                if received == LibavRuntime.tryAgain || received == jm_averror_eof() { return }
                guard received >= 0 else { return }  // a broken frame is skipped
                defer { frame.unreference() }
                guard !videoDone else { continue }
                var timestamp = frame.pointer.pointee.best_effort_timestamp
                if timestamp == LibavRuntime.noTimestamp {
                    timestamp = lastPTS == Int64.min ? 0 : lastPTS + Int64(1 / (unit * Double(frameRate.num) / Double(frameRate.den)))
                } else {
                    timestamp -= start
                }
                let seconds = Double(timestamp) * unit
                if seconds < 0 || timestamp <= lastPTS { continue }
                if let clipEnd, seconds >= clipEnd - 0.0005 {
                    videoDone = true
                    continue
                }
                // Signalling the frame left out comes from the stream (as for the poster).
                if let parameters = stream.pointee.codecpar?.pointee {
                    let f = frame.pointer
                    if f.pointee.color_trc == AVCOL_TRC_UNSPECIFIED { f.pointee.color_trc = parameters.color_trc }
                    if f.pointee.color_primaries == AVCOL_PRI_UNSPECIFIED { f.pointee.color_primaries = parameters.color_primaries }
                    if f.pointee.colorspace == AVCOL_SPC_UNSPECIFIED { f.pointee.colorspace = parameters.color_space }
                    if f.pointee.color_range == AVCOL_RANGE_UNSPECIFIED { f.pointee.color_range = parameters.color_range }
                }
                let output = try converter.convert(frame)
                output.pointer.pointee.pts = timestamp
                try video.send(output.pointer)
                lastPTS = timestamp
                lastTime = seconds
                frames += 1
            }
        }

        while !media.deadline.hasExpired {
            if videoDone && (sound?.isDone ?? true) { break }
            let read = av_read_frame(media.context, packet.pointer)
            if read < 0 { break }
            defer { packet.unreference() }
            if packet.pointer.pointee.stream_index == index {
                guard !videoDone else { continue }
                let sent = avcodec_send_packet(decoder.context, packet.pointer)
                if sent < 0 && sent != LibavRuntime.tryAgain { continue }
                try takeFrames()
            } else if let sound, packet.pointer.pointee.stream_index == sound.source.streamIndex {
                try sound.decode(packet.pointer)
            }
        }
        guard !media.deadline.hasExpired else { throw LibavFailure("timed out encoding the movie attachment") }
        _ = avcodec_send_packet(decoder.context, nil)
        try takeFrames()
        guard frames > 0 else { throw LibavFailure("no video frame could be decoded") }
        try video.send(nil)
        try sound?.finish()
        let bytes = try muxer.finish()
        let frameSeconds = Double(frameRate.den) / Double(frameRate.num)
        return EncodedMovie(data: bytes, width: width, height: height,
                            durationSeconds: ((lastTime + frameSeconds) * 1000).rounded() / 1000,
                            hasAudio: sound != nil, wholeMovie: clipEnd == nil, videoBitRate: videoBitRate)
    }
}
