import CFFmpeg
import JournalMediaCore

/// One swscale call: `width`×`height` planes in `format` resized and converted to `target`
/// at the output size, with the YUV `matrix` (an `SWS_CS_*` index) and range given, into a
/// new frame. Shared by the poster (`SDRFrameConverter`) and AVIF (`AVIFAV1Decoder`)
/// conversions, which differ only in their flags and where the planes come from. (HEIC
/// planes go through the project's own resampler instead: `YUVToRGBResampler`.)
///
/// Runs once per poster candidate or AVIF; costs a scaler set-up and one pass over the pixels.
enum SwscalePass {
    /// The swscale coefficient table for an H.273 matrix code, nil for matrices it cannot
    /// express (identity/GBR, YCgCo, chroma-derived, ICtCp).
    static func swscaleMatrix(_ code: Int) -> Int32? {
        switch code {
        case 1: SWS_CS_ITU709
        case 2, 5, 6: SWS_CS_ITU601   // 2 is "unspecified": libheif takes BT.601 then.
        case 4: SWS_CS_FCC
        case 7: SWS_CS_SMPTE240M
        case 9, 10: SWS_CS_BT2020
        default: nil
        }
    }

    static func run(_ planes: (data: [UnsafePointer<UInt8>?], strides: [Int32]), width: Int, height: Int,
                    format: AVPixelFormat, to target: AVPixelFormat, outputWidth: Int, outputHeight: Int,
                    flags: Int32, matrix: Int32, fullRange: Bool) throws(LibavFailure) -> LibavFrame {
        try LibavRuntime.configure(.swscale)
        guard let scaler = sws_getContext(Int32(width), Int32(height), format,
                                          Int32(outputWidth), Int32(outputHeight), target, flags, nil, nil, nil) else {
            throw LibavFailure("no swscale conversion from pixel format \(SDRFrameConverter.pixelFormatName(format))")
        }
        defer { sws_freeContext(scaler) }
        _ = sws_setColorspaceDetails(scaler, sws_getCoefficients(matrix), fullRange ? 1 : 0,
                                     sws_getCoefficients(SWS_CS_ITU709), 1, 0, 1 << 16, 1 << 16)
        let output = try LibavFrame.allocated(width: outputWidth, height: outputHeight, format: target)
        let written = output.planes
        let targetData = written.data.map { UnsafeMutablePointer(mutating: $0) }
        let rows = sws_scale(scaler, planes.data, planes.strides, 0, Int32(height), targetData, written.strides)
        guard rows == Int32(outputHeight) else { throw LibavFailure("swscale converted \(rows) of \(outputHeight) rows") }
        return output
    }
}
