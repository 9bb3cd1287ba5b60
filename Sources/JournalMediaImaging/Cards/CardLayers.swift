import CVips
import JournalMediaCore
import Foundation

/// Makes the RGBA layers a card is composed of: text through libvips' `text` (Pango, colour
/// emoji included) and vector drawings through libvips' `svgload_buffer` (librsvg).
///
/// Both are computed into memory at once, so no layer keeps borrowed bytes alive. Cost:
/// one Pango layout and rasterisation per text, one SVG parse and rasterisation per drawing,
/// each proportional to the layer's area.
enum CardLayers {
    /// The fitted text as an image and where its top-left pixel sits relative to the
    /// layout's origin (libvips crops the drawing to the ink; Pango told us where that is).
    /// `dx` is relative to the wrap box; `lineDx` to the start of the text's own logical
    /// extent (for a text placed by its own width, such as a chip label).
    ///
    /// Text without colour glyphs is drawn as a one-band coverage mask (`ink` is its colour,
    /// blended by `CardCanvas.place`); masks are kept for a while by text, font, width and
    /// alignment (`CardTextMasks`), so the dark card reuses the light card's. Text with
    /// emoji is drawn in colour (RGBA, `ink` nil).
    static func text(_ fitted: FittedText, stop: DecodeGuard? = nil) throws(VipsError) -> (image: VipsImageHandle, dx: Int, dy: Int, lineDx: Int,
                                                                ink: [UInt8]?) {
        let measured = fitted.measurement
        let offsets = (measured.ink.x, measured.ink.y, measured.ink.x - measured.logical.x)
        if !hasColourGlyphs(fitted.shown), let ink = try? CardColor.rgb(fitted.color, field: "text").bytes {
            let key = "\(fitted.font)\u{1}\(fitted.width)\u{1}\(fitted.centred)\u{1}\(PangoTextMeasure.colourless(fitted.markup))"
            if let mask = CardTextMasks.shared.mask(for: key) {
                return (mask, offsets.0, offsets.1, offsets.2, ink)
            }
            let mask = try rasterise(fitted, rgba: false, stop: stop)
            CardTextMasks.shared.keep(mask, for: key)
            return (mask, offsets.0, offsets.1, offsets.2, ink)
        }
        return (try rasterise(fitted, rgba: true, stop: stop), offsets.0, offsets.1, offsets.2, nil)
    }

    /// libvips' `text` of the fitted markup: RGBA in the markup's colours, or a one-band mask.
    private static func rasterise(_ fitted: FittedText, rgba: Bool, stop: DecodeGuard?) throws(VipsError) -> VipsImageHandle {
        let width = fitted.width
        let text = try VipsOperationCall("text")
        try text.set("text", .string(fitted.markup))
        try text.set("font", .string(fitted.font))
        if width > 0 {
            try text.set("width", .int(width))
            try text.set("wrap", .nick("word-char"))
            if fitted.centred { try text.set("align", .nick("centre")) }
        }
        if rgba { try text.set("rgba", .bool(true)) }
        try text.build()
        return try text.outputImage().materialised(stop: stop)
    }

    /// Whether the text has characters a colour font draws (emoji), which a mask would lose.
    static func hasColourGlyphs(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            scalar.value == 0xFE0F || scalar.properties.isEmojiPresentation
                || (scalar.value >= 0x1F000 && scalar.properties.isEmoji)
        }
    }

    /// Rasterises an SVG document (sized in pixels by its own width and height) to RGBA.
    static func svg(_ document: String, stop: DecodeGuard? = nil) throws(VipsError) -> VipsImageHandle {
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
        return try image.materialised(stop: stop)
    }

    /// A number for SVG attributes: two decimals at most, no exponent, a dot as separator.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        return String(format: "%.2f", rounded)
    }
}

/// Text masks drawn recently, by text, font, width and alignment (never by colour): the light
/// and dark cards of a size class set the same texts in the same places, so the second card
/// takes the first one's masks instead of asking Pango and cairo again. Holds at most
/// `budget` pixels (a few portrait headlines and their lines); the oldest go first.
/// Shared by all rendering threads under a lock; a mask is immutable once kept.
final class CardTextMasks: @unchecked Sendable {
    static let shared = CardTextMasks()
    let budget = 6_000_000
    private let lock = NSLock()
    private var masks: [String: VipsImageHandle] = [:]
    private var order: [String] = []
    private var pixels = 0

    func mask(for key: String) -> VipsImageHandle? {
        lock.lock(); defer { lock.unlock() }
        return masks[key]
    }

    func keep(_ mask: VipsImageHandle, for key: String) {
        let size = mask.width * mask.height
        guard size <= budget / 4 else { return }
        lock.lock(); defer { lock.unlock() }
        guard masks[key] == nil else { return }
        masks[key] = mask
        order.append(key)
        pixels += size
        while pixels > budget, !order.isEmpty {
            let oldest = order.removeFirst()
            if let gone = masks.removeValue(forKey: oldest) { pixels -= gone.width * gone.height }
        }
    }
}
