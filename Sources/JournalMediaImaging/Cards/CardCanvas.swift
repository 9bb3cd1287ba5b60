import CVips
import Foundation
import JournalMediaCore

/// The pixels of one card while it is being drawn: an 8-bit sRGB background onto which
/// layers (text, SVG drawings, pictures, all RGBA with straight alpha) are composited at
/// pixel positions.
///
/// Each `place` composites only the layer's own rectangle (extract, `composite2` "over",
/// `insert` back), so a small layer costs its own area, not the canvas'. Everything stays a
/// lazy libvips pipeline until `finished()` computes it once into memory.
final class CardCanvas {
    let width: Int
    let height: Int
    private(set) var image: VipsImageHandle

    /// A canvas filled with `background` (one colour, or a vertical gradient computed row by
    /// row in Swift and repeated across: one 1×height strip, no per-pixel work).
    init(width: Int, height: Int, background: CardBackground) throws(CardRenderError) {
        self.width = width
        self.height = height
        let column: [UInt8]
        let columnHeight: Int
        switch background {
        case .solid(let hex):
            column = try CardColor.rgb(hex, field: "background").bytes
            columnHeight = 1
        case .verticalGradient(let stops):
            column = try Self.gradientColumn(stops, height: height)
            columnHeight = height
        }
        do throws(VipsError) {
            let strip = try VipsImageHandle.copyingPackedRGB(column, width: 1, height: columnHeight)
            let replicate = try VipsOperationCall("replicate")
            try replicate.set("in", .image(strip))
            try replicate.set("across", .int(width))
            try replicate.set("down", .int(height / columnHeight))
            try replicate.build()
            image = try replicate.outputImage()
        } catch {
            throw CardRenderError.drawing(stage: "background", message: error.message)
        }
    }

    /// The gradient's colour for each row: linear between neighbouring stops (sorted by
    /// location), the end colours held beyond the first and last stop.
    static func gradientColumn(_ stops: [CardGradientStop], height: Int) throws(CardRenderError) -> [UInt8] {
        var parsed: [(location: Double, rgb: CardColor)] = []
        for stop in stops {
            let location = stop.location.isFinite ? min(1, max(0, stop.location)) : 0
            parsed.append((location, try CardColor.rgb(stop.color, field: "background gradient")))
        }
        guard !parsed.isEmpty else { throw CardRenderError.invalidSpec("background gradient has no stops") }
        parsed.sort { $0.location < $1.location }
        var column = [UInt8]()
        column.reserveCapacity(height * 3)
        for row in 0..<height {
            let t = (Double(row) + 0.5) / Double(height)
            var lower = parsed[0], upper = parsed[parsed.count - 1]
            for stop in parsed where stop.location <= t { lower = stop }
            for stop in parsed.reversed() where stop.location >= t { upper = stop }
            let span = upper.location - lower.location
            let f = span > 0 ? (t - lower.location) / span : 0
            for channel in 0..<3 {
                let a = Double(lower.rgb.bytes[channel]), b = Double(upper.rgb.bytes[channel])
                column.append(UInt8(max(0, min(255, (a + (b - a) * f).rounded()))))
            }
        }
        return column
    }

    /// Composites `layer` (RGBA, straight alpha; or RGB, drawn opaque) with its top-left
    /// corner at (`x`, `y`); the parts outside the canvas are dropped.
    func place(_ layer: VipsImageHandle, x: Int, y: Int) throws(VipsError) {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + layer.width), bottom = min(height, y + layer.height)
        guard right > left, bottom > top else { return }
        var overlay = layer
        if left != x || top != y || right - left != layer.width || bottom - top != layer.height {
            overlay = try Self.extract(layer, left: left - x, top: top - y, width: right - left, height: bottom - top)
        }
        guard overlay.hasAlpha else {
            image = try Self.insert(overlay, into: image, x: left, y: top)
            return
        }
        let region = try Self.extract(image, left: left, top: top, width: right - left, height: bottom - top)
        let composite = try VipsOperationCall("composite2")
        try composite.set("base", .image(region))
        try composite.set("overlay", .image(overlay))
        try composite.set("mode", .nick("over"))
        try composite.build()
        var blended = try composite.outputImage()
        let bands = try VipsOperationCall("extract_band")
        try bands.set("in", .image(blended))
        try bands.set("band", .int(0))
        try bands.set("n", .int(3))
        try bands.build()
        blended = try bands.outputImage()
        if blended.format != VIPS_FORMAT_UCHAR {
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(blended))
            try cast.set("format", .nick("uchar"))
            try cast.build()
            blended = try cast.outputImage()
        }
        image = try Self.insert(blended, into: image, x: left, y: top)
    }

    static func extract(_ image: VipsImageHandle, left: Int, top: Int, width: Int,
                        height: Int) throws(VipsError) -> VipsImageHandle {
        let extract = try VipsOperationCall("extract_area")
        try extract.set("input", .image(image))
        try extract.set("left", .int(left))
        try extract.set("top", .int(top))
        try extract.set("width", .int(width))
        try extract.set("height", .int(height))
        try extract.build()
        return try extract.outputImage()
    }

    private static func insert(_ sub: VipsImageHandle, into main: VipsImageHandle, x: Int,
                               y: Int) throws(VipsError) -> VipsImageHandle {
        let insert = try VipsOperationCall("insert")
        try insert.set("main", .image(main))
        try insert.set("sub", .image(sub))
        try insert.set("x", .int(x))
        try insert.set("y", .int(y))
        try insert.build()
        return try insert.outputImage()
    }

    /// Computes the card into memory: 8-bit sRGB, three bands, no metadata fields.
    func finished() throws(VipsError) -> VipsImageHandle {
        let tag = try VipsOperationCall("copy")
        try tag.set("in", .image(image))
        try tag.set("interpretation", .nick("srgb"))
        try tag.build()
        let memory = try tag.outputImage().materialised()
        for field in memory.fieldNames where !ImageDecoder.coreFields.contains(field) {
            memory.removeField(field)
        }
        return memory
    }
}

/// An sRGB colour parsed from the spec's `#RRGGBB` (or `#RGB`) text.
struct CardColor: Equatable {
    var bytes: [UInt8]

    static func rgb(_ hex: String, field: String) throws(CardRenderError) -> CardColor {
        var digits = Substring(hex.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
            throw CardRenderError.invalidSpec("\(field): \"\(hex.prefix(40))\" is not a #RRGGBB colour")
        }
        return CardColor(bytes: [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    /// `#rrggbb`, the form Pango markup and SVG take.
    var hex: String { "#" + bytes.map { String(format: "%02x", $0) }.joined() }
}

/// A spec's three text and drawing colours, checked and normalised to `#rrggbb` once.
struct CardColors {
    let foreground: String
    let secondary: String
    let accent: String

    init(_ spec: CardSpec) throws(CardRenderError) {
        foreground = try CardColor.rgb(spec.foreground, field: "foreground").hex
        secondary = try CardColor.rgb(spec.secondaryForeground, field: "secondaryForeground").hex
        accent = try CardColor.rgb(spec.accent, field: "accent").hex
    }
}
