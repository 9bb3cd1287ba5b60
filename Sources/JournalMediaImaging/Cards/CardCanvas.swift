import CVips
import Foundation
import JournalMediaCore

/// The pixels of one card while it is being drawn: an 8-bit sRGB image in memory onto which
/// layers (text, SVG drawings, pictures, all RGBA with straight alpha) are composited at
/// pixel positions.
///
/// Each `place` composites only the layer's own rectangle (extract, blend "over",
/// `draw_image` back in place), so a layer costs its own area, not the canvas'; the canvas
/// is written once when made and handed over as the card by `finished()`.
final class CardCanvas {
    let width: Int
    let height: Int
    private(set) var image: VipsImageHandle
    /// The canvas' packed RGB rows (the image's own memory, written in place).
    private let pixels: UnsafeMutableRawPointer

    /// Hands the packed RGB rows (and the bytes per row) to a painter that writes them in place.
    func withPixels(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        body(pixels.assumingMemoryBound(to: UInt8.self), width * 3)
    }

    /// A canvas filled with `background` (one colour, or a vertical gradient computed row by
    /// row in Swift), made in memory: about width × height × 3 bytes written once.
    init(width: Int, height: Int, background: CardBackground) throws(CardRenderError) {
        self.width = width
        self.height = height
        let column: [UInt8]
        switch background {
        case .solid(let hex):
            let rgb = try CardColor.rgb(hex, field: "background").bytes
            column = [UInt8]((0..<height * 3).lazy.map { rgb[$0 % 3] })
        case .verticalGradient(let stops):
            column = try Self.gradientColumn(stops, height: height)
        }
        // The pixels are written straight into the image's own buffer (one allocation, no
        // intermediate copy).
        guard let memory = vips_image_new_memory() else {
            throw CardRenderError.drawing(stage: "background", message: VipsRuntime.takeErrorBuffer())
        }
        vips_image_init_fields(memory, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR, VIPS_CODING_NONE,
                               VIPS_INTERPRETATION_sRGB, 1, 1)
        image = VipsImageHandle(owning: memory)
        guard vips_image_write_prepare(memory) == 0, let data = memory.pointee.data else {
            throw CardRenderError.drawing(stage: "background", message: VipsRuntime.takeErrorBuffer())
        }
        pixels = UnsafeMutableRawPointer(data)
        Self.fill(pixels, column: column, width: width, height: height)
    }

    /// Fills packed RGB rows at `base`, each with its colour from `column`, by doubling copies
    /// (a few memcpy calls per row; libvips' replicate of a one-pixel strip copies pixel by pixel).
    static func fill(_ base: UnsafeMutableRawPointer, column: [UInt8], width: Int, height: Int) {
        let rowBytes = width * 3
        for row in 0..<height {
            let start = base + row * rowBytes
            start.storeBytes(of: column[row * 3], toByteOffset: 0, as: UInt8.self)
            start.storeBytes(of: column[row * 3 + 1], toByteOffset: 1, as: UInt8.self)
            start.storeBytes(of: column[row * 3 + 2], toByteOffset: 2, as: UInt8.self)
            var done = 3
            while done < rowBytes {
                let chunk = min(done, rowBytes - done)
                (start + done).copyMemory(from: start, byteCount: chunk)
                done += chunk
            }
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
    /// corner at (`x`, `y`); the parts outside the canvas are dropped. `mask`: a one-band
    /// coverage image of the layer's size used as its alpha instead (an opaque picture with
    /// rounded corners).
    ///
    /// An 8-bit layer (and mask) is blended here, row by row straight into the canvas'
    /// memory: colour × alpha + canvas × (1 − alpha), rounded as libvips' `ifthenelse` with
    /// `blend` rounds, so the pixels are the ones libvips would make, without the five
    /// libvips operations and the pipeline run per layer that cost more than the blend.
    /// Costs the layer's area (pixels with zero coverage are skipped). Any other layer
    /// (float, grey) goes through `placeThroughVips`.
    /// `cornerRadius`: the layer's corners are rounded to it as it is blended (coverage
    /// computed per pixel near the corners, antialiased; a circle when it is half the side),
    /// instead of rasterising a mask of the whole layer.
    func place(_ layer: VipsImageHandle, mask: VipsImageHandle? = nil, x: Int, y: Int,
               cornerRadius: Double = 0) throws(VipsError) {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + layer.width), bottom = min(height, y + layer.height)
        guard right > left, bottom > top else { return }
        let bands = layer.bands
        guard layer.format == VIPS_FORMAT_UCHAR, bands == 3 || bands == 4,
              mask.map({ $0.format == VIPS_FORMAT_UCHAR && $0.bands == 1 && $0.width == layer.width
                  && $0.height == layer.height }) ?? true
        else {
            try placeThroughVips(layer, mask: mask, x: x, y: y)
            return
        }
        let source = try layer.materialised()
        let coverage = try mask?.materialised()
        guard let layerBytes = vips_image_get_data(source.pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("reading a card layer"))
        }
        var maskBytes: UnsafeRawPointer? = nil
        if let coverage {
            guard let bytes = vips_image_get_data(coverage.pointer) else {
                throw VipsError(message: VipsRuntime.failureMessage("reading a card mask"))
            }
            maskBytes = bytes
        }
        let layerBase = layerBytes.assumingMemoryBound(to: UInt8.self)
        let canvasBase = pixels.assumingMemoryBound(to: UInt8.self)
        let count = right - left
        let r = min(cornerRadius, Double(min(layer.width, layer.height)) / 2)
        for row in top..<bottom {
            let layerRow = layerBase + ((row - y) * layer.width + (left - x)) * bands
            let canvasRow = canvasBase + (row * width + left) * 3
            let ly = row - y
            if r > 0 && maskBytes == nil && (Double(ly) < r || Double(ly) >= Double(layer.height) - r) {
                let w = layer.width, h = layer.height, offset = left - x
                let cy = Double(ly) + 0.5 < r ? r : Double(h) - r
                Self.blendRow(canvasRow, layerRow, bands: bands, count: count) { i in
                    let lx = i + offset
                    let own = bands == 4 ? Int(layerRow[i * 4 + 3]) : 255
                    let px = Double(lx) + 0.5
                    guard px < r || px > Double(w) - r else { return UInt8(own) }
                    let cx = px < r ? r : Double(w) - r
                    let dx = px - cx, dy = Double(ly) + 0.5 - cy
                    let cover = min(1, max(0, r - (dx * dx + dy * dy).squareRoot() + 0.5))
                    return UInt8((Double(own) * cover).rounded())
                }
            } else if let maskBytes {
                let coverageRow = maskBytes.assumingMemoryBound(to: UInt8.self) + (row - y) * layer.width + (left - x)
                Self.blendRow(canvasRow, layerRow, bands: bands, count: count) { coverageRow[$0] }
            } else if bands == 4 {
                Self.blendRow(canvasRow, layerRow, bands: 4, count: count) { layerRow[$0 * 4 + 3] }
            } else {
                (canvasRow).update(from: layerRow, count: count * 3)
            }
        }
    }

