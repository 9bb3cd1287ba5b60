import CFFmpeg
import JournalMediaCore

/// Owns a libavcodec decoder (`AVCodecContext`, freed in `deinit`) for one video stream,
/// the one `VideoCodecAllowList` names for its codec (any other codec is refused),
/// single-threaded (a poster needs one frame, and the batch already runs one asset per core).
///
/// `keyframesOnly` sets `skip_frame = AVDISCARD_NONKEY`, as `ffmpeg -skip_frame nokey` does:
/// packets of non-key frames are dropped inside the decoder without being decoded.
package final class VideoDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>

    /// - Parameter maxPixels: libavcodec's `max_pixels`: frames larger than this (width ×
    ///   height, as the bitstream declares them) are refused before their buffers are allocated.
    package init(stream: UnsafeMutablePointer<AVStream>, maxPixels: Int = Defaults.maxPixels) throws(LibavFailure) {
        guard let parameters = stream.pointee.codecpar else { throw LibavFailure("stream without parameters") }
        let id = parameters.pointee.codec_id
        guard let name = VideoCodecAllowList.decoderName(for: id) else {
            throw LibavFailure("\(VideoCodecAllowList.codecName(id)) video is not on the decoder allow-list")
        }
        guard let codec = avcodec_find_decoder_by_name(name) else {
            throw LibavFailure("libavcodec has no \(name) decoder for \(VideoCodecAllowList.codecName(id)) video")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw LibavFailure("out of memory") }
        func release(_ failure: LibavFailure) -> LibavFailure {
            var freeing: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&freeing)
            return failure
        }
        let copied = avcodec_parameters_to_context(context, parameters)
        guard copied >= 0 else { throw release(LibavFailure("decoder parameters", code: copied)) }
        context.pointee.thread_count = 1
        context.pointee.max_pixels = Int64(maxPixels)
        context.pointee.pkt_timebase = stream.pointee.time_base
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw release(LibavFailure("cannot open the decoder", code: opened)) }
        self.context = context
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&freeing)
    }

    var keyframesOnly: Bool {
        get { context.pointee.skip_frame == AVDISCARD_NONKEY }
        set { context.pointee.skip_frame = newValue ? AVDISCARD_NONKEY : AVDISCARD_DEFAULT }
    }

    /// Forgets buffered frames (after a seek).
    func flush() { avcodec_flush_buffers(context) }
}
