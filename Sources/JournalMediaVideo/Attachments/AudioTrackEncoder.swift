import CFFmpeg
import JournalMediaCore

/// The sound of a movie, as the clip encoder can take it: the best audio stream with a
/// decoder whose sample format is one `AudioTrackEncoder` converts (8/16/32-bit integer,
/// float or double, packed or planar) at a rate AAC allows. nil (`init?`) when there is none:
/// the clip is then silent.
///
/// Made once per movie attachment; costs opening the decoder.
final class AudioTrackSource {
    let streamIndex: Int32
    let decoder: UnsafeMutablePointer<AVCodecContext>
    let sampleRate: Int32
    let inputChannels: Int
    /// Mono stays mono; everything else keeps its first two channels.
    let outputChannels: Int

    init?(media: MediaFile) {
        let index = av_find_best_stream(media.context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0, let stream = media.streams.first(where: { $0.pointee.index == index }),
              let parameters = stream.pointee.codecpar, let codec = avcodec_find_decoder(parameters.pointee.codec_id),
              let context = avcodec_alloc_context3(codec) else { return nil }
        var keep = false
        defer {
            if !keep {
                var freeing: UnsafeMutablePointer<AVCodecContext>? = context
                avcodec_free_context(&freeing)
            }
        }
        guard avcodec_parameters_to_context(context, parameters) >= 0 else { return nil }
        context.pointee.thread_count = 1
        context.pointee.pkt_timebase = stream.pointee.time_base
        guard avcodec_open2(context, codec, nil) >= 0 else { return nil }
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard channels > 0, MovieClipEncoder.aacRates.contains(context.pointee.sample_rate),
              SampleConversion.supports(context.pointee.sample_fmt) else { return nil }
        keep = true
        streamIndex = index
        decoder = context
        sampleRate = context.pointee.sample_rate
        inputChannels = channels
        outputChannels = min(2, channels)
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = decoder
        avcodec_free_context(&freeing)
    }
}

/// Decodes a movie's sound and encodes it as AAC-LC (libavcodec's native encoder, planar
/// float, 64 kbit/s per channel) up to the clip's end, re-cut into the encoder's 1,024-sample
/// frames through a small per-channel queue. No resampling: the original rate is kept.
///
/// One per movie attachment with sound; costs the audio decode and encode of the clip's
/// length (a small fraction of the video's cost).
final class AudioTrackEncoder {
    let source: AudioTrackSource
    private let encoder: LibavEncoder
    private let frame: LibavFrame
    private let endSamples: Int64
    private var queue: [[Float]]
    private var samplesSent: Int64 = 0

    init(source: AudioTrackSource, muxer: MP4Muxer, endSeconds: Double) throws(LibavFailure) {
        guard let aac = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw LibavFailure("libavcodec has no AAC encoder") }
        self.source = source
        encoder = try LibavEncoder(codec: aac, muxer: muxer, options: [:]) { context in
            context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            context.pointee.sample_rate = source.sampleRate
            av_channel_layout_default(&context.pointee.ch_layout, Int32(source.outputChannels))
            context.pointee.bit_rate = Int64(MovieClipEncoder.audioBitRatePerChannel * source.outputChannels)
            context.pointee.time_base = AVRational(num: 1, den: source.sampleRate)
        }
        frame = try LibavFrame()
        let seconds = endSeconds.isFinite ? max(0, endSeconds) : 86_400
        endSamples = Int64((seconds * Double(source.sampleRate)).rounded())
        queue = Array(repeating: [], count: source.outputChannels)
    }

    var isDone: Bool { samplesSent >= endSamples }

    /// Decodes one packet of the audio stream and encodes every whole frame it completes.
    func decode(_ packet: UnsafeMutablePointer<AVPacket>) throws(LibavFailure) {
        guard !isDone else { return }
        let sent = avcodec_send_packet(source.decoder, packet)
        if sent < 0 && sent != LibavRuntime.tryAgain { return }
        try drainDecoder()
    }

    /// Flushes the decoder, the queue (a last short frame) and the encoder.
    func finish() throws(LibavFailure) {
        _ = avcodec_send_packet(source.decoder, nil)
        try drainDecoder()
        try emit(final: true)
        try encoder.send(nil)
    }

