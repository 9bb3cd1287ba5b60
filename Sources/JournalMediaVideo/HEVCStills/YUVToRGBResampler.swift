import CFFmpeg
import JournalMediaCore

/// Converts 8-bit planar YUV to packed RGB24 and resamples it to the target size in one
/// swscale pass (lanczos, accurate rounding, full chroma interpolation), with the YUV matrix
/// and range the HEIF file signals.
///
/// Runs once per HEIC on the fast path; costs one lanczos pass proportional to the source
/// and target pixels, plus one output buffer.
enum YUVToRGBResampler {
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

    static func resample(_ planes: YUVPlanes, width: Int, height: Int, matrix: Int32, fullRange: Bool) throws(LibavFailure) -> [UInt8] {
        guard planes.width > 0, planes.height > 0, width > 0, height > 0 else { throw LibavFailure("empty image") }
        let output = try withExtendedLifetime(planes.owner) { () throws(LibavFailure) -> LibavFrame in
            try SwscalePass.run((planes.data, planes.strides), width: planes.width, height: planes.height,
                                format: planes.format, to: AV_PIX_FMT_RGB24, outputWidth: width, outputHeight: height,
                                flags: SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, matrix: matrix,
                                fullRange: fullRange)
        }
        return try output.packedRGB()
    }
}
