import CVips
import Foundation
import JournalMediaCore

/// Draws a card's hero large into its box (the upper half of a tile or portrait, the left
/// half of a landscape): a supplied picture (rounded, a circle-cropped avatar, or an icon
/// kept with its transparency), a built-in glyph on a tinted disc, initials on a disc, a
/// state of mind's form, routes (fitted to the box, start and end marked) or pins with
/// labels placed where they hit no pin and no other label ("+N" for the rest), on a map
/// picture or an abstract frame. Records what it drew for the card's layout.
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
    /// The area actually covered (the glyph's disc, the avatar, the fitted picture), pins'
    /// boxes, and texts drawn inside the hero (pin labels, initials, the scale).
    var drawn: CardRect?
    var pins: [CardRect] = []
    var texts: [CardTextRun] = []
    /// The plates drawn behind labels (pin labels, the scale, "+N").
    var plates: [CardRect] = []

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
                try drawGlyph(.pictureUnavailable, in: box)
                return
            }
            drawn = try drawImage(decoded.image, shape: shape, in: box)
        case .glyph(let glyph):
            try drawGlyph(glyph, in: box)
        case .initials(let text, let background, let foreground):
            try drawInitials(text, background: background, foreground: foreground, in: box)
        case .route(let routes):
            drawn = box.rect
            try drawRoutes(routes, in: box, placement: nil)
        case .pins(let pins):
            drawn = box.rect
            try drawPins(pins, in: box, placement: nil)
        case .mood(let colors, let valence):
            try drawMood(colors: colors, valence: valence, in: box)
        case .map(let field, _, let pins, let routes):
            guard let decoded = images[field] else {
                try draw(.frame(pins: pins, routes: routes, scaleLabel: nil), in: box, images: images)
                return
            }
            // The picture fills the box, or as much of it as keeps the route and the pins in
            // view (`CardMapWindow`); they are drawn where the region puts them.
            let picture = decoded.image
            let content = Array(routes.joined()) + pins.map(\.point)
            let padding = mapPadding(routes: routes, pins: pins)
            let window = CardMapWindow(pictureWidth: picture.width, pictureHeight: picture.height,
                                       boxWidth: box.width, boxHeight: box.height, content: content, padding: padding)
            let placed = try drawMap(picture, window: window, in: box)
            drawn = CardRect(x: box.x + placed.shown.x, y: box.y + placed.shown.y,
                             width: placed.shown.width, height: placed.shown.height)
            let place: Placement = { placed.place($0, pictureWidth: picture.width, pictureHeight: picture.height) }
            if !routes.isEmpty { try drawRoutes(routes, in: box, placement: place) }
            if !pins.isEmpty { try drawPins(pins, in: box, placement: place) }
        case .frame(let pins, let routes, let scaleLabel):
            drawn = box.rect
            let onePlace = routes.isEmpty && pins.filter { $0.point.x.isFinite && $0.point.y.isFinite }.count == 1
            try drawFrame(in: box, rings: onePlace)
            if !routes.isEmpty { try drawRoutes(routes, in: box, placement: nil) }
            if !pins.isEmpty { try drawPins(pins, in: box, placement: nil) }
            if routes.isEmpty && pins.isEmpty { try drawGlyph(.pin, in: box) }
            if let scaleLabel { try drawCornerLabel(scaleLabel, in: box, part: "scale") }
        }
    }

    // MARK: Pictures

    private func drawImage(_ source: VipsImageHandle, shape: CardImageShape, in box: CardBox) throws(VipsError) -> CardRect {
        var image = try Self.srgb(source)
        let side = min(box.width, box.height)
        let radius: Double
        switch shape {
        case .rounded:
            image = try Self.fitted(image, width: box.width, height: box.height, crop: false, stop: canvas.stop)
            radius = Double(metrics.px(32))
        case .circle:
            image = try Self.fitted(image, width: side, height: side, crop: true, stop: canvas.stop)
            radius = Double(side) / 2
        case .icon:
            let iconSide = Int(Double(side) * 0.9)
            image = try Self.fitted(image, width: iconSide, height: iconSide, crop: false, stop: canvas.stop)
            radius = 0
        }
        let x = box.x + (box.width - image.width) / 2
        let y = box.y + (box.height - image.height) / 2
        // The rounded shape is computed as the picture is blended (no mask to rasterise).
        try canvas.place(image, x: x, y: y, cornerRadius: radius)
        return CardRect(x: x, y: y, width: image.width, height: image.height)
    }

    /// The map picture's window (`CardMapWindow`) cut out, resized to its size in the box,
    /// corners rounded; returns the window as drawn.
    private func drawMap(_ source: VipsImageHandle, window: CardMapWindow, in box: CardBox) throws(VipsError) -> CardMapWindow {
        var image = try Self.srgb(source)
        let crop = window.crop
        if crop.x != 0 || crop.y != 0 || crop.width != image.width || crop.height != image.height {
            let extract = try VipsOperationCall("extract_area")
            try extract.set("input", .image(image))
            try extract.set("left", .int(crop.x))
            try extract.set("top", .int(crop.y))
            try extract.set("width", .int(crop.width))
            try extract.set("height", .int(crop.height))
            try extract.build()
            image = try extract.outputImage()
        }
        image = try Self.fitted(image, width: window.shown.width, height: window.shown.height, crop: false, stop: canvas.stop)
        let drawn = window.drawn(width: image.width, height: image.height, boxWidth: box.width, boxHeight: box.height)
        try canvas.place(image, x: box.x + drawn.shown.x, y: box.y + drawn.shown.y, cornerRadius: Double(metrics.px(32)))
        return drawn
    }

    /// Box pixels kept free around a map's content: the route's markers, a pin's height above its point.
    private func mapPadding(routes: [[CardPoint]], pins: [CardPin]) -> (side: Double, top: Double, bottom: Double) {
        let route = routes.isEmpty ? 0 : routeSizes.marker + routeSizes.stroke
        guard !pins.isEmpty else { return (route, route, route) }
        let scale = pinScale(single: pins.count == 1)
        return (max(route, 14 * scale + 2), max(route, 40 * scale + 2), max(route, 4))
    }

    /// A route's stroke and start/end marker radius in this size class.
    var routeSizes: (stroke: Double, marker: Double) {
        let tile = spec.sizeClass == .tile
        return (Double(metrics.px(tile ? 9 : 14)), Double(metrics.px(tile ? 13 : 28)))
    }

    /// A pin's size unit (the pin glyph is 40 units tall, 28 wide).
    func pinScale(single: Bool) -> Double {
        let tile = spec.sizeClass == .tile
        return Double(metrics.px(single ? (tile ? 150 : 240) : (tile ? 56 : 92))) / 40
    }

    /// 8-bit sRGB with or without alpha, whatever the decode was (grey, grey + alpha).
    static func srgb(_ image: VipsImageHandle) throws(VipsError) -> VipsImageHandle {
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

    /// Resized (up or down) to fit the box, or to fill it and cropped at the centre: opaque
    /// 8-bit RGB by `CardPictureScaler`; anything else (an icon with alpha) down by libvips'
    /// `thumbnail_image` and up by a linear `resize`.
    private static func fitted(_ image: VipsImageHandle, width: Int, height: Int, crop: Bool,
                               stop: DecodeGuard?) throws(VipsError) -> VipsImageHandle {
        if let scaled = try CardPictureScaler.fitted(image, width: width, height: height, crop: crop, stop: stop) { return scaled }
        let sx = Double(max(1, width)) / Double(max(1, image.width)), sy = Double(max(1, height)) / Double(max(1, image.height))
        let scale = crop ? max(sx, sy) : min(sx, sy)
        guard scale > 1 else {
            let thumbnail = try VipsOperationCall("thumbnail_image")
            try thumbnail.set("in", .image(image))
            try thumbnail.set("width", .int(max(1, width)))
            try thumbnail.set("height", .int(max(1, height)))
            try thumbnail.set("size", .nick("both"))
            if crop { try thumbnail.set("crop", .nick("centre")) }
            try thumbnail.build()
            return try thumbnail.outputImage()
        }
        let resize = try VipsOperationCall("resize")
        try resize.set("in", .image(image))
        try resize.set("scale", .double(scale))
        try resize.set("kernel", .nick("linear"))
        try resize.build()
        var resized = try resize.outputImage()
        let targetWidth = min(resized.width, max(1, width)), targetHeight = min(resized.height, max(1, height))
        if resized.width != targetWidth || resized.height != targetHeight {
            let extract = try VipsOperationCall("extract_area")
            try extract.set("input", .image(resized))
            try extract.set("left", .int((resized.width - targetWidth) / 2))
            try extract.set("top", .int((resized.height - targetHeight) / 2))
            try extract.set("width", .int(targetWidth))
            try extract.set("height", .int(targetHeight))
            try extract.build()
            resized = try extract.outputImage()
        }
        return resized
    }

    // MARK: Vector heroes

    /// The glyph large and centred on a disc tinted with the accent colour.
    private mutating func drawGlyph(_ glyph: CardGlyph, in box: CardBox) throws(VipsError) {
        let side = min(box.width, box.height)
        let x = box.x + (box.width - side) / 2, y = box.y + (box.height - side) / 2
        do throws(CardRenderError) {
            let accent = try CardColor.rgb(colors.accent, field: "accent").bytes
            canvas.disc(centerX: Double(x) + Double(side) / 2, centerY: Double(y) + Double(side) / 2,
                         radius: Double(side) / 2 - 1, color: accent, alpha: 36)
        } catch {
            throw VipsError(message: error.message)
        }
        let glyphSide = Int(Double(side) * 0.6)
        let layer = try CardLayers.svg(CardGlyphPaths.document(glyph, color: colors.accent, side: glyphSide), stop: canvas.stop)
        try canvas.place(layer, x: x + (side - glyphSide) / 2, y: y + (side - glyphSide) / 2)
        drawn = CardRect(x: x, y: y, width: side, height: side)
    }

    /// A state of mind as a flower-like form: petals around a centre, filled with the valence
    /// colours top to bottom and outlined in the accent colour; the more pleasant, the more petals.
    private mutating func drawMood(colors moodColors: [String], valence: Double, in box: CardBox) throws(VipsError) {
        let side = min(box.width, box.height)
        let x = box.x + (box.width - side) / 2, y = box.y + (box.height - side) / 2
        var stops: [String] = []
        for color in moodColors.prefix(8) {
            guard let hex = try? CardColor.rgb(color, field: "mood").hex else { continue }
            stops.append(hex)
        }
        if stops.isEmpty { stops = [colors.accent] }
        if stops.count == 1 { stops.append(stops[0]) }
        let clamped = valence.isFinite ? min(1, max(-1, valence)) : 0
        do throws(CardRenderError) {
            var bytes: [[UInt8]] = []
            for stop in stops { bytes.append(try CardColor.rgb(stop, field: "mood").bytes) }
            let form = CardMoodForm(stops: bytes, accent: try CardColor.rgb(colors.accent, field: "accent").bytes,
                                    valence: clamped)
            form.paint(into: canvas, x: x, y: y, side: side)
        } catch {
            throw VipsError(message: error.message)
        }
        drawn = CardRect(x: x, y: y, width: side, height: side)
    }

    /// A place without a map picture: a faint tint of the accent over the hero with a
    /// graticule, or for one place rings around where its pin stands (`rings`), painted
    /// straight into the canvas (no drawing to rasterise).
    private mutating func drawFrame(in box: CardBox, rings: Bool = false) throws(VipsError) {
        let accent: [UInt8]
        do throws(CardRenderError) { accent = try CardColor.rgb(colors.accent, field: "accent").bytes } catch {
            throw VipsError(message: error.message)
        }
        let radius = metrics.px(32)
        canvas.tint(box, color: accent, alpha: 18, radius: radius)
        let stroke = max(1, metrics.px(3))
        if rings {
            // Centred on the single pin's point (see drawPins), spaced evenly to the far corner.
            let top = 40 * pinScale(single: true)
            let cx = Double(box.x) + Double(box.width) / 2, cy = Double(box.y) + (Double(box.height) + top) / 2
            let spacing = Double(min(box.width, box.height)) / 5
            var ring = spacing
            let clip = CardBox(x: box.x + radius / 3, y: box.y + radius / 3, width: box.width - 2 * radius / 3,
                               height: box.height - 2 * radius / 3)
            while ring < Double(max(box.width, box.height)) {
                canvas.ring(centerX: cx, centerY: cy, radius: ring, width: Double(stroke), color: accent, alpha: 46, clip: clip)
                ring += spacing
            }
            return
        }
        let cell = max(8, min(box.width, box.height) / 4)
        var x = box.x + (box.width % cell) / 2
        while x < box.x + box.width {
            if x > box.x + radius && x < box.x + box.width - radius {
                canvas.tint(CardBox(x: x - stroke / 2, y: box.y, width: stroke, height: box.height), color: accent, alpha: 38)
            }
            x += cell
        }
        var y = box.y + (box.height % cell) / 2
        while y < box.y + box.height {
            if y > box.y + radius && y < box.y + box.height - radius {
                canvas.tint(CardBox(x: box.x, y: y - stroke / 2, width: box.width, height: stroke), color: accent, alpha: 38)
            }
            y += cell
        }
    }

    /// A short text (the scale, "+N") in the first corner of the hero where it hits no pin
    /// and no label already drawn; left out when every corner is taken, and on a tile.
    private mutating func drawCornerLabel(_ label: String, in box: CardBox, part: String) throws(VipsError) {
        guard spec.sizeClass != .tile || part == "more", !CardTextFitter.isBlank(label),
              let fitted = CardTextFitter.fit(label, style: CardTextStyle(
                  weight: part == "scale" ? .medium : .semibold, color: part == "scale" ? colors.secondary : colors.foreground,
                  width: box.width / 2, size: metrics.floor, minimumSize: metrics.floor, maxLines: 1, maxHeight: nil))
        else { return }
        let pad = metrics.px(20)
        let w = fitted.measurement.logical.width, h = fitted.measurement.logical.height
        let corners = [
            CardRect(x: box.x + box.width - pad - w, y: box.y + box.height - pad - h, width: w, height: h),
            CardRect(x: box.x + pad, y: box.y + box.height - pad - h, width: w, height: h),
            CardRect(x: box.x + box.width - pad - w, y: box.y + pad, width: w, height: h),
            CardRect(x: box.x + pad, y: box.y + pad, width: w, height: h),
        ]
        let pinsTaken = pins.map { $0.insetBy(-metrics.px(4)) }
        let platesTaken = texts.map { plateRect($0.box) } + plates
        guard let spot = corners.first(where: { rect in
            let plate = plateRect(rect).insetBy(-metrics.px(2))
            return !pinsTaken.contains { $0.intersects(rect) } && !platesTaken.contains { $0.intersects(plate) }
        }) else {
            warnings.append("\(part): no free corner; left out")
            return
        }
        drawPlate(behind: spot, in: box)
        try drawLabel(fitted, at: spot, part: part)
    }

    private mutating func drawInitials(_ text: String, background: String, foreground: String,
                                       in box: CardBox) throws(VipsError) {
        let side = min(box.width, box.height)
        let disc: [UInt8], ink: String
        do throws(CardRenderError) {
            disc = try CardColor.rgb(background, field: "initials background").bytes
            ink = try CardColor.rgb(foreground, field: "initials foreground").hex
        } catch {
            throw VipsError(message: error.message)
        }
        let top = box.y + (box.height - side) / 2
        let left = box.x + (box.width - side) / 2
        canvas.disc(centerX: Double(left) + Double(side) / 2, centerY: Double(top) + Double(side) / 2,
                    radius: Double(side) / 2, color: disc, alpha: 255)
        drawn = CardRect(x: left, y: top, width: side, height: side)
        // At most a few characters, never wrapped; centred by their ink.
        let letters = String(CardTextFitter.normalised(text.prefix(64)).prefix(3))
        guard !letters.isEmpty else { return }
        let size = Double(side) * 0.40
        guard let fitted = CardTextFitter.fit(letters, style: CardTextStyle(
            weight: .semibold, color: ink, width: Int(Double(side) * 0.8), size: size,
            minimumSize: size * 0.6, maxLines: 1, maxHeight: nil)) else {
            throw VipsError(message: "Pango could not lay the initials out")
        }
        let layer = try CardLayers.text(fitted, stop: canvas.stop)
        let textX = left + (side - layer.image.width) / 2, textY = top + (side - layer.image.height) / 2
        try canvas.place(layer.image, x: textX, y: textY, ink: layer.ink)
        texts.append(CardTextRun(part: "initials", text: fitted.shown,
                                 box: CardRect(x: textX, y: textY, width: layer.image.width, height: layer.image.height),
                                 pixelSize: fitted.size))
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

    /// Where a unit-frame point goes relative to the box' top left: given (a map picture's
    /// region) or fitted to the points (`FrameFit`).
    typealias Placement = (CardPoint) -> (x: Double, y: Double)

    private mutating func drawRoutes(_ routes: [[CardPoint]], in box: CardBox, placement: Placement?) throws(VipsError) {
        let cleaned = routes.map { $0.filter { $0.x.isFinite && $0.y.isFinite } }.filter { !$0.isEmpty }
        guard !cleaned.isEmpty else {
            warnings.append("route: no points; drawn as a glyph")
            try drawGlyph(.workout, in: box)
            return
        }
        let total = cleaned.reduce(0) { $0 + $1.count }
        let stride = max(1, (total + Self.maxRoutePoints - 1) / Self.maxRoutePoints)
        if stride > 1 { warnings.append("route: \(total) points thinned to every \(stride)th") }
        let (stroke, marker) = routeSizes
        let inset = marker + stroke
        let fit = FrameFit(points: Array(cleaned.joined()), x: inset, y: inset,
                           width: max(1, Double(box.width) - 2 * inset), height: max(1, Double(box.height) - 2 * inset))
        let position: Placement = placement ?? { fit.map($0) }
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
        guard maxX > minX, maxY > minY else { return }
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
            // Start: a filled dot ringed in the background; end: a ring with a dot (a target).
            markers += "<circle cx=\"\(n(end.x - minX))\" cy=\"\(n(end.y - minY))\" r=\"\(n(marker))\" "
                + "fill=\"\(backgroundHex)\" stroke=\"\(colors.accent)\" stroke-width=\"\(n(stroke * 0.8))\"/>"
                + "<circle cx=\"\(n(end.x - minX))\" cy=\"\(n(end.y - minY))\" r=\"\(n(marker * 0.35))\" fill=\"\(colors.accent)\"/>"
            markers += "<circle cx=\"\(n(start.x - minX))\" cy=\"\(n(start.y - minY))\" r=\"\(n(marker))\" "
                + "fill=\"\(colors.accent)\" stroke=\"\(backgroundHex)\" stroke-width=\"\(n(stroke * 0.5))\"/>"
        }
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\
            <g fill="none" stroke="\(colors.accent)" stroke-width="\(n(stroke))" stroke-linecap="round" \
            stroke-linejoin="round">\(paths)</g>\(markers)</svg>
            """
        try canvas.place(try CardLayers.svg(svg, stop: canvas.stop), x: box.x + Int(minX), y: box.y + Int(minY))
    }

    private mutating func drawPins(_ given: [CardPin], in box: CardBox, placement: Placement?) throws(VipsError) {
        let shown = given.filter { $0.point.x.isFinite && $0.point.y.isFinite }.prefix(Self.maxPins)
        guard !shown.isEmpty else {
            warnings.append("pins: none with coordinates; drawn as a glyph")
            try drawGlyph(.pin, in: box)
            return
        }
        if given.count > shown.count { warnings.append("pins: \(shown.count) of \(given.count) shown") }
        let single = shown.count == 1
        let pinScale = pinScale(single: single)
        let n = CardLayers.number
        // The pin's tip sits on its point; the area leaves room for the tallest pin above
        // and half a pin beside.
        let top = 40 * pinScale, side = 14 * pinScale
        let fit = FrameFit(points: shown.map(\.point), x: side, y: top, width: max(1, Double(box.width) - 2 * side),
                           height: max(1, Double(box.height) - top - 4))
        var tips: [(x: Double, y: Double)] = []
        for pin in shown {
            if let placement {
                tips.append(placement(pin.point))
            } else {
                tips.append(single ? (Double(box.width) / 2, (Double(box.height) + top) / 2) : fit.map(pin.point))
            }
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
            pins.append(CardRect(x: box.x + Int((tip.x - side).rounded(.down)), y: box.y + Int((tip.y - top).rounded(.down)),
                                 width: Int((2 * side).rounded(.up)), height: Int(top.rounded(.up))))
        }
        guard maxX > minX, maxY > minY else { return }
        let width = max(1, Int((maxX - minX).rounded(.up))), height = max(1, Int((maxY - minY).rounded(.up)))
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\(body)</svg>
            """
        try canvas.place(try CardLayers.svg(svg, stop: canvas.stop), x: box.x + Int(minX), y: box.y + Int(minY))
        guard !single else { return }
        try drawPinLabels(Array(zip(shown, tips)), in: box, pinScale: pinScale)
    }

    /// Labels beside their pins where they hit no pin, no other label and stay in the hero:
    /// right of the pin's head, left of it, above, below; a label that fits nowhere is left
    /// out and counted in a "+N" in a free corner.
    private mutating func drawPinLabels(_ placed: [(CardPin, (x: Double, y: Double))], in box: CardBox,
                                        pinScale: Double) throws(VipsError) {
        let size = metrics.floor
        // Labels keep clear of the pins by `gap`, more than their plates reach beyond them.
        let gap = metrics.px(12)
        let bounds = box.rect
        let pinsTaken = pins.map { $0.insetBy(-metrics.px(4)) }
        var platesTaken = texts.map { plateRect($0.box) } + plates
        var left = 0
        var labelled = 0
        for (pin, tip) in placed {
            guard let label = pin.label, !CardTextFitter.isBlank(label) else { continue }
            guard labelled < Self.maxPinLabels, let fitted = CardTextFitter.fit(label, style: CardTextStyle(
                weight: .semibold, color: colors.foreground, width: box.width / 2, size: size, minimumSize: size,
                maxLines: 1, maxHeight: nil)) else { left += 1; continue }
            let w = fitted.measurement.logical.width, h = fitted.measurement.logical.height
            let headX = box.x + Int(tip.x), headY = box.y + Int(tip.y - 25 * pinScale)
            let side = Int(14 * pinScale), top = Int(40 * pinScale)
            let candidates = [
                CardRect(x: headX + side + gap, y: headY - h / 2, width: w, height: h),
                CardRect(x: headX - side - gap - w, y: headY - h / 2, width: w, height: h),
                CardRect(x: headX - w / 2, y: box.y + Int(tip.y) - top - gap - h, width: w, height: h),
                CardRect(x: headX - w / 2, y: box.y + Int(tip.y) + gap, width: w, height: h),
            ]
            // The label stays in the hero and clear of the pins, its plate clear of other plates.
            guard let spot = candidates.first(where: { rect in
                let plate = plateRect(rect).insetBy(-metrics.px(2))
                return rect.x >= bounds.x && rect.y >= bounds.y && rect.x + rect.width <= bounds.x + bounds.width
                    && rect.y + rect.height <= bounds.y + bounds.height && !pinsTaken.contains { $0.intersects(rect) }
                    && !platesTaken.contains { $0.intersects(plate) }
            }) else { left += 1; continue }
            drawPlate(behind: spot, in: box)
            try drawLabel(fitted, at: spot, part: "pinLabel")
            platesTaken.append(plateRect(spot))
            labelled += 1
        }
        guard left > 0 else { return }
        warnings.append("pins: \(left) labels left out")
        try drawCornerLabel("+\(left)", in: box, part: "more")
    }

    /// The plate behind a label's box: a few pixels wider and taller on each side (less
    /// than the gap pin labels keep from their pins, so a plate never covers a pin).
    private func plateRect(_ label: CardRect) -> CardRect {
        let dx = metrics.px(6), dy = metrics.px(3)
        return CardRect(x: label.x - dx, y: label.y - dy, width: label.width + 2 * dx, height: label.height + 2 * dy)
    }

    /// An opaque rounded plate of the card's background behind a label in the hero, so the
    /// graticule, rings or map picture do not run through the letters: the label keeps the
    /// APCA contrast its colour was chosen for on the background. Costs the plate's area.
    /// The plate is cut at the hero's edges.
    private mutating func drawPlate(behind label: CardRect, in box: CardBox) {
        let plate = plateRect(label)
        plates.append(plate)
        guard let color = try? CardColor.rgb(backgroundHex, field: "background").bytes else { return }
        let left = max(plate.x, box.x), top = max(plate.y, box.y)
        let right = min(plate.x + plate.width, box.x + box.width), bottom = min(plate.y + plate.height, box.y + box.height)
        guard right > left, bottom > top else { return }
        canvas.tint(CardBox(x: left, y: top, width: right - left, height: bottom - top), color: color, alpha: 255,
                    radius: min(metrics.px(10), (bottom - top) / 2))
    }

    private mutating func drawLabel(_ fitted: FittedText, at spot: CardRect, part: String) throws(VipsError) {
        let layer = try CardLayers.text(fitted, stop: canvas.stop)
        try canvas.place(layer.image, x: spot.x + layer.lineDx, y: spot.y + layer.dy, ink: layer.ink)
        texts.append(CardTextRun(part: part, text: fitted.shown, box: spot, pixelSize: fitted.size))
        missingGlyphs += fitted.measurement.unknownGlyphs
        truncated = truncated || fitted.truncated
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