    /// Blends `color` (RGB) at `alpha` over a rectangle of the canvas, its corners rounded to
    /// `radius` (whole pixels, no antialiasing: for faint tints and thin lines, where a
    /// rasterised drawing of the whole area would cost far more). Costs the rectangle's area.
    func tint(_ box: CardBox, color: [UInt8], alpha: UInt8, radius: Int = 0) {
        guard color.count >= 3 else { return }
        let left = max(0, box.x), right = min(width, box.x + box.width)
        guard right > left else { return }
        let a = Int(alpha), b = 255 - a
        let mixed = (0..<3).map { a * Int(color[$0]) + 128 }
        let rowBytes = width * 3
        let r = Double(max(0, min(radius, min(box.width, box.height) / 2)))
        for y in max(0, box.y)..<min(height, box.y + box.height) {
            // The inset of this row at the rounded corners.
            let fromEdge = Double(min(y - box.y, box.y + box.height - 1 - y)) + 0.5
            let inset = fromEdge < r ? Int((r - (r * r - (r - fromEdge) * (r - fromEdge)).squareRoot()).rounded()) : 0
            let row = pixels.assumingMemoryBound(to: UInt8.self) + y * rowBytes
            for x in max(left, box.x + inset)..<min(right, box.x + box.width - inset) {
                let c = row + x * 3
                c[0] = UInt8((mixed[0] + b * Int(c[0])) / 255)
                c[1] = UInt8((mixed[1] + b * Int(c[1])) / 255)
                c[2] = UInt8((mixed[2] + b * Int(c[2])) / 255)
            }
        }
    }

    /// Blends a disc of `color` at `alpha`, its edge antialiased (coverage from the distance
    /// to the circle), straight into the canvas. Costs the disc's area.
    func disc(centerX: Double, centerY: Double, radius: Double, color: [UInt8], alpha: UInt8) {
        guard color.count >= 3, radius > 0 else { return }
        let rowBytes = width * 3
        let base = pixels.assumingMemoryBound(to: UInt8.self)
        let top = max(0, Int((centerY - radius - 1).rounded(.down))), bottom = min(height, Int((centerY + radius + 1).rounded(.up)))
        guard bottom > top else { return }
        for y in top..<bottom {
            let dy = Double(y) + 0.5 - centerY
            let reach = radius + 1
            guard abs(dy) < reach else { continue }
            let half = (reach * reach - dy * dy).squareRoot()
            let left = max(0, Int((centerX - half).rounded(.down))), right = min(width, Int((centerX + half).rounded(.up)))
            guard right > left else { continue }
            let row = base + y * rowBytes
            // Pixels whose centre lies 0.5 px or more inside the circle are fully covered:
            // blended without a square root; only the edge pixels get their coverage.
            let innerReach = radius - 0.5
            let inner = innerReach > abs(dy) ? (innerReach * innerReach - dy * dy).squareRoot() : -1
            let innerLeft = inner > 0 ? max(left, Int((centerX - inner + 0.5).rounded(.up))) : right
            let innerRight = inner > 0 ? min(right, Int((centerX + inner - 0.5).rounded(.down)) + 1) : right
            if innerRight > innerLeft {
                let a = Int(alpha), b = 255 - a
                let m0 = a * Int(color[0]) + 128, m1 = a * Int(color[1]) + 128, m2 = a * Int(color[2]) + 128
                for x in innerLeft..<innerRight {
                    let c = row + x * 3
                    c[0] = UInt8((m0 + b * Int(c[0])) / 255)
                    c[1] = UInt8((m1 + b * Int(c[1])) / 255)
                    c[2] = UInt8((m2 + b * Int(c[2])) / 255)
                }
            }
            for x in left..<right where x < innerLeft || x >= innerRight {
                let dx = Double(x) + 0.5 - centerX
                let cover = min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                let a = Int((Double(alpha) * cover).rounded())
                if a == 0 { continue }
                let b = 255 - a, c = row + x * 3
                c[0] = UInt8((a * Int(color[0]) + b * Int(c[0]) + 128) / 255)
                c[1] = UInt8((a * Int(color[1]) + b * Int(c[1]) + 128) / 255)
                c[2] = UInt8((a * Int(color[2]) + b * Int(c[2]) + 128) / 255)
            }
        }
    }

