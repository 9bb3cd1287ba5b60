import CResampleKernel

/// 8-bit planar Y'CbCr (4:2:0, 4:2:2, 4:4:4, or luma alone) resampled to a target size plane
/// by plane with `SeparableResampler` (Lanczos-3), each chroma plane straight from its own size
/// to the target (its samples centred on the luma they cover), then converted to packed RGB24 at the target size with the
/// matrix and range the file signals (`jm_ycbcr_to_rgb_row`, 16-bit fixed-point coefficients;
/// the resampled planes keep 4 fractional bits between the two).
/// The matrix is linear, so resampling Y'CbCr then converting equals converting then
/// resampling up to rounding and clipping; done this way round, the resampler reads 1.5 bytes
/// per source pixel (4:2:0) instead of 3, and the conversion runs on the target's pixels only.
///
/// Runs once per HEIC on the fast path (`HEIFHEVCDecoder`), on the calling thread; costs one
/// resample per plane (`PlaneRowResampler`: about 6 / scale multiply-adds per source sample
/// per pass), four rows of work per plane and the RGB output (`outWidth × outHeight × 3` bytes).
package enum PlanarYCbCrToRGB {
    /// One plane of 8-bit samples: `width`×`height`, rows `stride` bytes apart from `base`.
    package struct Plane {
        package var base: UnsafePointer<UInt8>
        package var width: Int
        package var height: Int
        package var stride: Int

        package init(base: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) {
            self.base = base
            self.width = width
            self.height = height
            self.stride = stride
        }
    }

    /// The luma weights of an ITU-T H.273 matrix (Kr, Kb; Kg = 1 − Kr − Kb).
    package struct Matrix: Equatable, Sendable {
        package var kr: Double
        package var kb: Double

        /// The matrix for an H.273 `matrix_coefficients` code; nil for the ones that are not a
        /// Kr/Kb luma-chroma matrix (identity/GBR, YCgCo, chroma-derived, ICtCp). 2
        /// ("unspecified") is BT.601, as libheif takes it; 10 (BT.2020 constant luminance) is
        /// converted as its non-constant form, as swscale does.
        package static func h273(_ code: Int) -> Matrix? {
            switch code {
            case 1: Matrix(kr: 0.2126, kb: 0.0722)
            case 2, 5, 6: Matrix(kr: 0.299, kb: 0.114)
            case 4: Matrix(kr: 0.30, kb: 0.11)
            case 7: Matrix(kr: 0.212, kb: 0.087)
            case 9, 10: Matrix(kr: 0.2627, kb: 0.0593)
            default: nil
            }
        }

        /// The fixed-point coefficients (× 2^16) for limited (16–235, chroma 16–240) or full range.
        func coefficients(fullRange: Bool) -> jm_ycbcr_coefficients {
            let kg = 1 - kr - kb
            let chroma = fullRange ? 1 : 255.0 / 224
            func fixed(_ value: Double) -> Int32 { Int32((value * 65536).rounded()) }
            return jm_ycbcr_coefficients(
                yOffset: fullRange ? 0 : 16, yGain: fixed(fullRange ? 1 : 255.0 / 219),
                crToR: fixed(2 * (1 - kr) * chroma), cbToG: fixed(2 * (1 - kb) * kb / kg * chroma),
                crToG: fixed(2 * (1 - kr) * kr / kg * chroma), cbToB: fixed(2 * (1 - kb) * chroma))
        }
    }

    /// Packed RGB24, `outWidth`×`outHeight`, from `luma` and, unless nil, the two chroma planes,
    /// subsampled by 2^`chromaShift` (each chroma plane `luma` size divided by that, rounded up).
    /// Chroma samples are taken as centred on the luma samples they cover, horizontally too, as
    /// libheif's and swscale's conversions take them (HEVC's default would be co-sited on the
    /// even columns, but against pillow-heif's decode that costs PSNR).
    package static func rgb(luma: Plane, chroma: (cb: Plane, cr: Plane)?, chromaShift: (x: Int, y: Int),
                            outWidth: Int, outHeight: Int, matrix: Matrix, fullRange: Bool) -> [UInt8] {
        let stream = PlanarYCbCrStream(width: luma.width, height: luma.height, chromaShift: chromaShift,
                                       hasChroma: chroma != nil, outWidth: outWidth, outHeight: outHeight, matrix: matrix,
                                       fullRange: fullRange)
        func whole(_ plane: Plane) -> PlanarYCbCrStream.Window { .init(plane, top: 0) }
        stream.emit(luma: whole(luma), cb: chroma.map { whole($0.cb) }, cr: chroma.map { whole($0.cr) })
        return stream.takeOutput()
    }
}
