import JournalMediaCore
import JournalMediaResampling

/// Converts 8-bit planar YUV to packed RGB24 at the target size: each plane resampled with the
/// project's Lanczos-3 (`PlanarYCbCrToRGB`), chroma straight from its own size, then the
/// YUV matrix and range the HEIF file signals applied at the target size.
///
/// Runs once per HEIC on the fast path; costs one resample per plane (1.5 bytes per source
/// pixel for 4:2:0) and a conversion of the target's pixels, plus the output buffer.
enum YUVToRGBResampler {
    /// `planes` scaled to `width`×`height` as RGB24, chroma taken as centred (as libheif does).
    static func resample(_ planes: YUVPlanes, width: Int, height: Int, matrix: PlanarYCbCrToRGB.Matrix,
                         fullRange: Bool) throws(LibavFailure) -> [UInt8] {
        guard planes.width > 0, planes.height > 0, width > 0, height > 0 else { throw LibavFailure("empty image") }
        return try withExtendedLifetime(planes.owner) { () throws(LibavFailure) -> [UInt8] in
            let shift = YUVPlanes.chromaShift(planes.format)
            guard let luma = plane(planes, 0, width: planes.width, height: planes.height) else {
                throw LibavFailure("no luma plane")
            }
            var chroma: (cb: PlanarYCbCrToRGB.Plane, cr: PlanarYCbCrToRGB.Plane)?
            if YUVPlanes.planeCount(planes.format) == 3 {
                let w = (planes.width + (1 << shift.x) - 1) >> shift.x, h = (planes.height + (1 << shift.y) - 1) >> shift.y
                guard let cb = plane(planes, 1, width: w, height: h), let cr = plane(planes, 2, width: w, height: h) else {
                    throw LibavFailure("missing chroma plane")
                }
                chroma = (cb, cr)
            }
            return PlanarYCbCrToRGB.rgb(luma: luma, chroma: chroma, chromaShift: shift, outWidth: width,
                                        outHeight: height, matrix: matrix, fullRange: fullRange)
        }
    }

    private static func plane(_ planes: YUVPlanes, _ index: Int, width: Int, height: Int) -> PlanarYCbCrToRGB.Plane? {
        guard index < planes.data.count, let base = planes.data[index], planes.strides[index] >= width else { return nil }
        return PlanarYCbCrToRGB.Plane(base: base, width: width, height: height, stride: Int(planes.strides[index]))
    }
}
