import CVips
import Foundation
import JournalMediaCore

/// Draws a `CardSpec` into pixels: the background, the hero (picture, glyph, initials,
/// route or pins), a badge, the headline (wrapped, shrunk to fit, then ellipsised), up to
/// three supporting lines, chips ("+N" for those that do not fit) and a footnote. It
/// decides nothing about content; `CardSpecBuilder` did that.
///
/// Runs on the caller's thread (one libvips thread), once per appearance. Costs a few
/// Pango layouts per text, one libvips `text` rasterisation per text drawn, one SVG
/// rasterisation per vector element, and one pass over the canvas' pixels to compose;
/// input sizes (a 1 MB headline, 10,000 chips, a million route points) are bounded before
/// any of that (Benchmarks/RESULTS.md has the measured figure).
public enum CardRenderer {
    /// Largest canvas side accepted, in pixels.
    public static let maxSide = 4096

    /// Draws `spec`. `images`: decoded pictures for `.image(field:)` heroes, keyed by
    /// field name; a hero whose picture is missing is drawn as the `.unknown` glyph and
    /// reported in `warnings`.
    public static func render(_ spec: CardSpec, images: [String: DecodedImage]) throws(CardRenderError) -> RenderedCard {
        guard (16...maxSide).contains(spec.width), (16...maxSide).contains(spec.height) else {
            throw .invalidSpec("canvas \(spec.width)×\(spec.height) is outside 16…\(maxSide) pixels a side")
        }
        do throws(VipsError) { try VipsRuntime.ensure() } catch {
            throw .drawing(stage: "start", message: error.message)
        }
        var drawing = try CardDrawing(spec: spec)
        try drawing.drawHero(images: images)
        try drawing.drawTexts()
        let image = drawing.canvas.finished()
        return RenderedCard(image: DecodedImage(image: image, hasRealTransparency: false),
                            missingGlyphs: drawing.missingGlyphs, headlineFontSize: drawing.headlineFontSize,
                            truncated: drawing.truncated, warnings: drawing.warnings)
    }
}

/// Where things go on a card, in pixels, scaled from the 1200×1500 design.
struct CardMetrics {
    let width: Int
    let height: Int
    let scale: Double

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        scale = min(Double(width) / 1200, Double(height) / 1500)
    }

    func px(_ design: Double) -> Int { max(1, Int((design * scale).rounded())) }
    func size(_ design: Double) -> Double { max(6, (design * scale).rounded()) }

    var margin: Int { px(96) }
    var contentWidth: Int { width - 2 * margin }
    /// Height of a large hero (route, pins, a picture).
    var largeHeroHeight: Int { Int((Double(height) * 0.44).rounded()) }
    /// Side of a small hero (glyph, initials, avatar, icon).
    var smallHeroSide: Int { px(280) }
    var heroGap: Int { px(64) }
}

/// The state of one card being drawn: the canvas, the running text block position, and
/// what has been given up so far.
struct CardDrawing {
    let spec: CardSpec
    let metrics: CardMetrics
    let canvas: CardCanvas
    let colors: CardColors
    var missingGlyphs = 0
    var headlineFontSize = 0.0
    var truncated = false
    var warnings: [String] = []
    /// Where the text block starts (below the hero).
    var textTop: Int

    init(spec: CardSpec) throws(CardRenderError) {
        self.spec = spec
        metrics = CardMetrics(width: spec.width, height: spec.height)
        canvas = try CardCanvas(width: spec.width, height: spec.height, background: spec.background)
        textTop = metrics.margin
        colors = try CardColors(spec)
    }

    mutating func drawHero(images: [String: DecodedImage]) throws(CardRenderError) {
        guard let hero = spec.hero else { return }
        let m = metrics
        let large: Bool
        switch hero {
        case .route, .pins: large = true
        case .image(_, let shape): large = shape == .rounded
        case .glyph, .initials: large = false
        }
        let box = large
            ? CardBox(x: m.margin, y: m.margin, width: m.contentWidth, height: m.largeHeroHeight)
            : CardBox(x: m.margin, y: m.margin, width: m.smallHeroSide, height: m.smallHeroSide)
        var painter = CardHeroPainter(spec: spec, metrics: m, canvas: canvas, colors: colors)
        do throws(VipsError) {
            try painter.draw(hero, in: box, images: images)
        } catch {
            throw .drawing(stage: "hero", message: error.message)
        }
        missingGlyphs += painter.missingGlyphs
        truncated = truncated || painter.truncated
        warnings += painter.warnings
        textTop = box.y + box.height + m.heroGap
    }

