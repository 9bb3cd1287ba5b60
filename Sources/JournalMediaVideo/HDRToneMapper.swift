import CFFmpeg
import JournalMediaCore

/// Tone-maps one HDR (HLG `arib-std-b67`, PQ `smpte2084`) or wide-gamut BT.2020 frame to SDR
/// BT.709, packed 8-bit RGB at a given size.
///
/// The usual path is two steps on one core: swscale resizes and converts the frame to planar
/// 16-bit non-linear RGB at poster size (the frame's own matrix and range, bicubic, full chroma), then
/// `HDRToneCurve` linearises, changes primaries, rolls off highlights (Möbius, like
/// `tonemap=mobius:desat=0`) and encodes BT.709 from tables. Frames with primaries other than
/// BT.2020, Display P3 or BT.709, or an unusual transfer, take libavfilter's zscale + tonemap graph instead
/// (`HDRFilterGraphToneMapper`), which the table path was checked against; so does every frame
/// on the library paths (`FastPaths`, `JOURNAL_MEDIA_LIBRARY_PATHS=1`).
///
/// Runs once per poster candidate of an HDR video. Costs one swscale pass and one table pass
/// at poster size, and one 16-bit buffer of the poster's size (far less time and memory than
/// the filter graph's float passes).
package enum HDRToneMapper {
    /// `encoding`: `.cameraOETF` for posters, `.display` for HDR stills (see `HDRToneCurve`).
    static func toneMap(_ frame: LibavFrame, width: Int, height: Int,
                        encoding: HDRToneCurve.Encoding = .cameraOETF) throws(LibavFailure) -> [UInt8] {
        guard FastPaths.allows(.hdrToneCurve), let curve = curve(for: frame, encoding: encoding),
              let matrix = matrix(for: frame) else {
            return try HDRFilterGraphToneMapper.toneMap(frame, width: width, height: height)
        }
        let wide = try SDRFrameConverter.convert16(frame, width: width, height: height, matrix: matrix)
        // gbrp16le: plane 0 is green, 1 blue, 2 red.
        let f = wide.pointer.pointee
        func plane(_ data: UnsafeMutablePointer<UInt8>?, _ linesize: Int32) throws(LibavFailure) -> HDRToneCurve.Plane {
            let stride = Int(linesize) / 2
            guard let data, stride >= width else { throw LibavFailure("16-bit conversion has no pixels") }
            return HDRToneCurve.Plane(samples: UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt16.self),
                                                                   count: stride * height),
                                      stride: stride)
        }
        let rgb = curve.map(red: try plane(f.data.2, f.linesize.2), green: try plane(f.data.0, f.linesize.0),
                            blue: try plane(f.data.1, f.linesize.1), width: width, height: height)
        guard rgb.count == width * height * 3 else { throw LibavFailure("tone-map produced no pixels") }
        return rgb
    }

    /// The table-driven curve for `frame`'s signalling (transfer and primaries already filled
    /// in from the stream by the caller), nil when only the filter graph handles it.
    static func curve(for frame: LibavFrame, encoding: HDRToneCurve.Encoding = .cameraOETF) -> HDRToneCurve? {
        let f = frame.pointer.pointee
        let transfer: HDRToneCurve.Transfer
        switch f.color_trc {
        case AVCOL_TRC_ARIB_STD_B67: transfer = .hlg
        case AVCOL_TRC_SMPTE2084: transfer = .pq
        case AVCOL_TRC_BT709, AVCOL_TRC_BT2020_10, AVCOL_TRC_BT2020_12, AVCOL_TRC_SMPTE170M,
             AVCOL_TRC_UNSPECIFIED: transfer = .gamma
        default: return nil
        }
        let gamut: HDRToneCurve.Gamut
        switch f.color_primaries {
        case AVCOL_PRI_BT2020, AVCOL_PRI_UNSPECIFIED: gamut = .bt2020
        case AVCOL_PRI_BT709: gamut = .bt709
        case AVCOL_PRI_SMPTE432: gamut = .displayP3
        default: return nil
        }
        // Only formats swscale reads as YUV or RGB with a known matrix take the table path.
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: f.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_HWACCEL) == 0 else { return nil }
        // A BT.709/BT.2020 camera-gamma source is linearised by the inverse OETF, so it is
        // encoded back by the OETF whatever was asked: the round trip keeps its tones.
        return HDRToneCurve(transfer: transfer, gamut: gamut, peak: Float(signalPeak(frame)),
                            encoding: transfer == .gamma ? .cameraOETF : encoding)
    }

    /// swscale's matrix for the frame, as the filter graph reads it (unsignalled: BT.709 for
    /// BT.709 primaries, else BT.2020 non-constant luminance); nil for matrices only zscale
    /// handles (BT.2020 constant luminance).
    package static func matrix(for frame: LibavFrame) -> Int32? {
        let f = frame.pointer.pointee
        switch f.colorspace {
        case AVCOL_SPC_BT2020_NCL: return SWS_CS_BT2020
        case AVCOL_SPC_BT709: return SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: return SWS_CS_ITU601
        case AVCOL_SPC_UNSPECIFIED: return f.color_primaries == AVCOL_PRI_BT709 ? SWS_CS_ITU709 : SWS_CS_BT2020
        default: return nil
        }
    }

    /// The highlight level that maps to SDR white, in units of 100 cd/m², as libavfilter's
    /// tonemap reads it: the content light level (MaxCLL), else the mastering display's peak,
    /// else 10 (a 1,000 cd/m² HLG reference display).
    static func signalPeak(_ frame: LibavFrame) -> Double {
        if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
           side.pointee.size >= MemoryLayout<AVContentLightMetadata>.size, let data = side.pointee.data {
            let level = UnsafeRawPointer(data).loadUnaligned(as: AVContentLightMetadata.self)
            if level.MaxCLL > 0 { return Double(level.MaxCLL) / 100 }
        }
        if let side = av_frame_get_side_data(frame.pointer, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
           side.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size, let data = side.pointee.data {
            let display = UnsafeRawPointer(data).loadUnaligned(as: AVMasteringDisplayMetadata.self)
            if display.has_luminance != 0, let peak = LibavRuntime.value(display.max_luminance), peak > 0 {
                return peak / 100
            }
        }
        return 10
    }
}
