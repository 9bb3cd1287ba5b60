import CVips
import Foundation

/// Makes the RGBA layers a card is composed of: text through libvips' `text` (Pango, colour
/// emoji included) and vector drawings through libvips' `svgload_buffer` (librsvg).
///
/// Both are computed into memory at once, so no layer keeps borrowed bytes alive. Cost:
/// one Pango layout and rasterisation per text, one SVG parse and rasterisation per drawing,
/// each proportional to the layer's area.
enum CardLayers {
    /// The fitted text as an RGBA image and where its top-left pixel sits relative to the
    /// layout's origin (libvips crops the drawing to the ink; Pango told us where that is).
    /// `dx` is relative to the wrap box; `lineDx` to the start of the text's own logical
    /// extent (for a text placed by its own width, such as a chip label).
    static func text(_ fitted: FittedText) throws(VipsError) -> (image: VipsImageHandle, dx: Int, dy: Int, lineDx: Int) {
        let width = fitted.width
        let text = try VipsOperationCall("text")
        try text.set("text", .string(fitted.markup))
        try text.set("font", .string(fitted.font))
        if width > 0 {
            try text.set("width", .int(width))
            try text.set("wrap", .nick("word-char"))
            if fitted.centred { try text.set("align", .nick("centre")) }
        }
        try text.set("rgba", .bool(true))
        try text.build()
        let image = try text.outputImage().materialised()
        let measured = fitted.measurement
        return (image, measured.ink.x, measured.ink.y, measured.ink.x - measured.logical.x)
    }

    /// Rasterises an SVG document (sized in pixels by its own width and height) to RGBA.
    static func svg(_ document: String) throws(VipsError) -> VipsImageHandle {
        let utf8 = Array(document.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, utf8.count), alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: utf8)
        let load = try VipsOperationCall("svgload_buffer")
        try load.set("buffer", .borrowedBlob(UnsafeRawBufferPointer(rebasing: buffer[0..<utf8.count])))
        try load.build()
        var image = try load.outputImage()
        if image.bands == 3 {
            let alpha = try VipsOperationCall("bandjoin_const")
            try alpha.set("in", .image(image))
            try alpha.set("c", .doubles([255]))
            try alpha.build()
            image = try alpha.outputImage()
        }
        // Computed while the bytes are still borrowed.
        return try image.materialised()
    }

    /// A number for SVG attributes: two decimals at most, no exponent, a dot as separator.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(format: "%.2f", rounded)
    }
}
