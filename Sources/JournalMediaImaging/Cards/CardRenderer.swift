import CVips
import Foundation
import JournalMediaCore

/// Draws a `CardSpec` into pixels in the layout of its size class (`CardMetrics`): the
/// background, the hero (picture, glyph, initials, mood, route, pins, map or frame), a
/// badge, the headline (wrapped between words, shrunk to fit, then ellipsised), supporting
/// lines, chips ("+N" for those that do not fit) and a footnote; a tile keeps the hero, the
/// headline and one line. It decides nothing about content; `CardSpecBuilder` did that,
/// and reports where each text and the hero went (`RenderedCard.layout`).
///
/// Runs on the caller's thread (one libvips thread), once per appearance; safe to call from
/// several threads at once (Pango measurement is serialised, libvips' `text` has its own
/// lock, the output is the same as drawn alone). Costs a few
/// Pango layouts per text, one libvips `text` rasterisation per text drawn, one SVG
/// rasterisation per vector element, and one pass over the canvas' pixels to compose;
/// input sizes (a 1 MB headline, 10,000 chips, a million route points) are bounded before
/// any of that.
public enum CardRenderer {
    /// Largest canvas side accepted, in pixels.
    public static let maxSide = 4096

    /// Draws `spec`. `images`: decoded pictures for `.image(field:)` heroes, keyed by
    /// field name; a hero whose picture is missing is drawn as the `.unknown` glyph and
    /// reported in `warnings`. `stop`: the caller's guard (cancellation, a deadline), which
    /// stops the layers' libvips computations between tiles.
    public static func render(_ spec: CardSpec, images: [String: DecodedImage],
                              stop: DecodeGuard? = nil) throws(CardRenderError) -> RenderedCard {
        guard (16...maxSide).contains(spec.width), (16...maxSide).contains(spec.height) else {
            throw .invalidSpec("canvas \(spec.width)×\(spec.height) is outside 16…\(maxSide) pixels a side")
        }
        do throws(VipsError) { try VipsRuntime.ensure() } catch {
            throw .drawing(stage: "start", message: error.message)
        }
        var drawing = try CardDrawing(spec: spec, stop: stop)
        try drawing.drawHero(images: images)
        try drawing.drawTexts()
        let image = drawing.canvas.finished()
        return RenderedCard(image: DecodedImage(image: image, hasRealTransparency: false),
                            missingGlyphs: drawing.missingGlyphs, headlineFontSize: drawing.headlineFontSize,
                            truncated: drawing.truncated, warnings: drawing.warnings, layout: drawing.layout)
    }
}

/// The state of one card being drawn: the canvas, where the texts go, and what has been
/// given up and drawn so far (the layout reported beside the card).
struct CardDrawing {
    let spec: CardSpec
    let metrics: CardMetrics
    let canvas: CardCanvas
    let colors: CardColors
    var missingGlyphs = 0
    var headlineFontSize = 0.0
    var truncated = false
    var warnings: [String] = []
    var layout: CardLayout
    /// The headline reads right to left (Pango then sets start-aligned text from the right).
    var rightToLeft: Bool { CardTextDirection.isRightToLeft(spec.headline) }

    init(spec: CardSpec, stop: DecodeGuard? = nil) throws(CardRenderError) {
        self.spec = spec
        metrics = CardMetrics(width: spec.width, height: spec.height, sizeClass: spec.sizeClass)
        canvas = try CardCanvas(width: spec.width, height: spec.height, background: spec.background, stop: stop)
        colors = try CardColors(spec)
        layout = CardLayout(sizeClass: spec.sizeClass, width: spec.width, height: spec.height)
    }

    var isTile: Bool { spec.sizeClass == .tile }

    /// Texts are centred under a centred hero (glyph, avatar, mood, icon) and on a text-only
    /// card; beside a landscape hero and under pictures, routes and maps they start at the
    /// text's start side.
    var centred: Bool {
        guard let hero = spec.hero else { return true }
        if spec.sizeClass == .landscape { return false }
        switch hero {
        case .glyph, .initials, .mood: return true
        case .image(_, let shape): return shape != .rounded
        case .route, .pins, .map, .frame: return false
        }
    }

    mutating func drawHero(images: [String: DecodedImage]) throws(CardRenderError) {
        guard let hero = spec.hero else { return }
        var painter = CardHeroPainter(spec: spec, metrics: metrics, canvas: canvas, colors: colors)
        do throws(VipsError) {
            try painter.draw(hero, in: metrics.heroBox, images: images)
        } catch {
            throw .drawing(stage: "hero", message: error.message)
        }
        missingGlyphs += painter.missingGlyphs
        truncated = truncated || painter.truncated
        warnings += painter.warnings
        layout.hero = painter.drawn ?? metrics.heroBox.rect
        layout.pins = painter.pins
        layout.texts += painter.texts
    }

