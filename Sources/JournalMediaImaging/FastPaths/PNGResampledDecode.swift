import CVips
import JournalMediaCore

/// The decode of 8-bit PNGs of up to `maxPixels`: decoded into memory whole by
/// `PNGDirectDecode` (libdeflate, no libpng; an opaque alpha channel dropped as the rows are
/// decoded), or by libvips' `pngload_buffer` for a file it declines, then the reduction to the
/// target box by `InMemoryResize` (Lanczos-3, colour premultiplied by alpha) and the EXIF
/// orientation by `PixelOrientation`, all on this thread, instead of libvips' `thumbnail_buffer`,
/// which streams the same decode through its scalar `reduce`.
///
/// Takes untagged PNGs and PNGs whose profile is sRGB in all but name, grey or RGB, with or
/// without alpha; declines (nil, before decoding any pixel) 16-bit PNGs, tagged ones that need
/// a colour conversion, larger ones (whose decode would be held whole), and an orientation
/// from outside the file; the caller then takes libvips' thumbnail as before. Whether the
/// source has real transparency is decided on the source's pixels, before the resize.
///
/// Runs on the calling thread inside `ImageDecoder.decode`; costs the decode (held in memory:
/// width × height × bands bytes, at most 48 MB), one resample and, for a 1600 px target, a
/// few milliseconds of orientation.
enum PNGResampledDecode {
    /// The largest source decoded whole: 12 MP, 48 MB of RGBA.
    static let maxPixels = 12_000_000

    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, colourManaged: Bool,
        failOn: ImageDecoder.DecodeFailure, stop: DecodeGuard? = nil
    ) throws(VipsError) -> DecodedImage? {
        guard header.format == .png, !header.highBitDepth, !header.orientationIsExternal,
              header.pixelCount <= maxPixels, (1...4).contains(header.bands),
              header.colourSpace == .rgb || header.colourSpace == .grey,
              !colourManaged || !header.hasProfile || (header.colourSpace == .rgb && header.profileIsSRGB)
        else { return nil }
        var image: VipsImageHandle
        // Known from the decode when `PNGDirectDecode` took the file (it drops an opaque alpha).
        var transparent: Bool?
        if FastPaths.allows(.pngDecode), let picture = try PNGDirectDecode.decode(bytes, maxPixels: maxPixels, stop: stop) {
            image = picture.image
            transparent = picture.hasRealTransparency
            // The resolution libvips gives the file, which lets an eXIf chunk's X/YResolution
            // override pHYs (the header was read by libvips).
            image.pointer.pointee.Xres = header.resolution.x
            image.pointer.pointee.Yres = header.resolution.y
        } else {
            let load = try VipsOperationCall("pngload_buffer")
            try load.set("buffer", .borrowedBlob(bytes))
            try load.set("fail_on", .nick(failOn.rawValue))
            try load.build()
            let loaded = try load.outputImage()
            let interpretation = loaded.interpretation
            guard loaded.format == VIPS_FORMAT_UCHAR, (1...4).contains(loaded.bands),
                  interpretation == VIPS_INTERPRETATION_sRGB || interpretation == VIPS_INTERPRETATION_B_W
            else { return nil }
            image = try loaded.materialised(stop: stop)
            // An alpha channel that is opaque everywhere carries nothing: dropped before the
            // resize, which then has one band fewer and nothing to premultiply.
            if let resolved = try OpaqueAlpha.resolved(image) {
                image = resolved.image
                transparent = resolved.transparent
            }
        }
        // The target in display orientation, as the renditions size it, then in the stored
        // orientation the pixels have.
        let swapped = header.orientation >= 5
        let fitted = header.fittedDisplaySize(width: width, height: height)
        let stored = swapped ? (fitted.height, fitted.width) : (fitted.width, fitted.height)
        if let resized = try InMemoryResize.resized(image, width: min(stored.0, image.width),
                                                    height: min(stored.1, image.height), stop: stop) {
            image = resized
        }
        if header.orientation != 1 { image = try ImageDecoder.oriented(image, header.orientation) }
        if !image.isInMemory { image = try image.materialised(stop: stop) }
        for field in image.fieldNames where !ImageDecoder.coreFields.contains(field) {
            image.removeField(field)
        }
        return DecodedImage(image: image, hasRealTransparency: transparent ?? image.hasAlpha)
    }
}
