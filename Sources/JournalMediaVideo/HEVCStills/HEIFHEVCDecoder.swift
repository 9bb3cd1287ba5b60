import CFFmpeg
import JournalMediaCore
import JournalMediaResampling

/// Decodes a HEIC's primary image with libavcodec's HEVC decoder and the project's resampler
/// instead of libheif + libde265 + libvips' resize: the `meta` box is read by `HEIFImageItems`,
/// each tile decoded by one `HEVCTileDecoder`, grid tiles assembled by `YUVMosaic`, then each
/// plane is resampled to the target size and converted to RGB there (`YUVToRGBResampler`), and the
/// transforms are applied to the small result (`RGBRotation`, `RGBMirror`). Like libvips'
/// thumbnail, an embedded thumbnail item (`thmb`) is decoded instead of the primary image
/// when it is larger than the box.
///
/// Colour follows libheif 1.15, the reference: YUV matrix and range from the `colr` nclx box;
/// without one, from the HEVC stream's VUI as libavcodec reports it (matrix unspecified →
/// BT.601; no video signal type → limited range, the HEVC default, which libde265 also uses).
///
/// Runs on the calling thread for the photo source on every HEIC; costs the HEVC decode plus
/// one lanczos pass per plane and a conversion at the target size, about half of libvips'
/// heifload + resize (Benchmarks/RESULTS.md).
/// Returns nil for anything it does not handle, and the caller
/// falls back to libvips: what the `meta` box rules out (see `HEIFImageItems.primary`:
/// alpha, > 8 bits, PQ/HLG nclx, non-HEVC, unknown essential properties) costs only the
/// `meta` walk; what only the stream reveals (a PQ/HLG VUI, a pixel format other than 8-bit
/// planar) or a decode error is found after decoding the first or failing tile.
package enum HEIFHEVCDecoder {
    /// Decodes `bytes` to fit inside `boxWidth`×`boxHeight` (display orientation, never
    /// enlarged). `expectedSize`, the display size libvips' header reported, must match the
    /// file's own, so the pixel limit checked on the header holds here too.
    /// `maximumPixels` bounds the decoded image (the grid or item before transforms).
    package static func decode(_ bytes: UnsafeRawBufferPointer, boxWidth: Int, boxHeight: Int,
                       expectedSize: (width: Int, height: Int)? = nil,
                       maximumPixels: Int = Defaults.maxPixels) -> HEIFDecodedRGB? {
        guard boxWidth > 0, boxHeight > 0, let items = HEIFImageItems.primaryAndThumbnail(in: BorrowedBytes(bytes: bytes))
        else { return nil }
        if let expectedSize, expectedSize != items.primary.displaySize { return nil }
        let coded = chooseItem(items, boxWidth: boxWidth, boxHeight: boxHeight)
        guard coded.width.multipliedReportingOverflow(by: coded.height).partialValue <= maximumPixels else { return nil }

        var colourSpace = builtInProfile(coded.nclx)
        if coded.iccProfile != nil { colourSpace = .some(nil) }
        guard let builtIn = colourSpace else { return nil }
        if let nclx = coded.nclx, PlanarYCbCrToRGB.Matrix.h273(nclx.matrix) == nil { return nil }

        do throws(LibavFailure) {
            let decoder = try HEVCTileDecoder(configuration: coded.configuration)
            guard let (assembled, signal) = try assemble(coded, decoder: decoder),
                  let matrix = PlanarYCbCrToRGB.Matrix.h273(coded.nclx?.matrix ?? signal.matrix) else { return nil }
            let fullRange = coded.nclx?.fullRange ?? signal.fullRange
            var planes = assembled
            for case let .crop(left, top, width, height) in coded.transforms {
                guard let region = planes.cropped(left: left, top: top, width: width, height: height) else { return nil }
                planes = region
            }
            let target = HEIFUpright.codedTarget(coded, boxWidth: boxWidth, boxHeight: boxHeight)
            let scaled = try YUVToRGBResampler.resample(planes, width: target.width, height: target.height, matrix: matrix,
                                                        fullRange: fullRange)
            let upright = HEIFUpright.apply(coded.transforms, to: scaled, width: target.width, height: target.height)
            return HEIFDecodedRGB(rgb: upright.rgb, width: upright.width, height: upright.height, iccProfile: coded.iccProfile,
                                  builtInProfile: builtIn)
        } catch {
            return nil
        }
    }

    /// The embedded thumbnail when it is still larger than the box (so it only shrinks), as
    /// libvips' thumbnail chooses it; otherwise the primary image.
    static func chooseItem(_ items: (primary: HEIFCodedImage, thumbnail: HEIFCodedImage?), boxWidth: Int,
                           boxHeight: Int) -> HEIFCodedImage {
        guard let thumbnail = items.thumbnail else { return items.primary }
        let size = thumbnail.displaySize
        let shrink = max(Double(size.width) / Double(boxWidth), Double(size.height) / Double(boxHeight))
        return shrink > 1 ? thumbnail : items.primary
    }

    /// The decoded primary image as planes of the image's size (before transforms): the one
    /// picture of an `hvc1` item, or the grid's tiles in a `YUVMosaic`, with the YUV matrix
    /// (H.273 code) and range the (first) picture's VUI signals. Nil when a picture is not
    /// 8-bit planar, has an HDR transfer, or tiles disagree.
    private static func assemble(_ coded: HEIFCodedImage, decoder: HEVCTileDecoder)
        throws(LibavFailure) -> (YUVPlanes, signal: (matrix: Int, fullRange: Bool))? {
        let frame = try LibavFrame()
        if coded.tiles.count == 1, coded.columns == 1, coded.rows == 1 {
            try decoder.decode(coded.tiles[0], into: frame)
            guard acceptable(frame, nclx: coded.nclx),
                  let planes = YUVPlanes(frame: frame, width: coded.width, height: coded.height) else { return nil }
            return (planes, signal(frame))
        }
        var signalled = (matrix: 2, fullRange: false)
        var mosaic: YUVMosaic?
        var tileSize = (width: 0, height: 0)
        for (index, tile) in coded.tiles.enumerated() {
            // A stop between tiles: give up here; the caller's next check reports it.
            if DecodeGuard.current?.shouldStop == true { return nil }
            try decoder.decode(tile, into: frame)
            guard acceptable(frame, nclx: coded.nclx) else { return nil }
            if mosaic == nil {
                signalled = signal(frame)
                mosaic = YUVMosaic(format: AVPixelFormat(rawValue: frame.pointer.pointee.format), width: coded.width, height: coded.height)
                tileSize = (frame.width, frame.height)
                guard tileSize.width * coded.columns >= coded.width, tileSize.height * coded.rows >= coded.height else { return nil }
            }
            guard let mosaic, (frame.width, frame.height) == tileSize,
                  mosaic.place(frame, left: index % coded.columns * tileSize.width, top: index / coded.columns * tileSize.height)
            else { return nil }
        }
        guard let view = mosaic?.view else { return nil }
        return (view, signalled)
    }

    /// The matrix coefficients and range in a decoded picture's VUI (`AVColorSpace` values are
    /// the H.273 codes; libavcodec reports limited range when the VUI does not say).
    private static func signal(_ frame: LibavFrame) -> (matrix: Int, fullRange: Bool) {
        let picture = frame.pointer.pointee
        let format = AVPixelFormat(rawValue: picture.format)
        let full = picture.color_range == AVCOL_RANGE_JPEG || SDRFrameConverter.isJPEGRange(format)
        return (Int(picture.colorspace.rawValue), full)
    }

    /// 8-bit planar, and no PQ/HLG transfer in the stream when the file has no nclx box.
    private static func acceptable(_ frame: LibavFrame, nclx: HEIFCodedImage.NCLX?) -> Bool {
        let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard YUVPlanes.supportedFormats.contains(format) else { return false }
        if nclx == nil, [AVCOL_TRC_SMPTE2084, AVCOL_TRC_ARIB_STD_B67].contains(frame.pointer.pointee.color_trc) { return false }
        return true
    }

    /// The libvips built-in profile the pixels are in: `.some(nil)` for sRGB/BT.709 (or
    /// unsigned) primaries, `.some("p3")` for Display P3, nil (fall back) for anything else.
    private static func builtInProfile(_ nclx: HEIFCodedImage.NCLX?) -> String?? {
        guard let nclx else { return .some(nil) }
        switch (nclx.primaries, nclx.transfer) {
        case (1, _), (2, _): return .some(nil)
        case (12, 13), (12, 2): return .some("p3")
        default: return nil
        }
    }

    /// The size libvips' thumbnail gives `width`×`height` fitted inside the box, never enlarged:
    /// the binding side equals the box, the other is rounded.
    static func fitted(width: Int, height: Int, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        let horizontal = Double(width) / Double(boxWidth), vertical = Double(height) / Double(boxHeight)
        let shrink = max(horizontal, vertical)
        guard shrink > 1 else { return (width, height) }
        if horizontal >= vertical {
            return (boxWidth, max(1, Int((Double(height) / shrink).rounded())))
        }
        return (max(1, Int((Double(width) / shrink).rounded())), boxHeight)
    }
}
