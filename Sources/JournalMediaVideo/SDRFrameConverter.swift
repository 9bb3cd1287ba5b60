import CFFmpeg
import JournalMediaCore

/// Converts one decoded SDR frame to packed 8-bit RGB at a given size with swscale, using the
/// frame's own YUV matrix and range (`sws_setColorspaceDetails`): BT.709, BT.601/170M, BT.2020
/// or FCC/240M as signalled; unsignalled frames follow libav's convention (BT.709 from 720
/// lines up, BT.601 below); full range for `pc`/`yuvj*` frames. Primaries and transfer are
/// passed through (SDR video is shown as BT.709/sRGB anyway).
///
/// Runs once per poster candidate; costs one bicubic resample + matrix pass over the frame.
package enum SDRFrameConverter {
    static func convert(_ frame: LibavFrame, width: Int, height: Int) throws(LibavFailure) -> [UInt8] {
        let matrix = matrix(frame.pointer.pointee.colorspace, height: frame.height)
        return try scale(frame, width: width, height: height, to: AV_PIX_FMT_RGB24, matrix: matrix).packedRGB()
    }

    /// `frame` resized to `width` × `height` and converted to non-linear 16-bit RGB, planar
    /// (`gbrp16le`: planes G, B, R; full range), with matrix `matrix` (an `SWS_CS_*` index), for
    /// `HDRToneMapper`. Planar because swscale writes it much faster than packed `rgb48le`
    /// with bit-identical values (checked on
    /// 4:2:0, 4:2:2 and 4:4:4 HLG, 10- and 12-bit PQ, 8-bit BT.2020 and full-range samples).
    static func convert16(_ frame: LibavFrame, width: Int, height: Int, matrix: Int32) throws(LibavFailure) -> LibavFrame {
        try scale(frame, width: width, height: height, to: AV_PIX_FMT_GBRP16LE, matrix: matrix)
    }

    /// One swscale pass, bicubic, with the frame's range (limited unless signalled full).
    /// 8-bit output takes swscale's SIMD path: accurate rounding and full horizontal chroma
    /// interpolation made it slower per frame for differences the renditions
    /// (4:2:0 JPEG and WebP) throw away. 16-bit output, which feeds the HDR tone curve,
    /// keeps both.
    private static func scale(_ frame: LibavFrame, width: Int, height: Int, to target: AVPixelFormat,
                              matrix: Int32) throws(LibavFailure) -> LibavFrame {
        let source = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: source.format)
        guard frame.width > 0, frame.height > 0, source.format >= 0 else { throw LibavFailure("decoded frame has no pixels") }
        let flags = target == AV_PIX_FMT_RGB24 ? SWS_BICUBIC : SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT
        let fullRange = source.color_range == AVCOL_RANGE_JPEG || isJPEGRange(format)
        return try SwscalePass.run(frame.planes, width: frame.width, height: frame.height, format: format, to: target,
                                   outputWidth: width, outputHeight: height, flags: flags, matrix: matrix,
                                   fullRange: fullRange)
    }

    /// swscale's coefficient table index for an `AVColorSpace`.
    package static func matrix(_ space: AVColorSpace, height: Int) -> Int32 {
        switch space {
        case AVCOL_SPC_BT709: SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: SWS_CS_ITU601
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: SWS_CS_BT2020
        case AVCOL_SPC_FCC: SWS_CS_FCC
        case AVCOL_SPC_SMPTE240M: SWS_CS_SMPTE240M
        default: height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
    }

    /// The deprecated `yuvj*` formats mean full-range YUV.
    static func isJPEGRange(_ format: AVPixelFormat) -> Bool {
        [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P].contains(format)
    }

    static func pixelFormatName(_ format: AVPixelFormat) -> String {
        LibavRuntime.string(av_get_pix_fmt_name(format)) ?? "\(format.rawValue)"
    }
}
