import CVips
import JournalMediaCore

/// The decode of 8-bit PNGs of up to `maxPixels`: libvips' `pngload_buffer` into memory
/// whole, then the reduction to the target box by `InMemoryResize` (Lanczos-3, colour
/// premultiplied by alpha), the EXIF orientation by `PixelOrientation`, and an alpha channel
/// that is opaque everywhere dropped in one pass, all on this thread. libvips 8.14's
/// `thumbnail_buffer` (the path before) streams the same decode through its scalar `reduce`,
/// which cost more than the decode on photo-sized PNGs (Benchmarks/RESULTS.md).
///
/// Takes untagged PNGs and PNGs whose profile is sRGB in all but name, grey or RGB, with or
/// without alpha; declines (nil, before decoding any pixel) 16-bit PNGs, tagged ones that need
/// a colour conversion, larger ones (whose decode would be held whole), and an orientation
/// from outside the file; the caller then takes libvips' thumbnail as before.
///
/// Runs on the calling thread inside `ImageDecoder.decode`; costs the decode (held in memory:
/// width × height × bands bytes, at most 48 MB), one resample and, for a 1600 px target, a
/// few milliseconds of orientation and alpha passes.
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
        let load = try VipsOperationCall("pngload_buffer")
        try load.set("buffer", .borrowedBlob(bytes))
        try load.set("fail_on", .nick(failOn.rawValue))
        try load.build()
        let loaded = try load.outputImage()
        let interpretation = loaded.interpretation
        guard loaded.format == VIPS_FORMAT_UCHAR, (1...4).contains(loaded.bands),
              interpretation == VIPS_INTERPRETATION_sRGB || interpretation == VIPS_INTERPRETATION_B_W
        else { return nil }
        var image = try loaded.materialised(stop: stop)
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
        if image.pointer.pointee.dtype != VIPS_IMAGE_SETBUF { image = try image.materialised(stop: stop) }
        for field in image.fieldNames where !ImageDecoder.coreFields.contains(field) {
            image.removeField(field)
        }
        guard image.hasAlpha, let pixels = image.memoryPixels else {
            return DecodedImage(image: image, hasRealTransparency: false)
        }
        let bands = image.bands, count = image.width * image.height * bands
        var opaque = true
        for index in stride(from: bands - 1, to: count, by: bands) where pixels[index] != 255 {
            opaque = false
            break
        }
        guard opaque else { return DecodedImage(image: image, hasRealTransparency: true) }
        // An alpha channel that is opaque everywhere carries nothing: dropped here, into
        // memory, so the renditions resize it in memory too.
        let (colour, target) = try VipsImageHandle.memoryImage(
            width: image.width, height: image.height, bands: bands - 1, interpretation: image.interpretation,
            resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
        var out = 0
        for index in stride(from: 0, to: count, by: bands) {
            for band in 0..<(bands - 1) { target[out + band] = pixels[index + band] }
            out += bands - 1
        }
        return DecodedImage(image: colour, hasRealTransparency: false)
    }
}