    /// Fits `text` in `style`, counting what Pango reports.
    private mutating func fit(_ text: String, _ style: CardTextStyle, stage: String) throws(CardRenderError) -> FittedText? {
        guard !CardTextFitter.isBlank(text) else { return nil }
        guard let fitted = CardTextFitter.fit(text, style: style) else {
            throw .drawing(stage: stage, message: "Pango could not lay the text out")
        }
        return fitted
    }

    /// Draws a fitted text with its layout origin at (`x`, `y`) and records its counts.
    /// `ownWidth`: x is where the text's own extent starts, not its wrap box (a badge).
    private mutating func draw(_ fitted: FittedText, x: Int, y: Int, ownWidth: Bool = false,
                               stage: String) throws(CardRenderError) {
        do throws(VipsError) {
            let layer = try CardLayers.text(fitted)
            try canvas.place(layer.image, x: x + (ownWidth ? layer.lineDx : layer.dx), y: y + layer.dy)
        } catch {
            throw .drawing(stage: stage, message: error.message)
        }
        missingGlyphs += fitted.measurement.unknownGlyphs
        truncated = truncated || fitted.truncated
    }

    /// How the text block sits: below a large hero, anchored to the bottom beside a small
    /// one (the glyph at the top, the words at the bottom), or centred on a text-only card.
    enum BlockPlacement { case belowHero, bottom, centred }

    var placement: BlockPlacement {
        switch spec.hero {
        case nil: return .centred
        case .route, .pins: return .belowHero
        case .image(_, let shape): return shape == .rounded ? .belowHero : .bottom
        case .glyph, .initials: return .bottom
        }
    }