    /// Fits `text` in `style`, counting what Pango reports.
    private mutating func fit(_ text: String, _ style: CardTextStyle, stage: String) throws(CardRenderError) -> FittedText? {
        guard !CardTextFitter.isBlank(text) else { return nil }
        guard let fitted = CardTextFitter.fit(text, style: style) else {
            throw .drawing(stage: stage, message: "Pango could not lay the text out")
        }
        return fitted
    }

    /// Draws a fitted text with its layout origin at (`x`, `y`), records its counts and its run.
    /// `ownWidth`: x is where the text's own extent starts, not its wrap box (a badge).
    private mutating func draw(_ fitted: FittedText, x: Int, y: Int, ownWidth: Bool = false,
                               part: String) throws(CardRenderError) {
        do throws(VipsError) {
            let layer = try CardLayers.text(fitted, stop: canvas.stop)
            try canvas.place(layer.image, x: x + (ownWidth ? layer.lineDx : layer.dx), y: y + layer.dy, ink: layer.ink)
        } catch {
            throw .drawing(stage: part, message: error.message)
        }
        missingGlyphs += fitted.measurement.unknownGlyphs
        truncated = truncated || fitted.truncated
        layout.texts.append(CardTextRun.of(fitted, x: x, y: y, ownWidth: ownWidth, part: part))
    }

