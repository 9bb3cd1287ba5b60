import CVips
import Foundation
import JournalMediaCore

/// Draws a card's hero into its box: a supplied picture (rounded, circle-cropped, or an
/// icon kept with its transparency), a built-in glyph, initials on a disc, routes (lines
/// fitted to the box, start and end marked) or pins with labels.
///
/// Runs once per card before the text. Costs one resize of the supplied picture, or one
/// SVG rasterisation of the hero's area (routes are capped at `maxRoutePoints` in total
/// before they are drawn), plus one text layout per label.
struct CardHeroPainter {
    let spec: CardSpec
    let metrics: CardMetrics
    let canvas: CardCanvas
    let colors: CardColors
    var missingGlyphs = 0
    var truncated = false
    var warnings: [String] = []

    /// Most points drawn over all routes; more are thinned evenly (the builder already
    /// simplifies to about a thousand, this only bounds hostile input).
    static let maxRoutePoints = 4000
    /// Most pins drawn, and most pin labels.
    static let maxPins = 200
    static let maxPinLabels = 8

    mutating func draw(_ hero: CardHero, in box: CardBox, images: [String: DecodedImage]) throws(VipsError) {
        switch hero {
        case .image(let field, let shape):
            guard let decoded = images[field] else {
                warnings.append("hero: no picture for \(field.prefix(40)); drawn as a glyph")
                try drawGlyph(.unknown, in: box)
                return
            }
            try drawImage(decoded.image, shape: shape, in: box)
        case .glyph(let glyph):
            try drawGlyph(glyph, in: box)
        case .initials(let text, let background, let foreground):
            try drawInitials(text, background: background, foreground: foreground, in: box)
        case .route(let routes):
            try drawRoutes(routes, in: box)
        case .pins(let pins):
            try drawPins(pins, in: box)
        }
    }

    // MARK: Pictures

    private func drawImage(_ source: VipsImageHandle, shape: CardImageShape, in box: CardBox) throws(VipsError) {
        var image = try Self.srgb(source)
        let side = min(box.width, box.height)
        let radius: Double
        switch shape {
        case .rounded:
            image = try Self.fitted(image, width: box.width, height: box.height, crop: false)
            radius = Double(metrics.px(36))
        case .circle:
            image = try Self.fitted(image, width: side, height: side, crop: true)
            radius = Double(side) / 2
        case .icon:
            image = try Self.fitted(image, width: side, height: side, crop: false)
            radius = 0
        }
        // Rounded pictures and icons sit centred in the box; avatars start it.
        let x = shape == .rounded ? box.x + (box.width - image.width) / 2 : box.x
        let y = box.y + (box.height - image.height) / 2
        if radius > 0 && !image.hasAlpha {
            // An opaque picture: the rounded shape is its coverage, blended in one step.
            let alpha = try VipsOperationCall("extract_band")
            try alpha.set("in", .image(try CardLayers.svg(Self.roundedRectangle(image, radius: radius))))
            try alpha.set("band", .int(3))
            try alpha.build()
            try canvas.place(image, mask: try alpha.outputImage(), x: x, y: y)
            return
        }
        if radius > 0 {
            image = try Self.masked(image, radius: radius)
        }
        try canvas.place(image, x: x, y: y)
    }