    mutating func drawTexts() throws(CardRenderError) {
        let m = metrics
        let width = m.contentWidth
        let hasHero = spec.hero != nil
        var bottom = m.height - m.margin

        // Footnote: one line at the bottom.
        if let footnote = spec.footnote,
           let fitted = try fit(footnote, CardTextStyle(
               weight: .regular, color: colors.secondary, width: width, size: m.size(36),
               minimumSize: m.size(28), maxLines: 1, maxHeight: nil), stage: "footnote") {
            let y = bottom - fitted.measurement.logical.height
            try draw(fitted, x: m.margin, y: y, stage: "footnote")
            bottom = y - m.px(48)
        }

        // Badge, lines: one line each; measured before the headline, which takes the rest.
        var badge: FittedText? = nil
        if let text = spec.badge {
            badge = try fit(text, CardTextStyle(
                weight: .semibold, color: colors.accent, width: width / 2, size: m.size(30),
                minimumSize: m.size(24), maxLines: 1, maxHeight: nil), stage: "badge")
        }
        var lines: [FittedText] = []
        for text in spec.lines.prefix(3) {
            if let fitted = try fit(text, CardTextStyle(
                weight: .regular, color: colors.secondary, width: width, size: m.size(46),
                minimumSize: m.size(34), maxLines: 1, maxHeight: nil), stage: "lines") {
                lines.append(fitted)
            }
        }
        if spec.lines.count > 3 { warnings.append("lines: 3 of \(spec.lines.count) shown") }
        let badgePadding = m.px(14)
        let badgeBlock = badge.map { $0.measurement.logical.height + 2 * badgePadding + m.px(28) } ?? 0
        let lineGap = m.px(10)
        let linesGap = m.px(24)
        func linesBlock() -> Int {
            lines.isEmpty ? 0 : linesGap + lines.map { $0.measurement.logical.height + lineGap }.reduce(0, +) - lineGap
        }
        let headlineSize = hasHero ? m.size(92) : m.size(116)
        let minimumHeadline = hasHero ? m.size(56) : m.size(60)
        let oneLine = Int((minimumHeadline * 1.4).rounded(.up))
        // On a crowded small canvas supporting lines give way to the headline.
        while bottom - textTop - badgeBlock - linesBlock() < oneLine, !lines.isEmpty {
            lines.removeLast()
            warnings.append("lines: \(lines.count) of \(min(3, spec.lines.count)) shown")
        }

        // Chips: as many rows (up to three) as fit below a one-line headline.
        var chips = CardChipLayout(spec: spec, metrics: m, canvas: canvas, colors: colors)
        let chipsGap = m.px(40)
        var chipPlan = CardChipLayout.Plan(chips: [], rows: 0, height: 0)
        if !spec.chips.isEmpty {
            let room = bottom - textTop - badgeBlock - linesBlock() - oneLine - chipsGap
            let rowHeight = CardChipLayout.rowHeight(metrics: m), gap = CardChipLayout.gap(metrics: m)
            do throws(VipsError) {
                chipPlan = try chips.plan(rows: max(0, (room + gap) / (rowHeight + gap)))
            } catch {
                throw .drawing(stage: "chips", message: error.message)
            }
        }
        let chipsBlock = chipPlan.chips.isEmpty ? 0 : chipsGap + chipPlan.height

        // Headline: whatever height is left, at most 3 lines beside a hero, 7 on a text card.
        let available = bottom - textTop - badgeBlock - linesBlock() - chipsBlock
        let headline = try fit(spec.headline, CardTextStyle(
            weight: .bold, color: colors.foreground, width: width, size: headlineSize, minimumSize: minimumHeadline,
            maxLines: hasHero ? 3 : 7, maxHeight: max(oneLine, available)), stage: "headline")
        if headline == nil { warnings.append("headline: empty") }
        headlineFontSize = headline?.size ?? 0
        let headlineHeight = headline?.measurement.logical.height ?? 0
        let block = badgeBlock + headlineHeight + linesBlock() + chipsBlock
        var y: Int
        switch placement {
        case .belowHero: y = textTop
        case .bottom: y = max(textTop, bottom - block)
        case .centred: y = max(textTop, textTop + (bottom - textTop - block) / 2)
        }
        if let badge {
            do throws(VipsError) {
                try drawBadgeFrame(badge, x: m.margin, y: y, padding: badgePadding)
            } catch {
                throw .drawing(stage: "badge", message: error.message)
            }
            try draw(badge, x: m.margin + 2 * badgePadding, y: y + badgePadding, ownWidth: true,
                     stage: "badge")
            y += badgeBlock
        }
        if let headline { try draw(headline, x: m.margin, y: y, stage: "headline") }
        y += headlineHeight
        if !lines.isEmpty { y += linesGap }
        for line in lines {
            try draw(line, x: m.margin, y: y, stage: "lines")
            y += line.measurement.logical.height + lineGap
        }
        if !chipPlan.chips.isEmpty {
            y += chipsGap - (lines.isEmpty ? 0 : lineGap)
            do throws(VipsError) {
                try chips.draw(chipPlan, top: y)
            } catch {
                throw .drawing(stage: "chips", message: error.message)
            }
        }
        missingGlyphs += chips.missingGlyphs
        truncated = truncated || chips.truncated
        warnings += chips.warnings
    }

    /// The badge's pill: outlined in the accent colour, filled with a 12 % tint of it.
    private func drawBadgeFrame(_ badge: FittedText, x: Int, y: Int, padding: Int) throws(VipsError) {
        let width = badge.measurement.logical.width + 4 * padding
        let height = badge.measurement.logical.height + 2 * padding
        let stroke = Double(metrics.px(3))
        let n = CardLayers.number
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\
            <rect x="\(n(stroke / 2))" y="\(n(stroke / 2))" width="\(n(Double(width) - stroke))" \
            height="\(n(Double(height) - stroke))" rx="\(n(Double(height - Int(stroke)) / 2))" \
            fill="\(colors.accent)" fill-opacity="0.12" stroke="\(colors.accent)" stroke-width="\(n(stroke))"/></svg>
            """
        try canvas.place(try CardLayers.svg(svg), x: x, y: y)
    }
}

/// A rectangle on the canvas, in pixels.
struct CardBox {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}
