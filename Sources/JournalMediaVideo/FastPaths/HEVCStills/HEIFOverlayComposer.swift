import CFFmpeg
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaResampling

/// Composes an overlay HEIC (`HEIFOverlay`, an `iovl` primary item) as libheif does: an 8-bit
/// RGB canvas filled with the fill colour's top 8 bits (its alpha unused: the result is
/// opaque), each layer decoded whole by the HEVC path at its own size, turned upright, and
/// drawn at its offset in reference order, clipped to the canvas; a layer with an alpha image
/// is blended as (layer × alpha + canvas × (255 − alpha)) / 255, rounded down. Then the
/// overlay's crop, and one Lanczos-3 resize of the canvas into the box (`SeparableResampler`);
/// its turns and mirrors are left to the imaging layer as one EXIF orientation, as for every
/// HEIC on this path.
///
/// Runs inside `HEIFHEVCDecoder.attempt` for a HEIC whose primary item is an overlay; costs
/// the HEVC decode of every layer (and alpha image) at full size, one pass per layer, and the
/// resize; holds the canvas and one layer in RGB. Declines (with the reason) layers whose
/// colour descriptions differ, an alpha image that is not a single item of the layer's size,
/// a cropped layer with alpha, and a canvas or layer over `maximumPixels`.
enum HEIFOverlayComposer {
    /// `stop`: the decode's guard, asked between layers and between a layer's tiles.
    static func decode(_ overlay: HEIFOverlay, boxWidth: Int, boxHeight: Int,
                       maximumPixels: Int, stop: DecodeGuard? = nil) -> Result<HEIFDecodedRGB, LibavFailure> {
        do throws(LibavFailure) {
            return .success(try compose(overlay, boxWidth: boxWidth, boxHeight: boxHeight, maximumPixels: maximumPixels,
                                        stop: stop))
        } catch {
            return .failure(error)
        }
    }