    /// 8-bit sRGB with or without alpha, whatever the decode was (grey, grey + alpha).
    private static func srgb(_ image: VipsImageHandle) throws(VipsError) -> VipsImageHandle {
        if image.bands >= 3 && image.format == VIPS_FORMAT_UCHAR { return image }
        let convert = try VipsOperationCall("colourspace")
        try convert.set("in", .image(image))
        try convert.set("space", .nick("srgb"))
        try convert.build()
        var converted = try convert.outputImage()
        if converted.format != VIPS_FORMAT_UCHAR {
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(converted))
            try cast.set("format", .nick("uchar"))
            try cast.build()
            converted = try cast.outputImage()
        }
        return converted
    }

    /// Resized (up or down) to fit the box, or to fill it and cropped at the centre.
    private static func fitted(_ image: VipsImageHandle, width: Int, height: Int, crop: Bool) throws(VipsError) -> VipsImageHandle {
        let thumbnail = try VipsOperationCall("thumbnail_image")
        try thumbnail.set("in", .image(image))
        try thumbnail.set("width", .int(max(1, width)))
        try thumbnail.set("height", .int(max(1, height)))
        try thumbnail.set("size", .nick("both"))
        if crop { try thumbnail.set("crop", .nick("centre")) }
        try thumbnail.build()
        return try thumbnail.outputImage()
    }

    /// The picture with its corners rounded to `radius` (a circle when the radius is half
    /// the side): a rasterised rounded rectangle keeps the picture only where it is opaque
    /// ("dest-in"), multiplying any alpha the picture has.
    private static func masked(_ image: VipsImageHandle, radius: Double) throws(VipsError) -> VipsImageHandle {
        let composite = try VipsOperationCall("composite2")
        try composite.set("base", .image(image))
        try composite.set("overlay", .image(try CardLayers.svg(roundedRectangle(image, radius: radius))))
        try composite.set("mode", .nick("dest-in"))
        try composite.build()
        return try composite.outputImage()
    }

    /// An SVG of a white rounded rectangle the size of `image`.
    private static func roundedRectangle(_ image: VipsImageHandle, radius: Double) -> String {
        let n = CardLayers.number
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(image.width)" height="\(image.height)">\
            <rect width="\(image.width)" height="\(image.height)" rx="\(n(radius))" fill="#fff"/></svg>
            """
    }

    // MARK: Vector heroes

    private func drawGlyph(_ glyph: CardGlyph, in box: CardBox) throws(VipsError) {
        let side = min(box.width, box.height)
        let layer = try CardLayers.svg(CardGlyphPaths.document(glyph, color: colors.accent, side: side))
        try canvas.place(layer, x: box.x, y: box.y + (box.height - side) / 2)
    }

    private mutating func drawInitials(_ text: String, background: String, foreground: String,
                                       in box: CardBox) throws(VipsError) {
        let side = min(box.width, box.height)
        let disc: String, ink: String
        do throws(CardRenderError) {
            disc = try CardColor.rgb(background, field: "initials background").hex
            ink = try CardColor.rgb(foreground, field: "initials foreground").hex
        } catch {
            throw VipsError(message: error.message)
        }
        let half = Double(side) / 2
        let n = CardLayers.number
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side)" height="\(side)">\
            <circle cx="\(n(half))" cy="\(n(half))" r="\(n(half))" fill="\(disc)"/></svg>
            """
        let top = box.y + (box.height - side) / 2
        try canvas.place(try CardLayers.svg(svg), x: box.x, y: top)
        // At most a few characters, never wrapped; centred by their ink.
        let letters = String(CardTextFitter.normalised(text.prefix(64)).prefix(3))
        guard !letters.isEmpty else { return }
        let size = Double(side) * 0.40
        guard let fitted = CardTextFitter.fit(letters, style: CardTextStyle(
            weight: .semibold, color: ink, width: Int(Double(side) * 0.8), size: size,
            minimumSize: size * 0.6, maxLines: 1, maxHeight: nil)) else {
            throw VipsError(message: "Pango could not lay the initials out")
        }
        let layer = try CardLayers.text(fitted)
        try canvas.place(layer.image, x: box.x + (side - layer.image.width) / 2,
                         y: top + (side - layer.image.height) / 2)
        missingGlyphs += fitted.measurement.unknownGlyphs
        truncated = truncated || fitted.truncated
    }

    /// Maps unit-frame points into an area of the hero box: the points' own bounding box,
    /// aspect kept, scaled to fill the area and centred in it (a route that is wide and flat
    /// uses the box's whole width, not only the square the unit frame would fill). One unit
    /// never exceeds the area's larger side, so a few metres of jitter are not blown up.
    struct FrameFit {
        let scale: Double
        let offsetX: Double
        let offsetY: Double

        static func clamped(_ value: Double) -> Double { min(1.5, max(-0.5, value)) }

        init(points: [CardPoint], x: Double, y: Double, width: Double, height: Double) {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for point in points {
                let px = Self.clamped(point.x), py = Self.clamped(point.y)
                minX = min(minX, px); maxX = max(maxX, px)
                minY = min(minY, py); maxY = max(maxY, py)
            }
            if points.isEmpty { minX = 0.5; maxX = 0.5; minY = 0.5; maxY = 0.5 }
            let spanX = maxX - minX, spanY = maxY - minY
            let limit = max(1, max(width, height))
            let fitX = spanX > 0 ? width / spanX : limit, fitY = spanY > 0 ? height / spanY : limit
            scale = min(limit, fitX, fitY)
            offsetX = x + (width - spanX * scale) / 2 - minX * scale
            offsetY = y + (height - spanY * scale) / 2 - minY * scale
        }

        func map(_ point: CardPoint) -> (x: Double, y: Double) {
            (offsetX + Self.clamped(point.x) * scale, offsetY + Self.clamped(point.y) * scale)
        }
    }

    private mutating func drawRoutes(_ routes: [[CardPoint]], in box: CardBox) throws(VipsError) {
        let cleaned = routes.map { $0.filter { $0.x.isFinite && $0.y.isFinite } }.filter { !$0.isEmpty }
        guard !cleaned.isEmpty else {
            warnings.append("route: no points; drawn as a glyph")
            try drawGlyph(.workout, in: box)
            return
        }
        let total = cleaned.reduce(0) { $0 + $1.count }
        let stride = max(1, (total + Self.maxRoutePoints - 1) / Self.maxRoutePoints)
        if stride > 1 { warnings.append("route: \(total) points thinned to every \(stride)th") }
        let stroke = Double(metrics.px(12)), marker = Double(metrics.px(20))
        let inset = marker + stroke
        let fit = FrameFit(points: Array(cleaned.joined()), x: inset, y: inset,
                           width: max(1, Double(box.width) - 2 * inset), height: max(1, Double(box.height) - 2 * inset))
        func position(_ point: CardPoint) -> (x: Double, y: Double) { fit.map(point) }
        var thinned: [[(x: Double, y: Double)]] = []
        for route in cleaned {
            var kept: [(x: Double, y: Double)] = []
            kept.reserveCapacity(route.count / stride + 2)
            for index in Swift.stride(from: 0, to: route.count, by: stride) { kept.append(position(route[index])) }
            if stride > 1, let last = route.last { kept.append(position(last)) }
            thinned.append(kept)
        }
        // The drawing covers only the routes' bounds (plus markers), not the whole hero box,
        // so less is rasterised and composited.
        let pad = marker + stroke
        let all = thinned.joined()
        let minX = max(0, ((all.map(\.x).min() ?? 0) - pad).rounded(.down))
        let minY = max(0, ((all.map(\.y).min() ?? 0) - pad).rounded(.down))
        let maxX = min(Double(box.width), (all.map(\.x).max() ?? 0) + pad)
        let maxY = min(Double(box.height), (all.map(\.y).max() ?? 0) + pad)
        let width = max(1, Int((maxX - minX).rounded(.up))), height = max(1, Int((maxY - minY).rounded(.up)))
        let n = CardLayers.number
        var paths = "", markers = ""
        for route in thinned {
            var d = ""
            d.reserveCapacity(route.count * 16)
            for (index, point) in route.enumerated() {
                d += (index == 0 ? "M" : "L") + n(point.x - minX) + " " + n(point.y - minY)
            }
            if route.count == 1 { d += "l0.01 0" }
            paths += "<path d=\"\(d)\"/>"
            let start = route[0], end = route[route.count - 1]
            // Start: a filled dot ringed in the background; end: a ring.
            markers += "<circle cx=\"\(n(end.x - minX))\" cy=\"\(n(end.y - minY))\" r=\"\(n(marker))\" "
                + "fill=\"\(backgroundHex)\" stroke=\"\(colors.accent)\" stroke-width=\"\(n(stroke * 0.8))\"/>"
            markers += "<circle cx=\"\(n(start.x - minX))\" cy=\"\(n(start.y - minY))\" r=\"\(n(marker))\" "
                + "fill=\"\(colors.accent)\" stroke=\"\(backgroundHex)\" stroke-width=\"\(n(stroke * 0.5))\"/>"
        }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\
            <g fill="none" stroke="\(colors.accent)" stroke-width="\(n(stroke))" stroke-linecap="round" \
            stroke-linejoin="round">\(paths)</g>\(markers)</svg>
            """
        try canvas.place(try CardLayers.svg(svg), x: box.x + Int(minX), y: box.y + Int(minY))
    }

    private mutating func drawPins(_ pins: [CardPin], in box: CardBox) throws(VipsError) {
        let shown = pins.filter { $0.point.x.isFinite && $0.point.y.isFinite }.prefix(Self.maxPins)
        guard !shown.isEmpty else {
            warnings.append("pins: none with coordinates; drawn as a glyph")
            try drawGlyph(.pin, in: box)
            return
        }
        if pins.count > shown.count { warnings.append("pins: \(shown.count) of \(pins.count) shown") }
        let single = shown.count == 1
        let pinScale = Double(metrics.px(single ? 200 : 84)) / 40
        let n = CardLayers.number
        // The pin's tip sits on its point; the area leaves room for the tallest pin above
        // and half a pin beside.
        let top = 40 * pinScale, side = 14 * pinScale
        let fit = FrameFit(points: shown.map(\.point), x: side, y: top, width: max(1, Double(box.width) - 2 * side),
                           height: max(1, Double(box.height) - top - 4))
        var tips: [(x: Double, y: Double)] = []
        for pin in shown {
            tips.append(single ? (Double(box.width) / 2, (Double(box.height) + top) / 2) : fit.map(pin.point))
        }
        // The drawing covers only the pins' bounds.
        let outline = max(2, pinScale * 1.5)
        let minX = max(0, ((tips.map(\.x).min() ?? 0) - side - outline).rounded(.down))
        let minY = max(0, ((tips.map(\.y).min() ?? 0) - top - outline).rounded(.down))
        let maxX = min(Double(box.width), (tips.map(\.x).max() ?? 0) + side + outline)
        let maxY = min(Double(box.height), (tips.map(\.y).max() ?? 0) + outline)
        var body = ""
        for tip in tips {
            let x = tip.x - minX, y = tip.y - minY
            body += "<path d=\"\(CardGlyphPaths.pinPath(x: x, y: y, size: pinScale))\" fill=\"\(colors.accent)\" "
                + "stroke=\"\(backgroundHex)\" stroke-width=\"\(n(outline))\"/>"
            body += "<circle cx=\"\(n(x))\" cy=\"\(n(y - 25 * pinScale))\" r=\"\(n(side * 0.38))\" "
                + "fill=\"\(backgroundHex)\"/>"
        }
        let width = max(1, Int((maxX - minX).rounded(.up))), height = max(1, Int((maxY - minY).rounded(.up)))
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\(body)</svg>
            """
        try canvas.place(try CardLayers.svg(svg), x: box.x + Int(minX), y: box.y + Int(minY))
        // Labels beside the first pins, on the side with more room.
        let labelSize = metrics.size(30)
        for (pin, tip) in zip(shown, tips).prefix(single ? 0 : Self.maxPinLabels) {
            guard let label = pin.label, !CardTextFitter.isBlank(label) else { continue }
            let leftRoom = Int(tip.x - side), rightRoom = box.width - Int(tip.x + side)
            let room = max(leftRoom, rightRoom) - metrics.px(8)
            guard room > Int(labelSize * 2) else { continue }
            guard let fitted = CardTextFitter.fit(label, style: CardTextStyle(
                weight: .medium, color: colors.secondary, width: room, size: labelSize, minimumSize: labelSize,
                maxLines: 1, maxHeight: nil)) else { continue }
            let layer = try CardLayers.text(fitted)
            let textWidth = fitted.measurement.logical.width
            let x = rightRoom >= leftRoom ? Int(tip.x + side) + metrics.px(8)
                : Int(tip.x - side) - metrics.px(8) - textWidth
            let y = Int(tip.y - 25 * pinScale) - fitted.measurement.logical.height / 2
            try canvas.place(layer.image, x: box.x + x + layer.lineDx, y: box.y + y + layer.dy)
            missingGlyphs += fitted.measurement.unknownGlyphs
            truncated = truncated || fitted.truncated
        }
    }

    /// The background colour behind the hero (the gradient's top for a gradient card), so
    /// markers can be ringed in it.
    private var backgroundHex: String {
        switch spec.background {
        case .solid(let hex):
            return (try? CardColor.rgb(hex, field: "background").hex) ?? "#ffffff"
        case .verticalGradient(let stops):
            let first = stops.min { $0.location < $1.location }
            return first.flatMap { try? CardColor.rgb($0.color, field: "background").hex } ?? "#ffffff"
        }
    }
}
