import CFFmpeg
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaResampling

/// Decodes a HEIC's primary image with libavcodec's HEVC decoder and the project's resampler
/// instead of libheif + libde265 + libvips' resize: the `meta` box is read by `HEIFImageItems`,
/// the tiles decoded one by one by one `HEVCTileDecoder` and resampled to the target size a
/// grid row at a time (`HEIFPictureStream`: the picture is never held whole, so a 200 MP grid
/// costs a strip of tiles, not 300 MB); the turns and mirrors are left to the imaging
/// layer's colour pass as one EXIF orientation (`HEIFDecodedRGB.orientation`). 8 to 16 bits per sample (10- and 12-bit camera HEIFs are
/// narrowed to 8 bits as their tiles arrive), 4:2:0, 4:2:2, 4:4:4 and monochrome. Like
/// libvips' thumbnail, an embedded thumbnail item (`thmb`) is decoded instead of the primary
/// image when it is larger than the box; if it cannot be read, the primary image is. An
/// overlay (`iovl`) of HEVC images is composed as libheif does (`HEIFOverlayComposer`). While
/// the scheduler has a spare core (`SpareCores`: a lone asset), a grid's tile rows are
/// decoded on two threads (`TileRowHelper`) and a single picture with libavcodec's two slice
/// threads, with the same pixels.
///
/// Colour follows libheif (docs/library-versions.md), the reference: YUV matrix and range from the `colr` nclx box;
/// without one, from the HEVC stream's VUI as libavcodec reports it (matrix unspecified →
/// BT.601; no video signal type → limited range, the HEVC default, which libde265 also uses).
///
/// Runs on the calling thread (and a helper's, above) for the photo source on every HEIC; costs the HEVC decode plus
/// one lanczos pass per plane and a conversion at the target size, about half of libvips'
/// heifload + resize.
/// Declines (with the reason) what it does not handle, and the caller falls back to libvips:
/// what the `meta` box rules out (see `HEIFImageItems.primary`: alpha, PQ/HLG nclx, non-HEVC,
/// unknown essential properties) costs only the `meta` walk; what only the stream reveals (a
/// PQ/HLG VUI, a pixel format it does not convert) or a decode error is found after decoding
/// the first or failing tile.
package enum HEIFHEVCDecoder {
    /// Decodes `bytes` to fit inside `boxWidth`×`boxHeight` (display orientation, never
    /// enlarged); nil when declined (`attempt` says why).
    package static func decode(_ bytes: UnsafeRawBufferPointer, boxWidth: Int, boxHeight: Int,
                               expectedSize: (width: Int, height: Int)? = nil,
                               maximumPixels: Int = Defaults.maxPixels) -> HEIFDecodedRGB? {
        try? attempt(bytes, boxWidth: boxWidth, boxHeight: boxHeight, expectedSize: expectedSize,
                     maximumPixels: maximumPixels).get()
    }

    /// Decodes `bytes` to fit inside `boxWidth`×`boxHeight` (display orientation, never
    /// enlarged), or the reason this path declines the file (for the caller's error when the
    /// fallback fails too). `expectedSize`, the display size libvips' header reported, must
    /// match the file's own, so the pixel limit checked on the header holds here too.
    /// `maximumPixels` bounds the decoded image (the grid or item before transforms).
    /// `wholeImage`: resample only once every row is decoded (tests compare it with the
    /// tile-wise default). `loopFilter`: whether HEVC's in-loop filters run (`LoopFilter`).
    /// `spareCores`: while it has one, a grid's rows of tiles are decoded on two threads
    /// (`TileRowHelper`; the same pixels). `stop`: the decode's guard, asked between tiles.
    package static func attempt(_ bytes: UnsafeRawBufferPointer, boxWidth: Int, boxHeight: Int,
                                expectedSize: (width: Int, height: Int)? = nil, maximumPixels: Int = Defaults.maxPixels,
                                wholeImage: Bool = false, loopFilter: LoopFilter = .automatic,
                                spareCores: SpareCores = .none, stop: DecodeGuard? = nil)
        -> Result<HEIFDecodedRGB, LibavFailure> {
        guard boxWidth > 0, boxHeight > 0 else { return .failure(LibavFailure("an empty box")) }
        guard let items = HEIFImageItems.primaryAndThumbnail(in: BorrowedBytes(bytes: bytes)) else {
            // An overlay (`iovl`) of HEVC images: composed (HEIFOverlayComposer).
            if let overlay = HEIFImageItems.overlay(in: BorrowedBytes(bytes: bytes)) {
                if let expectedSize, expectedSize != overlay.displaySize {
                    return .failure(LibavFailure("libvips reports \(expectedSize.width)×\(expectedSize.height), its overlay "
                        + "\(overlay.displaySize.width)×\(overlay.displaySize.height)"))
                }
                return HEIFOverlayComposer.decode(overlay, boxWidth: boxWidth, boxHeight: boxHeight, maximumPixels: maximumPixels,
                                                  stop: stop)
            }
            return .failure(LibavFailure("its primary image is not one this path reads (not HEVC, an alpha or depth "
                + "auxiliary image, a PQ/HLG transfer, an unknown essential property, or inconsistent tiles)"))
        }
        if let expectedSize, expectedSize != items.primary.displaySize {
            return .failure(LibavFailure("libvips reports \(expectedSize.width)×\(expectedSize.height), its boxes "
                + "\(items.primary.displaySize.width)×\(items.primary.displaySize.height)"))
        }
        let coded = chooseItem(items, boxWidth: boxWidth, boxHeight: boxHeight)
        let result = decode(coded, boxWidth: boxWidth, boxHeight: boxHeight, maximumPixels: maximumPixels, wholeImage: wholeImage,
                            loopFilter: loopFilter, spareCores: spareCores, stop: stop)
        // A thumbnail that cannot be read (libvips 8.14 refuses some cameras' too): the primary.
        if case .failure = result, items.thumbnail != nil, coded.tiles == items.thumbnail?.tiles {
            return decode(items.primary, boxWidth: boxWidth, boxHeight: boxHeight, maximumPixels: maximumPixels,
                          wholeImage: wholeImage, loopFilter: loopFilter, spareCores: spareCores, stop: stop)
        }
        return result
    }

    /// Whether HEVC's in-loop filters (deblocking, SAO) run.
    package enum LoopFilter: Sendable {
        /// Skipped when the picture is shrunk at least 2× each way (the PSNR cost and the time
        /// saved are in the benchmark results' HEIC levers), run otherwise.
        case automatic
        case always
        case never
    }

    /// One coded image (the primary, its thumbnail, or an overlay's layer) into the box.
    static func decode(_ coded: HEIFCodedImage, boxWidth: Int, boxHeight: Int, maximumPixels: Int,
                       wholeImage: Bool, loopFilter: LoopFilter,
                       spareCores: SpareCores, stop: DecodeGuard?) -> Result<HEIFDecodedRGB, LibavFailure> {
        let pixels = coded.width.multipliedReportingOverflow(by: coded.height).partialValue
        guard pixels <= maximumPixels else {
            return .failure(LibavFailure("\(coded.width)×\(coded.height) is over the limit of \(maximumPixels) pixels"))
        }
        var colourSpace = builtInProfile(coded.nclx)
        if coded.iccProfile != nil { colourSpace = .some(nil) }
        let unconvertible = LibavFailure("its nclx colour (primaries \(coded.nclx?.primaries ?? 0), transfer "
            + "\(coded.nclx?.transfer ?? 0), matrix \(coded.nclx?.matrix ?? 0)) is not one this path converts")
        guard let builtIn = colourSpace else { return .failure(unconvertible) }
        if let nclx = coded.nclx, PlanarYCbCrToRGB.Matrix.h273(nclx.matrix) == nil { return .failure(unconvertible) }
        var crop = (left: 0, top: 0, width: coded.width, height: coded.height)
        for case let .crop(left, top, width, height) in coded.transforms {
            crop = (crop.left + left, crop.top + top, width, height)
        }
        let target = HEIFUpright.codedTarget(coded, boxWidth: boxWidth, boxHeight: boxHeight)
        do throws(LibavFailure) {
            let halved = 2 * target.width <= crop.width && 2 * target.height <= crop.height
            let skip = loopFilter == .never || (loopFilter == .automatic && halved && skipsLoopFilterWhenHalved)
            // One picture cannot be split by tiles: with a spare core, libavcodec's two slice
            // threads (wavefronts, which x265 codes by default; Apple's tiles have them too).
            let sliceThreads = coded.tiles.count == 1 && spareCores.now > 0 ? 2 : 1
            let decoder = try HEVCTileDecoder(configuration: coded.configuration, skipLoopFilter: skip,
                                              sliceThreads: sliceThreads)
            let stream = HEIFPictureStream(crop: crop, target: target, wholeImage: wholeImage, stop: stop, spareCores: spareCores)
            let scaled = try stream.decode(coded, decoder: decoder)
            return .success(HEIFDecodedRGB(rgb: scaled, storedWidth: target.width, storedHeight: target.height,
                                           orientation: HEIFUpright.orientation(coded.transforms),
                                           iccProfile: coded.iccProfile, builtInProfile: builtIn))
        } catch {
            return .failure(error)
        }
    }

    /// Whether `.automatic` skips the loop filters of pictures shrunk 2× or more.
    static let skipsLoopFilterWhenHalved = false

    /// The embedded thumbnail when it is still larger than the box (so it only shrinks), as
    /// libvips' thumbnail chooses it; otherwise the primary image.
    static func chooseItem(_ items: (primary: HEIFCodedImage, thumbnail: HEIFCodedImage?), boxWidth: Int,
                           boxHeight: Int) -> HEIFCodedImage {
        guard let thumbnail = items.thumbnail else { return items.primary }
        let size = thumbnail.displaySize
        let shrink = max(Double(size.width) / Double(boxWidth), Double(size.height) / Double(boxHeight))
        return shrink > 1 ? thumbnail : items.primary
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