    /// One row of "over": `alpha(i)` is the coverage of pixel i (0 keeps the canvas, 255
    /// takes the layer's colour).
    @inline(__always)
    private static func blendRow(_ canvas: UnsafeMutablePointer<UInt8>, _ layer: UnsafePointer<UInt8>, bands: Int,
                                 count: Int, alpha: (Int) -> UInt8) {
        for i in 0..<count {
            let a = Int(alpha(i))
            if a == 0 { continue }
            let c = canvas + i * 3, l = layer + i * bands
            if a == 255 {
                c[0] = l[0]; c[1] = l[1]; c[2] = l[2]
                continue
            }
            let b = 255 - a
            c[0] = UInt8((a * Int(l[0]) + b * Int(c[0]) + 128) / 255)
            c[1] = UInt8((a * Int(l[1]) + b * Int(c[1]) + 128) / 255)
            c[2] = UInt8((a * Int(l[2]) + b * Int(c[2]) + 128) / 255)
        }
    }

    /// The general path, through libvips: the layer's rectangle of the canvas is blended
    /// ("over", by `ifthenelse` with blending), cast to 8 bits and written back in place
    /// (`draw_image`).
    private func placeThroughVips(_ layer: VipsImageHandle, mask: VipsImageHandle?, x: Int, y: Int) throws(VipsError) {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + layer.width), bottom = min(height, y + layer.height)
        guard right > left, bottom > top else { return }
        var overlay = layer, coverage = mask
        if left != x || top != y || right - left != layer.width || bottom - top != layer.height {
            overlay = try Self.extract(layer, left: left - x, top: top - y, width: right - left, height: bottom - top)
            if let mask {
                coverage = try Self.extract(mask, left: left - x, top: top - y, width: right - left,
                                            height: bottom - top)
            }
        }
        var blended = overlay
        if let coverage {
            let region = try Self.extract(image, left: left, top: top, width: right - left, height: bottom - top)
            let blend = try VipsOperationCall("ifthenelse")
            try blend.set("cond", .image(coverage))
            try blend.set("in1", .image(overlay))
            try blend.set("in2", .image(region))
            try blend.set("blend", .bool(true))
            try blend.build()
            blended = try blend.outputImage()
        } else if overlay.hasAlpha {
            // "Over" onto an opaque canvas is colour × alpha + canvas × (1 − alpha): libvips'
            // ifthenelse with blend does exactly that in 8-bit integer arithmetic, several
            // times cheaper than composite's float pipeline.
            let region = try Self.extract(image, left: left, top: top, width: right - left, height: bottom - top)
            let alpha = try VipsOperationCall("extract_band")
            try alpha.set("in", .image(overlay))
            try alpha.set("band", .int(overlay.bands - 1))
            try alpha.build()
            let colour = try VipsOperationCall("extract_band")
            try colour.set("in", .image(overlay))
            try colour.set("band", .int(0))
            try colour.set("n", .int(overlay.bands - 1))
            try colour.build()
            let blend = try VipsOperationCall("ifthenelse")
            try blend.set("cond", .image(try alpha.outputImage()))
            try blend.set("in1", .image(try colour.outputImage()))
            try blend.set("in2", .image(region))
            try blend.set("blend", .bool(true))
            try blend.build()
            blended = try blend.outputImage()
        }
        if blended.format != VIPS_FORMAT_UCHAR {
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(blended))
            try cast.set("format", .nick("uchar"))
            try cast.build()
            blended = try cast.outputImage()
        }
        // Computed before the canvas is written, since it reads the canvas.
        blended = try blended.materialised()
        let draw = try VipsOperationCall("draw_image")
        try draw.set("image", .image(image))
        try draw.set("sub", .image(blended))
        try draw.set("x", .int(left))
        try draw.set("y", .int(top))
        try draw.build()
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

    /// The finished card: the canvas itself (8-bit sRGB, three bands, in memory, made here
    /// so without any metadata field), handed over; nothing is drawn on it afterwards.
    func finished() -> VipsImageHandle {
        image
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
