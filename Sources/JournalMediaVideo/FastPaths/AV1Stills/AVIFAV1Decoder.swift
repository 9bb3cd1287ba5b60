import CFFmpeg
import JournalMediaCore
import JournalMediaHEIF

/// Decodes an AVIF's primary image with libavcodec's `libdav1d` decoder and converts it to
/// 8-bit RGB at the target size in one pass, instead of libheif + dav1d + libvips' resize:
/// libheif keeps dav1d's frame plus a full-size 16-bit RGB copy and libvips a third
/// (about 30 bytes per pixel: 538 MB of libheif + dav1d for a 20.6 MP 10-bit AVIF); here
/// only dav1d's frame exists at full size (6 bytes per pixel at most, for 10/12-bit 4:4:4).
///
/// The `meta` box is read by `HEIFImageItems` (`av01` item, `av1C`, `clap`/`irot`/`imir`,
/// `colr`, `clli`), the item is decoded by `AV1ImageDecoder`, cropped by adjusting the
/// frame's plane pointers, then converted at the target size:
/// - SDR with BT.709/unspecified primaries (or an ICC profile), and Display P3 with the sRGB
///   transfer: one swscale pass (lanczos) to RGB24 with the signalled matrix, range and bit
///   depth; P3 and ICC pixels are converted to sRGB afterwards by the imaging layer.
/// - PQ or HLG (any of BT.709, BT.2020, Display P3 primaries), and BT.2020 SDR: the posters'
///   HDR → SDR tone-map (`HDRToneMapper`: Möbius roll-off, `clli` as the peak), at the
///   target size.
/// Colour signalling follows libheif: the `colr` nclx box, else the AV1 sequence header;
/// an unspecified matrix is BT.601.
///
/// Runs on the calling thread for the photo source on every AVIF. Returns nil for what it
/// does not handle, and the caller falls back to libvips' heifload: grids, alpha, unknown
/// essential properties (found in the `meta` walk); other primaries, identity/YCgCo
/// matrices, monochrome HDR, pixel formats other than 8/10/12-bit planar YUV or grey, decode
/// errors (found after the decode).
package enum AVIFAV1Decoder {
    /// Decodes `bytes` to fit inside `boxWidth`×`boxHeight` (display orientation, never
    /// enlarged). `expectedSize`, the display size libvips' header reported, must match the
    /// file's own, so the pixel limit checked on the header holds here too.
    package static func decode(_ bytes: UnsafeRawBufferPointer, boxWidth: Int, boxHeight: Int,
                               expectedSize: (width: Int, height: Int)? = nil,
                               maximumPixels: Int = Defaults.maxPixels) -> HEIFDecodedRGB? {
        guard boxWidth > 0, boxHeight > 0,
              let items = HEIFImageItems.primaryAndThumbnail(in: BorrowedBytes(bytes: bytes), codec: .av1) else { return nil }
        if let expectedSize, expectedSize != items.primary.displaySize { return nil }
        let coded = HEIFHEVCDecoder.chooseItem(items, boxWidth: boxWidth, boxHeight: boxHeight)
        guard coded.tiles.count == 1, coded.columns == 1, coded.rows == 1,
              coded.width.multipliedReportingOverflow(by: coded.height).partialValue <= maximumPixels else { return nil }
        do throws(LibavFailure) {
            let frame = try LibavFrame()
            try AV1ImageDecoder(configuration: coded.configuration, maximumPixels: maximumPixels)
                .decode(coded.tiles[0], into: frame)
            guard let route = signal(coded, in: frame), crop(frame, to: coded) else { return nil }
            let target = HEIFUpright.codedTarget(coded, boxWidth: boxWidth, boxHeight: boxHeight)
            let scaled: [UInt8]
            switch route {
            case .toneMap:
                scaled = try HDRToneMapper.toneMap(frame, width: target.width, height: target.height, encoding: .display)
            case .convert(let matrix, _):
                let fullRange = frame.pointer.pointee.color_range == AVCOL_RANGE_JPEG
                scaled = try SwscalePass.run(frame.planes, width: frame.width, height: frame.height,
                                             format: AVPixelFormat(rawValue: frame.pointer.pointee.format), to: AV_PIX_FMT_RGB24,
                                             outputWidth: target.width, outputHeight: target.height,
                                             flags: SWS_LANCZOS | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, matrix: matrix,
                                             fullRange: fullRange).packedRGB()
            }
            var builtIn: String?
            if case .convert(_, let profile) = route { builtIn = profile }
            return HEIFDecodedRGB(rgb: scaled, storedWidth: target.width, storedHeight: target.height,
                                  orientation: HEIFUpright.orientation(coded.transforms),
                                  iccProfile: coded.iccProfile, builtInProfile: builtIn)
        } catch {
            return nil
        }
    }

    /// How the decoded pixels become 8-bit RGB.
    enum Route: Equatable {
        /// swscale with this `SWS_CS_*` matrix; then from the libvips built-in profile named
        /// (`p3`) to sRGB, or none.
        case convert(matrix: Int32, builtInProfile: String?)
        /// `HDRToneMapper`, from the colour signalling written into the frame.
        case toneMap
    }

    /// 8, 10 and 12-bit planar YUV and grey, as libdav1d outputs them (its planar RGB, for
    /// the identity matrix, is left to libvips).
    static let supportedFormats: [AVPixelFormat] = [
        AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P, AV_PIX_FMT_GRAY8,
        AV_PIX_FMT_YUV420P10LE, AV_PIX_FMT_YUV422P10LE, AV_PIX_FMT_YUV444P10LE, AV_PIX_FMT_GRAY10LE,
        AV_PIX_FMT_YUV420P12LE, AV_PIX_FMT_YUV422P12LE, AV_PIX_FMT_YUV444P12LE, AV_PIX_FMT_GRAY12LE,
    ]

    /// The route for the effective colour signalling (the file's nclx, else the frame's from
    /// the sequence header), written into `frame` so the tone-mapper reads the same; nil
    /// when libvips should decode the file instead.
    static func signal(_ coded: HEIFCodedImage, in frame: LibavFrame) -> Route? {
        let format = AVPixelFormat(rawValue: frame.pointer.pointee.format)
        guard supportedFormats.contains(format) else { return nil }
        let f = frame.pointer.pointee
        let primaries = coded.nclx?.primaries ?? Int(f.color_primaries.rawValue)
        let transfer = coded.nclx?.transfer ?? Int(f.color_trc.rawValue)
        var matrix = coded.nclx?.matrix ?? Int(f.colorspace.rawValue)
        if matrix == 2 { matrix = 6 }   // unspecified: BT.601, as libheif takes it
        let fullRange = coded.nclx?.fullRange ?? (f.color_range == AVCOL_RANGE_JPEG)
        guard let swscaleMatrix = SwscalePass.swscaleMatrix(matrix), (0...255).contains(primaries),
              (0...255).contains(transfer) else { return nil }
        let route: Route
        if coded.iccProfile != nil {
            route = .convert(matrix: swscaleMatrix, builtInProfile: nil)
        } else {
            let hdr = transfer == 16 || transfer == 18
            let grey = format == AV_PIX_FMT_GRAY8 || format == AV_PIX_FMT_GRAY10LE || format == AV_PIX_FMT_GRAY12LE
            if !hdr, primaries == 1 || primaries == 2 {
                route = .convert(matrix: swscaleMatrix, builtInProfile: nil)
            } else if !hdr, primaries == 12, transfer == 13 || transfer == 2 {
                route = .convert(matrix: swscaleMatrix, builtInProfile: "p3")
            } else if hdr || primaries == 9, [1, 2, 9, 12].contains(primaries), !grey, [1, 5, 6, 9].contains(matrix) {
                route = .toneMap
            } else {
                return nil
            }
        }
        frame.pointer.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(primaries))
        frame.pointer.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(transfer))
        frame.pointer.pointee.colorspace = AVColorSpace(rawValue: UInt32(matrix))
        frame.pointer.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        if let level = coded.maximumContentLight, level <= Int(UInt32.max),
           let light = av_content_light_metadata_create_side_data(frame.pointer) {
            light.pointee.MaxCLL = UInt32(level)
        }
        return route
    }

    /// Crops `frame` to the item's size (`ispe`) and then to its clean aperture, by moving the
    /// plane pointers (no copy). False when the frame is smaller than the item says.
    static func crop(_ frame: LibavFrame, to coded: HEIFCodedImage) -> Bool {
        guard frame.width >= coded.width, frame.height >= coded.height else { return false }
        var region = (left: 0, top: 0, width: coded.width, height: coded.height)
        for case let .crop(left, top, width, height) in coded.transforms {
            region = (region.left + left, region.top + top, width, height)
        }
        let right = frame.width - region.left - region.width, bottom = frame.height - region.top - region.height
        guard right >= 0, bottom >= 0 else { return false }
        if (region.left, region.top, right, bottom) == (0, 0, 0, 0) { return true }
        frame.pointer.pointee.crop_left = region.left
        frame.pointer.pointee.crop_top = region.top
        frame.pointer.pointee.crop_right = right
        frame.pointer.pointee.crop_bottom = bottom
        return av_frame_apply_cropping(frame.pointer, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0
            && frame.width == region.width && frame.height == region.height
    }
}