    private func drainDecoder() throws(LibavFailure) {
        while true {
            let received = avcodec_receive_frame(source.decoder, frame.pointer)
            guard received >= 0 else { return }
            defer { frame.unreference() }
            SampleConversion.append(frame.pointer, channels: source.outputChannels, to: &queue)
            try emit(final: false)
        }
    }

    /// Encodes queued samples in frames of the encoder's size, never past `endSamples`.
    private func emit(final: Bool) throws(LibavFailure) {
        let frameSize = max(1, Int(encoder.context.pointee.frame_size))
        while !isDone {
            let available = queue.first?.count ?? 0
            let wanted = min(frameSize, Int(endSamples - samplesSent))
            guard available >= wanted || (final && available > 0) else { return }
            let count = min(available, wanted)
            guard count > 0 else { return }
            guard let output = av_frame_alloc() else { throw LibavFailure("out of memory") }
            var owned: UnsafeMutablePointer<AVFrame>? = output
            defer { av_frame_free(&owned) }
            output.pointee.nb_samples = Int32(count)
            output.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            output.pointee.sample_rate = source.sampleRate
            av_channel_layout_copy(&output.pointee.ch_layout, &encoder.context.pointee.ch_layout)
            let allocated = av_frame_get_buffer(output, 0)
            guard allocated >= 0 else { throw LibavFailure("audio frame", code: allocated) }
            for channel in 0..<queue.count {
                guard let plane = output.pointee.extended_data[channel] else { continue }
                queue[channel].withUnsafeBytes { samples in
                    guard let base = samples.baseAddress else { return }
                    UnsafeMutableRawPointer(plane).copyMemory(from: base, byteCount: count * MemoryLayout<Float>.size)
                }
                queue[channel].removeFirst(count)
            }
            output.pointee.pts = samplesSent
            samplesSent += Int64(count)
            try encoder.send(output)
        }
    }
}

/// Decoded audio samples (any of libav's 8/16/32-bit integer, float or double formats,
/// packed or planar) appended to per-channel float queues. Pure arithmetic per sample.
enum SampleConversion {
    static func supports(_ format: AVSampleFormat) -> Bool {
        [AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_FLT, AV_SAMPLE_FMT_DBL,
         AV_SAMPLE_FMT_U8P, AV_SAMPLE_FMT_S16P, AV_SAMPLE_FMT_S32P, AV_SAMPLE_FMT_FLTP, AV_SAMPLE_FMT_DBLP].contains(format)
    }

    /// Appends the first `channels` channels of `frame` to `queue` (one array per channel).
    static func append(_ frame: UnsafeMutablePointer<AVFrame>, channels: Int, to queue: inout [[Float]]) {
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let count = Int(frame.pointee.nb_samples), total = Int(frame.pointee.ch_layout.nb_channels)
        guard count > 0, total >= channels, supports(format), let planes = frame.pointee.extended_data else { return }
        let planar = av_sample_fmt_is_planar(format) != 0
        for channel in 0..<channels {
            guard let base = planes[planar ? channel : 0] else { continue }
            let step = planar ? 1 : total, offset = planar ? 0 : channel
            var samples = [Float](repeating: 0, count: count)
            for i in 0..<count {
                let at = i * step + offset
                samples[i] = switch format {
                case AV_SAMPLE_FMT_U8, AV_SAMPLE_FMT_U8P: (Float(base[at]) - 128) / 128
                case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P:
                    Float(UnsafeRawPointer(base).load(fromByteOffset: at * 2, as: Int16.self)) / 32_768
                case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P:
                    Float(UnsafeRawPointer(base).load(fromByteOffset: at * 4, as: Int32.self)) / 2_147_483_648
                case AV_SAMPLE_FMT_DBL, AV_SAMPLE_FMT_DBLP:
                    Float(UnsafeRawPointer(base).load(fromByteOffset: at * 8, as: Double.self))
                default: UnsafeRawPointer(base).load(fromByteOffset: at * 4, as: Float.self)
                }
            }
            queue[channel] += samples
        }
    }
}
