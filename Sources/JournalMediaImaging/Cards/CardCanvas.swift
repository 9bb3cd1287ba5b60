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
    /// The drawing's guard (its caller's cancellation or deadline), which stops the layers'
    /// libvips computations between tiles.
    let stop: DecodeGuard?

    /// Hands the packed RGB rows (and the bytes per row) to a painter that writes them in place.
    func withPixels(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        body(pixels.assumingMemoryBound(to: UInt8.self), width * 3)
    }

    /// A canvas filled with `background` (one colour, or a vertical gradient computed row by
    /// row in Swift), made in memory: about width × height × 3 bytes written once.
    init(width: Int, height: Int, background: CardBackground, stop: DecodeGuard? = nil) throws(CardRenderError) {
        self.width = width
        self.height = height
        self.stop = stop
        let column: [UInt8]
        switch background {
        case .solid(let hex):
            let rgb = try CardColor.rgb(hex, field: "background").bytes
            column = [UInt8]((0..<height * 3).lazy.map { rgb[$0 % 3] })
        case .verticalGradient(let stops):
            column = try Self.gradientColumn(stops, height: height)
        }
        // The pixels are written straight into a buffer the image wraps (one allocation, no
        // copy). Not libvips' own memory image: its buffer is zeroed when made (calloc),
        // a pass over the whole card that the fill below makes useless. The buffer goes
        // with the image (freed when the image's signal handler is released).
        let byteCount = width * height * 3
        guard let buffer = malloc(max(1, byteCount)) else {
            throw CardRenderError.drawing(stage: "background", message: "cannot allocate \(byteCount) bytes")
        }
        guard let memory = vips_image_new_from_memory(buffer, byteCount, Int32(width), Int32(height), 3,
                                                      VIPS_FORMAT_UCHAR) else {
            free(buffer)
            throw CardRenderError.drawing(stage: "background", message: VipsRuntime.takeErrorBuffer())
        }
        image = VipsImageHandle(owning: memory)
        let release: GClosureNotify = { data, _ in free(data) }
        let nothing: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        g_signal_connect_data(UnsafeMutableRawPointer(memory), "postclose", unsafeBitCast(nothing, to: GCallback.self),
                              buffer, release, GConnectFlags(rawValue: 0))
        pixels = buffer
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
    /// `ink`: `layer` is a one-band coverage mask (a text) to be blended in this colour.
    func place(_ layer: VipsImageHandle, mask: VipsImageHandle? = nil, x: Int, y: Int,
               cornerRadius: Double = 0, ink: [UInt8]? = nil) throws(VipsError) {
        let left = max(0, x), top = max(0, y)
        let right = min(width, x + layer.width), bottom = min(height, y + layer.height)
        guard right > left, bottom > top else { return }
        if let ink, ink.count >= 3, layer.bands == 1, layer.format == VIPS_FORMAT_UCHAR {
            try placeInk(layer, color: ink, x: x, y: y, left: left, top: top, right: right, bottom: bottom)
            return
        }
        let bands = layer.bands
        guard layer.format == VIPS_FORMAT_UCHAR, bands == 3 || bands == 4,
              mask.map({ $0.format == VIPS_FORMAT_UCHAR && $0.bands == 1 && $0.width == layer.width
                  && $0.height == layer.height }) ?? true
        else {
            try placeThroughVips(layer, mask: mask, x: x, y: y)
            return
        }
        let source = try layer.materialised(stop: stop)
        let coverage = try mask?.materialised(stop: stop)
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

    /// A coverage mask blended in one colour: colour × coverage + canvas × (1 − coverage),
    /// rounded as `blendRow` rounds. Costs the mask's area.
    private func placeInk(_ layer: VipsImageHandle, color: [UInt8], x: Int, y: Int,
                          left: Int, top: Int, right: Int, bottom: Int) throws(VipsError) {
        let source = try layer.materialised(stop: stop)
        guard let bytes = vips_image_get_data(source.pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("reading a card text"))
        }
        let coverage = bytes.assumingMemoryBound(to: UInt8.self)
        let canvasBase = pixels.assumingMemoryBound(to: UInt8.self)
        let r = Int(color[0]), g = Int(color[1]), b = Int(color[2])
        withExtendedLifetime(source) {
            for row in top..<bottom {
                let maskRow = coverage + (row - y) * layer.width + (left - x)
                let canvasRow = canvasBase + (row * width + left) * 3
                for i in 0..<(right - left) {
                    let a = Int(maskRow[i])
                    if a == 0 { continue }
                    let c = canvasRow + i * 3
                    if a == 255 {
                        c[0] = UInt8(r); c[1] = UInt8(g); c[2] = UInt8(b)
                        continue
                    }
                    let keep = 255 - a
                    c[0] = UInt8((a * r + keep * Int(c[0]) + 128) / 255)
                    c[1] = UInt8((a * g + keep * Int(c[1]) + 128) / 255)
                    c[2] = UInt8((a * b + keep * Int(c[2]) + 128) / 255)
                }
            }
        }
    }

    /// Blends a circle's outline (`width` pixels, centred on `radius`) of `color` at `alpha`,
    /// antialiased, inside `clip`. Visits only the ring's own pixels: per row, the spans
    /// between the inner and the outer circle.
    func ring(centerX: Double, centerY: Double, radius: Double, width lineWidth: Double, color: [UInt8], alpha: UInt8,
              clip: CardBox) {
        guard color.count >= 3, radius > 0, lineWidth > 0 else { return }
        let outer = radius + lineWidth / 2 + 1, inner = max(0, radius - lineWidth / 2 - 1)
        let left = max(0, clip.x), right = min(width, clip.x + clip.width)
        let top = max(max(0, clip.y), Int((centerY - outer).rounded(.down)))
        let bottom = min(min(height, clip.y + clip.height), Int((centerY + outer).rounded(.up)))
        guard bottom > top, right > left else { return }
        let base = pixels.assumingMemoryBound(to: UInt8.self)
        for y in top..<bottom {
            let dy = Double(y) + 0.5 - centerY
            guard abs(dy) < outer else { continue }
            let reach = (outer * outer - dy * dy).squareRoot()
            let hole = abs(dy) < inner ? (inner * inner - dy * dy).squareRoot() : 0
            let spans = hole > 0
                ? [(centerX - reach, centerX - hole), (centerX + hole, centerX + reach)]
                : [(centerX - reach, centerX + reach)]
            let row = base + y * width * 3
            for (from, to) in spans {
                let first = max(left, Int(from.rounded(.down))), end = min(right, Int(to.rounded(.up)))
                guard end > first else { continue }
                for x in first..<end {
                    let dx = Double(x) + 0.5 - centerX
                    let distance = abs((dx * dx + dy * dy).squareRoot() - radius)
                    Self.blend(row + x * 3, color, alpha: alpha, cover: min(1, max(0, lineWidth / 2 + 0.5 - distance)))
                }
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
        // The blend of each channel value, looked up (the same arithmetic, once per value).
        var table = [UInt8](repeating: 0, count: 768)
        for channel in 0..<3 {
            let mixed = a * Int(color[channel]) + 128
            for value in 0..<256 { table[channel * 256 + value] = UInt8((mixed + b * value) / 255) }
        }
        let rowBytes = width * 3
        let r = Double(max(0, min(radius, min(box.width, box.height) / 2)))
        table.withUnsafeBufferPointer { lookup in
            guard let t = lookup.baseAddress else { return }
            for y in max(0, box.y)..<min(height, box.y + box.height) {
                // The inset of this row at the rounded corners.
                let fromEdge = Double(min(y - box.y, box.y + box.height - 1 - y)) + 0.5
                let inset = fromEdge < r ? Int((r - (r * r - (r - fromEdge) * (r - fromEdge)).squareRoot()).rounded()) : 0
                let row = pixels.assumingMemoryBound(to: UInt8.self) + y * rowBytes
                let from = max(left, box.x + inset), to = min(right, box.x + box.width - inset)
                guard to > from else { continue }
                for x in from..<to {
                    let c = row + x * 3
                    c[0] = t[Int(c[0])]
                    c[1] = t[256 + Int(c[1])]
                    c[2] = t[512 + Int(c[2])]
                }
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
                Self.blend(row + x * 3, color, alpha: alpha, cover: min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5)))
            }
        }
    }

    /// One pixel: `color` at `alpha` × `cover` over it, rounded.
    @inline(__always)
    private static func blend(_ c: UnsafeMutablePointer<UInt8>, _ color: [UInt8], alpha: UInt8, cover: Double) {
        let a = Int((Double(alpha) * cover).rounded())
        if a == 0 { return }
        let b = 255 - a
        c[0] = UInt8((a * Int(color[0]) + b * Int(c[0]) + 128) / 255)
        c[1] = UInt8((a * Int(color[1]) + b * Int(c[1]) + 128) / 255)
        c[2] = UInt8((a * Int(color[2]) + b * Int(c[2]) + 128) / 255)
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
        blended = try blended.materialised(stop: stop)
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
