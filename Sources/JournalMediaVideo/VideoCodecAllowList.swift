import CFFmpeg

/// The video decoders a movie's frames may be decoded with, by codec: H.264, HEVC, MPEG-4
/// Part 2, MPEG-2, Motion-JPEG, VP8, VP9 and AV1 (through libdav1d; libavcodec's own `av1`
/// decoder needs a hardware device), plus ProRes (iPhone recordings) and H.263 (old phones'
/// 3GP), which the QuickTime demuxer already handed to libav before the list existed, and DV
/// (tape camcorders' `.dv` files and DV in AVI/MOV).
/// Every other codec an admitted container may carry (FFV1, Theora, VP6, WMV, …) is refused
/// before a decoder is opened, with reason `unsupportedCodec`.
///
/// Applied twice: to the poster and clip decoders (`VideoDecoder`) and, as libavcodec's
/// `codec_whitelist`, to the decoders `avformat_find_stream_info` opens for video streams
/// while probing. Costs a switch per stream.
package enum VideoCodecAllowList {
    /// The libavcodec decoder (by name) allowed for `codec`, nil when the codec is not allowed.
    package static func decoderName(for codec: AVCodecID) -> String? {
        switch codec {
        case AV_CODEC_ID_H264: "h264"
        case AV_CODEC_ID_HEVC: "hevc"
        case AV_CODEC_ID_MPEG4: "mpeg4"
        case AV_CODEC_ID_MPEG2VIDEO: "mpeg2video"
        case AV_CODEC_ID_MJPEG: "mjpeg"
        case AV_CODEC_ID_VP8: "vp8"
        case AV_CODEC_ID_VP9: "vp9"
        case AV_CODEC_ID_AV1: "libdav1d"
        case AV_CODEC_ID_PRORES: "prores"
        case AV_CODEC_ID_H263: "h263"
        case AV_CODEC_ID_DVVIDEO: "dvvideo"
        default: nil
        }
    }

    /// Every allowed decoder name, comma-separated (libavcodec's `codec_whitelist` syntax).
    static let decoderNames = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_MPEG4, AV_CODEC_ID_MPEG2VIDEO,
                               AV_CODEC_ID_MJPEG, AV_CODEC_ID_VP8, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1,
                               AV_CODEC_ID_PRORES, AV_CODEC_ID_H263, AV_CODEC_ID_DVVIDEO].compactMap(decoderName(for:)).joined(separator: ",")

    /// libavcodec's name of `codec` ("ffv1", "theora"), for messages.
    static func codecName(_ codec: AVCodecID) -> String {
        LibavRuntime.string(avcodec_get_name(codec)) ?? "codec \(codec.rawValue)"
    }
}
