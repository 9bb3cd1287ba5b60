import CFFmpeg
import JournalMediaCore

/// Owns one opened libavcodec encoder (`AVCodecContext`, freed in `deinit`) and the muxer
/// stream it feeds; `send(_:)` hands it a frame (nil to flush) and writes every packet that
/// comes out to the muxer, timestamps rescaled to the stream's time base.
///
/// Made by `MovieClipEncoder` for the H.264 and AAC tracks of a notification movie. Costs
/// what the codec costs per frame (libx264 `veryfast`: a few milliseconds per 720p frame).
final class LibavEncoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let stream: UnsafeMutablePointer<AVStream>
    private let muxer: MP4Muxer
    private let packet: LibavPacket

    /// Opens `codec` with the settings `configure` puts on the context and the private
    /// `options` (e.g. libx264's `preset`), and adds a stream for it to `muxer`.
    init(codec: UnsafePointer<AVCodec>, muxer: MP4Muxer, options: [String: String],
         configure: (UnsafeMutablePointer<AVCodecContext>) -> Void) throws(LibavFailure) {
        guard let context = avcodec_alloc_context3(codec) else { throw LibavFailure("out of memory") }
        func release(_ failure: LibavFailure) -> LibavFailure {
            var freeing: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freeing)
            return failure
        }
        configure(context)
        if muxer.needsGlobalHeader { context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        let opened = avcodec_open2(context, codec, &dictionary)
        av_dict_free(&dictionary)
        guard opened >= 0 else {
            throw release(LibavFailure("cannot open the \(LibavRuntime.string(codec.pointee.name) ?? "") encoder", code: opened))
        }
        guard let stream = avformat_new_stream(muxer.context, nil) else { throw release(LibavFailure("out of memory")) }
        let copied = avcodec_parameters_from_context(stream.pointee.codecpar, context)
        guard copied >= 0 else { throw release(LibavFailure("encoder parameters", code: copied)) }
        stream.pointee.time_base = context.pointee.time_base
        do { packet = try LibavPacket() } catch { throw release(error) }
        self.context = context
        self.stream = stream
        self.muxer = muxer
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&freeing)
    }

    /// Encodes `frame` (nil: end of stream, drains the encoder) and muxes what comes out.
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(LibavFailure) {
        let sent = avcodec_send_frame(context, frame)
        guard sent >= 0 || sent == jm_averror_eof() else { throw LibavFailure("encode", code: sent) }
        while true {
            let received = avcodec_receive_packet(context, packet.pointer)
            if received == LibavRuntime.tryAgain || received == jm_averror_eof() { return }
            guard received >= 0 else { throw LibavFailure("encode", code: received) }
            av_packet_rescale_ts(packet.pointer, context.pointee.time_base, stream.pointee.time_base)
            packet.pointer.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(muxer.context, packet.pointer)
            guard written >= 0 else { throw LibavFailure("mux", code: written) }
        }
    }
}

/// Owns an MP4 muxer (`AVFormatContext` for libavformat's `mp4` format, or `ipod` for an
/// M4A, freed in `deinit`) writing into a `MemoryOutput`. The moov box is written at the end (libavformat's
/// `faststart` would reopen the output by name, which a memory output has not got).
final class MP4Muxer {
    let context: UnsafeMutablePointer<AVFormatContext>
    private let output: MemoryOutput

    init(format: String = "mp4") throws(LibavFailure) {
        try LibavRuntime.configure(.format)
        guard let output = MemoryOutput() else { throw LibavFailure("out of memory") }
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_alloc_output_context2(&allocated, nil, format, nil)
        guard status >= 0, let allocated else { throw LibavFailure("no \(format) muxer", code: status) }
        allocated.pointee.pb = output.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        self.context = allocated
        self.output = output
    }

    deinit {
        // The I/O context is the MemoryOutput's; avformat_free_context leaves `pb` alone.
        avformat_free_context(context)
    }

    var needsGlobalHeader: Bool { (context.pointee.oformat?.pointee.flags ?? 0) & AVFMT_GLOBALHEADER != 0 }

    func writeHeader() throws(LibavFailure) {
        let status = avformat_write_header(context, nil)
        guard status >= 0 else { throw LibavFailure("mp4 header", code: status) }
    }

    /// Writes the trailer (the moov box) and returns the file's bytes.
    func finish() throws(LibavFailure) -> [UInt8] {
        let status = av_write_trailer(context)
        guard status >= 0 else { throw LibavFailure("mp4 trailer", code: status) }
        if let pb = context.pointee.pb { avio_flush(pb) }
        return output.state.bytes
    }
}