    mutating func drawTexts() throws(CardRenderError) {
        let m = metrics
        let hasHero = spec.hero != nil
        let area = hasHero ? m.textArea : m.fullArea
        let width = area.width
        let centred = self.centred
        var bottom = area.y + area.height

        // Footnote: one line at the bottom (not on a tile).
        if !isTile, let footnote = spec.footnote,
           let fitted = try fit(footnote, CardTextStyle(
               weight: .regular, color: colors.secondary, width: width, size: m.small,
               minimumSize: m.floor, maxLines: 1, maxHeight: nil, centred: centred), stage: "footnote") {
            let y = bottom - fitted.measurement.logical.height
            try draw(fitted, x: area.x, y: y, part: "footnote")
            bottom = y - m.px(40)
        }

        // Badge and lines: one line each; measured before the headline, which takes the rest.
        var badge: FittedText? = nil
        if !isTile, let text = spec.badge {
            badge = try fit(text, CardTextStyle(
                weight: .semibold, color: colors.foreground, width: width / 2, size: m.floor,
                minimumSize: m.floor, maxLines: 1, maxHeight: nil), stage: "badge")
        }
        var lines: [FittedText] = []
        let shownLines = isTile ? Array(spec.lines.prefix(1)) : Array(spec.lines.prefix(3))
        for text in shownLines {
            if let fitted = try fit(text, CardTextStyle(
                weight: .regular, color: colors.secondary, width: width, size: m.line.size,
                minimumSize: m.line.minimum, maxLines: 1, maxHeight: nil, centred: centred), stage: "lines") {
                lines.append(fitted)
            }
        }
        if spec.lines.count > shownLines.count && !isTile { warnings.append("lines: 3 of \(spec.lines.count) shown") }
        let badgePadding = m.px(12)
        let badgeBlock = badge.map { $0.measurement.logical.height + 2 * badgePadding + m.px(24) } ?? 0
        let lineGap = m.px(8)
        let linesGap = isTile ? m.px(6) : m.px(20)
        func linesBlock() -> Int {
            lines.isEmpty ? 0 : linesGap + lines.map { $0.measurement.logical.height + lineGap }.reduce(0, +) - lineGap
        }
        let headlineSizes = m.headline(hasHero: hasHero)
        let oneLine = Int((headlineSizes.minimum * 1.4).rounded(.up))
        // On a crowded canvas supporting lines give way to the headline.
        while bottom - area.y - badgeBlock - linesBlock() < oneLine, !lines.isEmpty {
            lines.removeLast()
            warnings.append("lines: \(lines.count) of \(min(3, spec.lines.count)) shown")
        }

        // Chips: as many rows (up to three) as fit below a one-line headline (not on a tile).
        var chips = CardChipLayout(spec: spec, metrics: m, canvas: canvas, colors: colors,
                                   column: CardBox(x: area.x, y: 0, width: width, height: 0), centred: centred)
        let chipsGap = m.px(32)
        var chipPlan = CardChipLayout.Plan(chips: [], rows: 0, height: 0)
        if !spec.chips.isEmpty && !isTile {
            let room = bottom - area.y - badgeBlock - linesBlock() - oneLine - chipsGap
            let rowHeight = CardChipLayout.rowHeight(metrics: m), gap = CardChipLayout.gap(metrics: m)
            do throws(VipsError) {
                chipPlan = try chips.plan(rows: max(0, (room + gap) / (rowHeight + gap)))
            } catch {
                throw .drawing(stage: "chips", message: error.message)
            }
        }
        let chipsBlock = chipPlan.chips.isEmpty ? 0 : chipsGap + chipPlan.height

        // Headline: whatever height is left, names of a list held together.
        let available = bottom - area.y - badgeBlock - linesBlock() - chipsBlock
        let headline = try fit(CardHeadlineBreaks.glued(spec.headline, keeping: spec.keepTogether), CardTextStyle(
            weight: .bold, color: colors.foreground, width: width, size: headlineSizes.size,
            minimumSize: headlineSizes.minimum, maxLines: headlineSizes.lines, maxHeight: max(oneLine, available),
            centred: centred), stage: "headline")
        if headline == nil { warnings.append("headline: empty") }
        headlineFontSize = headline?.size ?? 0
        let headlineHeight = headline?.measurement.logical.height ?? 0
        let block = badgeBlock + headlineHeight + linesBlock() + chipsBlock
        // A portrait stacks the texts under its hero; elsewhere the block is centred in its area.
        var y = hasHero && spec.sizeClass == .portrait ? area.y : max(area.y, area.y + (bottom - area.y - block) / 2)
        if let badge {
            let badgeWidth = badge.measurement.logical.width + 4 * badgePadding
            let badgeX = centred ? area.x + (width - badgeWidth) / 2
                : rightToLeft ? area.x + width - badgeWidth : area.x
            do throws(VipsError) {
                try drawBadgeFrame(badge, x: badgeX, y: y, padding: badgePadding)
            } catch {
                throw .drawing(stage: "badge", message: error.message)
            }
            try draw(badge, x: badgeX + 2 * badgePadding, y: y + badgePadding, ownWidth: true, part: "badge")
            y += badgeBlock
        }
        if let headline { try draw(headline, x: area.x, y: y, part: "headline") }
        y += headlineHeight
        if !lines.isEmpty { y += linesGap }
        for line in lines {
            try draw(line, x: area.x, y: y, part: "line")
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
        layout.texts += chips.runs
    }

    /// The badge's pill: filled with an 18 % tint of the accent colour, the text in the headline's.
    private func drawBadgeFrame(_ badge: FittedText, x: Int, y: Int, padding: Int) throws(VipsError) {
        let width = badge.measurement.logical.width + 4 * padding
        let height = badge.measurement.logical.height + 2 * padding
        let stroke = Double(metrics.px(3))
        let n = CardLayers.number
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)">\
            <rect x="\(n(stroke / 2))" y="\(n(stroke / 2))" width="\(n(Double(width) - stroke))" \
            height="\(n(Double(height) - stroke))" rx="\(n(Double(height - Int(stroke)) / 2))" \
            fill="\(colors.accent)" fill-opacity="0.18"/></svg>
            """
        try canvas.place(try CardLayers.svg(svg, stop: canvas.stop), x: x, y: y)
    }
}

extension CardTextRun {
    /// The run of a fitted text whose layout origin is at (`x`, `y`): its logical box on the
    /// canvas, its size, the text shown (names' glue removed).
    static func of(_ fitted: FittedText, x: Int, y: Int, ownWidth: Bool = false, part: String) -> CardTextRun {
        let logical = fitted.measurement.logical
        let left = ownWidth ? x : x + logical.x
        return CardTextRun(part: part, text: CardHeadlineBreaks.unglued(fitted.shown),
                           box: CardRect(x: left, y: y + logical.y, width: logical.width, height: logical.height),
                           pixelSize: fitted.size)
    }
}

/// Where a list headline ("Gyeongbokgung, Bukchon and N Seoul Tower") may break: between
/// the names (after a comma, before the conjunction), never inside one. Each name is glued
/// with no-break spaces and word joiners (U+2060) before Pango sees it, and the conjunction
/// is glued to the last name; the glue is removed again from what the layout reports.
enum CardHeadlineBreaks {
    static let joiner: Character = "\u{2060}"
    static let noBreakSpace: Character = "\u{00A0}"

    static func glued(_ headline: String, keeping names: [String]) -> String {
        var result = headline
        for name in names where !name.isEmpty && name.count <= 80 {
            guard let range = result.range(of: name) else { continue }
            let glued = glue(name)
            // The space before a name that does not follow a comma is glued too ("and C").
            var lower = range.lowerBound
            var prefix = ""
            if lower > result.startIndex {
                let before = result.index(before: lower)
                if result[before] == " ", before > result.startIndex,
                   ![",", "、", "，", "،"].contains(result[result.index(before: before)]) {
                    lower = before
                    prefix = String(noBreakSpace)
                }
            }
            result.replaceSubrange(lower..<range.upperBound, with: prefix + glued)
        }
        return result
    }

    /// The name with its spaces made no-break and a word joiner between characters of
    /// scripts that break between letters (CJK, Thai, …) and after hyphens; scripts whose
    /// letters join (Arabic, Indic) are left alone, they break only at spaces.
    static func glue(_ name: String) -> String {
        var out = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == " " { out.append(noBreakSpace); continue }
            out.append(character)
            guard index + 1 < characters.count, characters[index + 1] != " " else { continue }
            let value = character.unicodeScalars.first?.value ?? 0
            let joins = (0x0590...0x0DFF).contains(value) || (0xFB1D...0xFEFF).contains(value)
            if !joins { out.append(joiner) }
        }
        return out
    }

    static func unglued(_ text: String) -> String {
        String(text.compactMap { $0 == joiner ? nil : ($0 == noBreakSpace ? " " : $0) })
    }
}