    private static func compose(_ overlay: HEIFOverlay, boxWidth: Int, boxHeight: Int,
                                maximumPixels: Int, stop: DecodeGuard?) throws(LibavFailure) -> HEIFDecodedRGB {
        let (width, height) = (overlay.width, overlay.height)
        guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixels, width <= 1 << 16,
              height <= 1 << 16 else {
            throw LibavFailure("its \(width)×\(height) overlay canvas is over the limit of \(maximumPixels) pixels")
        }
        guard let first = overlay.layers.first,
              overlay.layers.allSatisfy({ $0.image.nclx == first.image.nclx && $0.image.iccProfile == first.image.iccProfile })
        else { throw LibavFailure("its overlay's layers differ in colour") }
        var canvas = [UInt8](repeating: 0, count: width * height * 3)
        let fill = overlay.fill.prefix(3).map { UInt8(truncatingIfNeeded: $0 >> 8) }
        for index in stride(from: 0, to: canvas.count, by: 3) {
            canvas[index] = fill[0]
            canvas[index + 1] = fill[1]
            canvas[index + 2] = fill[2]
        }
        var builtIn: String?
        for layer in overlay.layers {
            if stop?.shouldStop == true { throw LibavFailure("stopped") }
            let (pixels, size, profile) = try uprightLayer(layer, maximumPixels: maximumPixels, stop: stop)
            builtIn = profile
            let alpha = try layer.alpha.map { coded throws(LibavFailure) in try alphaPlane(coded, of: layer) }
            draw(pixels, size: size, alpha: alpha, at: (layer.left, layer.top), on: &canvas, width: width, height: height)
        }
        // The overlay's own crop, then the box.
        var crop = (left: 0, top: 0, width: width, height: height)
        for case let .crop(left, top, cropWidth, cropHeight) in overlay.transforms {
            crop = (crop.left + left, crop.top + top, cropWidth, cropHeight)
        }
        let target = HEIFUpright.codedTarget(overlay.shape, boxWidth: boxWidth, boxHeight: boxHeight)
        let cropped = crop == (0, 0, width, height) ? canvas : rows(of: canvas, width: width, crop)
        let rgb = target == (crop.width, crop.height) ? cropped : cropped.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return [UInt8]() }
            return SeparableResampler.resize(base, width: crop.width, height: crop.height, bands: 3,
                                             outWidth: target.width, outHeight: target.height)
        }
        let icc = overlay.iccProfile ?? (overlay.nclx == nil ? first.image.iccProfile : nil)
        return HEIFDecodedRGB(rgb: rgb, storedWidth: target.width, storedHeight: target.height,
                              orientation: HEIFUpright.orientation(overlay.transforms), iccProfile: icc,
                              builtInProfile: icc != nil ? nil : builtIn)
    }

    /// A layer decoded at its full size (its own crop applied) and turned upright, with the
    /// libvips built-in profile its pixels are in.
    private static func uprightLayer(_ layer: HEIFOverlay.Layer, maximumPixels: Int, stop: DecodeGuard?) throws(LibavFailure)
        -> (pixels: [UInt8], size: (width: Int, height: Int), builtInProfile: String?) {
        let display = layer.image.displaySize
        let decoded = try HEIFHEVCDecoder.decode(layer.image, boxWidth: display.width, boxHeight: display.height,
                                                 maximumPixels: maximumPixels, wholeImage: false, loopFilter: .always,
                                                 spareCores: .none, stop: stop).get()
        let stored = decoded.storedSize
        let upright = PixelOrientation.upright(decoded.rgb, width: stored.width, height: stored.height, bands: 3,
                                               orientation: decoded.orientation)
        return (upright.pixels, (upright.width, upright.height), decoded.builtInProfile)
    }

    /// The layer's alpha: the luma of its alpha image (a single item, the size of the layer's
    /// coded picture), narrowed to 8 bits and turned as the layer is.
    private static func alphaPlane(_ coded: HEIFCodedImage, of layer: HEIFOverlay.Layer) throws(LibavFailure) -> [UInt8] {
        guard coded.tiles.count == 1, coded.transforms.isEmpty, coded.width == layer.image.width,
              coded.height == layer.image.height,
              !layer.image.transforms.contains(where: { if case .crop = $0 { true } else { false } }) else {
            throw LibavFailure("its overlay has an alpha image this path does not read (a grid, another size, or a cropped layer)")
        }
        let decoder = try HEVCTileDecoder(configuration: coded.configuration)
        let frame = try LibavFrame()
        try decoder.decode(coded.tiles[0], into: frame)
        guard let layout = YUVPixelLayout(AVPixelFormat(rawValue: frame.pointer.pointee.format)),
              frame.width >= coded.width, frame.height >= coded.height, let base = frame.planes.data[0] else {
            throw LibavFailure("its overlay's alpha image is not a picture this path reads")
        }
        let stride = Int(frame.planes.strides[0])
        var plane = [UInt8](repeating: 0, count: coded.width * coded.height)
        plane.withUnsafeMutableBufferPointer { out in
            guard let target = out.baseAddress else { return }
            for row in 0..<coded.height {
                let from = base + row * stride, to = target + row * coded.width
                if layout.bitDepth > 8 {
                    PlaneNarrowing.narrow(from, count: coded.width, bitDepth: layout.bitDepth, into: to)
                } else {
                    to.update(from: from, count: coded.width)
                }
            }
        }
        withExtendedLifetime(frame) {}
        let orientation = HEIFUpright.orientation(layer.image.transforms)
        return PixelOrientation.upright(plane, width: coded.width, height: coded.height, bands: 1, orientation: orientation).pixels
    }

    /// Draws `pixels` (RGB24, `size`) with its top-left corner at `origin` on the canvas,
    /// clipped; blended by `alpha` (one byte per pixel) when given.
    private static func draw(_ pixels: [UInt8], size: (width: Int, height: Int), alpha: [UInt8]?,
                             at origin: (x: Int, y: Int), on canvas: inout [UInt8], width: Int, height: Int) {
        let left = max(0, origin.x), right = min(width, origin.x + size.width)
        let top = max(0, origin.y), bottom = min(height, origin.y + size.height)
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            let sourceRow = y - origin.y
            for x in left..<right {
                let source = sourceRow * size.width + (x - origin.x), target = (y * width + x) * 3
                guard let alpha else {
                    canvas[target] = pixels[source * 3]
                    canvas[target + 1] = pixels[source * 3 + 1]
                    canvas[target + 2] = pixels[source * 3 + 2]
                    continue
                }
                let a = Int(alpha[source])
                for channel in 0..<3 {
                    let blended = (Int(pixels[source * 3 + channel]) * a + Int(canvas[target + channel]) * (255 - a)) / 255
                    canvas[target + channel] = UInt8(blended)
                }
            }
        }
    }

    /// The rows and columns of `crop` out of packed RGB24 `width` pixels wide.
    private static func rows(of rgb: [UInt8], width: Int, _ crop: (left: Int, top: Int, width: Int, height: Int)) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(crop.width * crop.height * 3)
        for row in crop.top..<crop.top + crop.height {
            let start = (row * width + crop.left) * 3
            out += rgb[start..<start + crop.width * 3]
        }
        return out
    }
}
