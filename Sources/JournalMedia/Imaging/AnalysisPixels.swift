import CVips

/// The decoded image shrunk to fit 100×100 and unpacked to RGBA bytes: the input of the
/// colour analysis and the ThumbHash placeholder, so neither needs a second decode.
///
/// Made once per asset from the in-memory decode; costs a box shrink of the decoded image
/// (at most rendition-sized) to 2–4× the analysis size, a small resize, and a copy of at most 40 kB.
struct AnalysisPixels {
    static let maxSide = 100

    let width: Int
    let height: Int
    /// Row-major RGBA, 8 bits per channel.
    let rgba: [UInt8]

    init(_ decoded: DecodedImage) throws(VipsError) {
        var image = decoded.image
        // A box shrink by the whole factor first, into memory, then lanczos3 for the rest:
        // asking libvips' resize for a 1/16 reduction of the in-memory decode in one go cost
        // ~30 ms per 1600 px image (its reduce re-read the shrunk lines tile by tile); this
        // costs ~6 ms.
        let factor = min(image.width, image.height) / (2 * Self.maxSide)
        if factor > 1 {
            let shrink = try VipsOperationCall("shrink")
            try shrink.set("in", .image(image))
            try shrink.set("hshrink", .double(Double(factor)))
            try shrink.set("vshrink", .double(Double(factor)))
            try shrink.build()
            image = try shrink.outputImage().materialised()
        }
        let scale = min(Double(Self.maxSide) / Double(image.width), Double(Self.maxSide) / Double(image.height), 1)
        if scale < 1 {
            let w = max(1, min(Self.maxSide, Int((Double(image.width) * scale).rounded())))
            let h = max(1, min(Self.maxSide, Int((Double(image.height) * scale).rounded())))
            let resize = try VipsOperationCall("resize")
            try resize.set("in", .image(image))
            try resize.set("scale", .double(Double(w) / Double(image.width)))
            try resize.set("vscale", .double(Double(h) / Double(image.height)))
            try resize.build()
            image = try resize.outputImage()
        }
        if image.bands < 3 {
            let colour = try VipsOperationCall("colourspace")
            try colour.set("in", .image(image))
            try colour.set("space", .nick("srgb"))
            try colour.build()
            image = try colour.outputImage()
        }
        if image.bands == 3 {
            let opaque = try VipsOperationCall("bandjoin_const")
            try opaque.set("in", .image(image))
            try opaque.set("c", .doubles([255]))
            try opaque.build()
            image = try opaque.outputImage()
        }
        guard image.bands == 4, image.format == VIPS_FORMAT_UCHAR else {
            throw VipsError(message: "analysis image is not 8-bit RGBA")
        }
        var size = 0
        guard let memory = vips_image_write_to_memory(image.pointer, &size) else {
            throw VipsError(message: VipsRuntime.takeErrorBuffer())
        }
        defer { g_free(memory) }
        width = image.width
        height = image.height
        rgba = Array(UnsafeRawBufferPointer(start: memory, count: size))
    }
}
