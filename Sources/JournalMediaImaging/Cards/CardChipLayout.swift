import CVips
import Foundation
import JournalMediaCore

/// Lays labels out as chips (pills tinted with the accent colour around short texts in the
/// headline's colour, no outline: OCR and eyes read an outlined pill as a box, not a word),
/// row after row across the content width, as many as fit in the rows left above the
/// footnote (at most three), ending with a "+N" chip for the rest.
///
/// Runs after the headline and lines are placed. Costs one Pango layout per chip measured
/// (only chips that can still fit are measured, so 10,000 labels cost as much as a full
/// three rows), one libvips `text` per chip drawn and one SVG for all the outlines.
struct CardChipLayout {
    let spec: CardSpec
    let metrics: CardMetrics
    let canvas: CardCanvas
    let colors: CardColors
    /// The column the rows span (its x and width).
    let column: CardBox
    /// Rows centred in the column (else flowing from the text's start side).
    var centred = false
    var missingGlyphs = 0
    /// The labels drawn, for the card's layout.
    var runs: [CardTextRun] = []
    var truncated = false
    var warnings: [String] = []

    static let maxRows = 3

    static func textSize(metrics: CardMetrics) -> Double { metrics.floor }
    static func padding(metrics: CardMetrics) -> (x: Int, y: Int) { (metrics.px(24), metrics.px(10)) }
    static func gap(metrics: CardMetrics) -> Int { metrics.px(14) }

    /// A chip row's height: the text's line height plus the vertical padding.
    static func rowHeight(metrics: CardMetrics) -> Int {
        Int((textSize(metrics: metrics) * 1.4).rounded(.up)) + 2 * padding(metrics: metrics).y
    }

    private func style(maxWidth: Int) -> CardTextStyle {
        let size = Self.textSize(metrics: metrics)
        return CardTextStyle(weight: .medium, color: colors.foreground, width: maxWidth, size: size,
                             minimumSize: size, maxLines: 1, maxHeight: nil)
    }

    struct Placed {
        var text: FittedText
        var x: Int
        var row: Int
        var width: Int
        /// The "+N" chip for the labels left out.
        var more = false
    }

    /// Which chips go where: the labels that fit in `rows` rows, then "+N" for the rest.
    struct Plan {
        var chips: [Placed]
        var rows: Int
        var height: Int
    }

    /// Measures chips until `rows` rows are full, then fits the "+N" chip (dropping chips
    /// from the end until it fits). Records a warning when not every label is shown.
    mutating func plan(rows: Int) throws(VipsError) -> Plan {
        let m = metrics
        let gap = Self.gap(metrics: m)
        let padding = Self.padding(metrics: m)
        // Blank labels are not chips.
        let labels = spec.chips.lazy.filter { !CardTextFitter.isBlank($0) }
        let total = labels.count
        let rows = min(Self.maxRows, rows)
        guard rows > 0, total > 0 else {
            if total > 0 { warnings.append("chips: 0 of \(total) shown") }
            return Plan(chips: [], rows: 0, height: 0)
        }
        let contentWidth = column.width
        let labelWidth = contentWidth - 2 * padding.x
        var placed: [Placed] = []
        var x = 0, row = 0
        func chipWidth(_ fitted: FittedText) -> Int { fitted.measurement.logical.width + 2 * padding.x }
        for label in labels {
            guard let fitted = CardTextFitter.fit(label, style: style(maxWidth: labelWidth))
            else { throw VipsError(message: "Pango could not lay a chip out") }
            let width = chipWidth(fitted)
            if x > 0 && x + width > contentWidth {
                row += 1
                x = 0
            }
            if row >= rows { break }
            placed.append(Placed(text: fitted, x: x, row: row, width: width))
            x += width + gap
        }
        var more: Placed? = nil
        while placed.count < total {
            let rest = total - placed.count
            guard let fitted = CardTextFitter.fit("+\(rest)", style: style(maxWidth: labelWidth)) else {
                throw VipsError(message: "Pango could not lay a chip out")
            }
            let width = chipWidth(fitted)
            let last = placed.last
            var nextX = last.map { $0.x + $0.width + gap } ?? 0
            var nextRow = last?.row ?? 0
            if nextX > 0 && nextX + width > contentWidth {
                nextRow += 1
                nextX = 0
            }
            if nextRow < rows {
                more = Placed(text: fitted, x: nextX, row: nextRow, width: width, more: true)
                break
            }
            placed.removeLast()
        }
        if placed.count < total { warnings.append("chips: \(placed.count) of \(total) shown") }
        let all = placed + (more.map { [$0] } ?? [])
        let usedRows = all.isEmpty ? 0 : (all.map(\.row).max() ?? 0) + 1
        let rowHeight = Self.rowHeight(metrics: m)
        return Plan(chips: all, rows: usedRows, height: usedRows == 0 ? 0 : usedRows * rowHeight + (usedRows - 1) * gap)
    }

    /// Draws the planned chips with their first row's top at `top`: the outlines in one
    /// drawing, then each label.
    mutating func draw(_ plan: Plan, top: Int) throws(VipsError) {
        guard !plan.chips.isEmpty else { return }
        let m = metrics
        let rowHeight = Self.rowHeight(metrics: m)
        let gap = Self.gap(metrics: m)
        let padding = Self.padding(metrics: m)
        let contentWidth = column.width
        var rowWidths: [Int: Int] = [:]
        for chip in plan.chips { rowWidths[chip.row] = max(rowWidths[chip.row] ?? 0, chip.x + chip.width) }
        func left(_ chip: Placed) -> Int {
            if centred { return (contentWidth - (rowWidths[chip.row] ?? 0)) / 2 + chip.x }
            return rtl ? contentWidth - chip.x - chip.width : chip.x
        }
        let stroke = Double(m.px(3))
        let n = CardLayers.number
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(contentWidth)\" height=\"\(plan.height)\">"
        for chip in plan.chips {
            let y = chip.row * (rowHeight + gap)
            let x = left(chip)
            svg += "<rect x=\"\(n(Double(x) + stroke / 2))\" y=\"\(n(Double(y) + stroke / 2))\" "
                + "width=\"\(n(Double(chip.width) - stroke))\" height=\"\(n(Double(rowHeight) - stroke))\" "
                + "rx=\"\(n((Double(rowHeight) - stroke) / 2))\" fill=\"\(colors.accent)\" fill-opacity=\"0.14\"/>"
        }
        svg += "</svg>"
        try canvas.place(try CardLayers.svg(svg, stop: canvas.stop), x: column.x, y: top)
        for chip in plan.chips {
            let layer = try CardLayers.text(chip.text, stop: canvas.stop)
            let x = left(chip)
            let textHeight = chip.text.measurement.logical.height
            let y = top + chip.row * (rowHeight + gap) + (rowHeight - textHeight) / 2
            try canvas.place(layer.image, x: column.x + x + padding.x + layer.lineDx, y: y + layer.dy, ink: layer.ink)
            runs.append(CardTextRun.of(chip.text, x: column.x + x + padding.x, y: y, ownWidth: true,
                                       part: chip.more ? "more" : "chip"))
            missingGlyphs += chip.text.measurement.unknownGlyphs
            truncated = truncated || chip.text.truncated
        }
    }

    /// Chips flow from the right when the headline is right-to-left.
    var rtl: Bool { CardTextDirection.isRightToLeft(spec.headline) }
}

/// The direction of a text, by its first strong character (as Pango's auto direction does).
enum CardTextDirection {
    static func isRightToLeft(_ text: String) -> Bool {
        for scalar in text.unicodeScalars.prefix(512) {
            let value = scalar.value
            // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, Arabic supplements and
            // presentation forms.
            if (0x0590...0x08FF).contains(value) || (0xFB1D...0xFDFF).contains(value)
                || (0xFE70...0xFEFF).contains(value) {
                return true
            }
            if scalar.properties.isAlphabetic { return false }
        }
        return false
    }
}
