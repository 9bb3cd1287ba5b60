import JournalMediaCore

/// The built-in glyphs as SVG drawings on a 48×48 grid: round-capped strokes (and a few
/// fills) in one colour, drawn for this project. `CardHeroPainter` scales them to the hero.
///
/// Pure data; the cost is librsvg's rasterisation of a few shapes at the hero's size.
enum CardGlyphPaths {
    /// The SVG elements of `glyph`, to be wrapped in a group that sets stroke and fill.
    static func elements(_ glyph: CardGlyph) -> String {
        switch glyph {
        case .running:
            return circle(31, 8, 4.5, filled: true)
                + line("M28 15 L22 28") + line("M15 21 L22 15 L28 15 L34 22")
                + line("M22 28 L29 35 L27 44") + line("M22 28 L16 36 L8 37")
        case .walking:
            return circle(25, 7, 4.5, filled: true)
                + line("M25 15 L24 29") + line("M17 24 L25 16 L31 24")
                + line("M24 29 L19 44") + line("M24 29 L30 36 L31 44")
        case .cycling:
            return circle(11, 34, 8) + circle(37, 34, 8) + circle(30, 8, 4, filled: true)
                + line("M11 34 L19 21 L31 21 L37 34") + line("M19 21 L25 34 L31 21") + line("M17 16 L22 16")
        case .swimming:
            return circle(35, 14, 4.5, filled: true)
                + line("M7 26 L19 18 L29 22")
                + line("M4 34 Q9 30 14 34 T24 34 T34 34 T44 34")
                + line("M4 42 Q9 38 14 42 T24 42 T34 42 T44 42")
        case .hiking:
            return line("M4 40 L17 18 L25 30 L31 22 L44 40 Z") + line("M14 23 L17 18 L20 23")
        case .yoga:
            return circle(24, 8, 4.5, filled: true)
                + line("M24 15 L24 29") + line("M10 14 L24 21 L38 14")
                + line("M10 38 L24 30 L38 38 Z")
        case .strength:
            return line("M13 24 L35 24") + line("M7 17 L7 31") + line("M13 12 L13 36")
                + line("M35 12 L35 36") + line("M41 17 L41 31")
        case .dance:
            return circle(27, 7, 4.5, filled: true)
                + line("M26 15 L22 28") + line("M14 10 L25 18 L36 11")
                + line("M22 28 L31 35 L38 33") + line("M22 28 L18 44")
        case .workout:
            return line("M4 26 L13 26 L18 14 L24 38 L30 20 L34 26 L44 26")
        case .walkRun:
            return line("M5 36 L5 26 L15 24 L21 14 L27 20 L35 22 Q43 24 43 32 L43 36 Z")
                + line("M5 36 L43 36") + line("M19 28 L23 24") + line("M24 30 L28 26")
        case .steps:
            return ellipse(16, 22, 5.5, 9) + ellipse(32, 30, 5.5, 9)
                + circle(15, 37, 3, filled: true) + circle(33, 45, 3, filled: true)
        case .pin:
            return line(pinPath(x: 24, y: 44, size: 1)) + circle(24, 19, 5.5)
        case .pins:
            return line(pinPath(x: 17, y: 40, size: 0.72)) + circle(17, 22, 4)
                + line(pinPath(x: 33, y: 46, size: 0.72)) + circle(33, 28, 4)
        case .work:
            return rect(6, 15, 36, 26, 4) + line("M18 15 L18 10 L30 10 L30 15") + line("M6 26 L42 26")
                + line("M22 26 L22 30 L26 30 L26 26")
        case .music:
            return line("M19 36 L19 10 L38 6 L38 31") + line("M19 17 L38 13")
                + circle(14, 36, 5, filled: true) + circle(33, 31, 5, filled: true)
        case .podcast:
            return rect(18, 5, 12, 23, 6) + line("M11 22 Q11 35 24 35 Q37 35 37 22")
                + line("M24 35 L24 43") + line("M16 43 L32 43")
        case .media:
            return rect(5, 10, 38, 28, 5) + "<path d=\"M20 17 L31 24 L20 31 Z\" class=\"f\"/>"
        case .person:
            return circle(24, 16, 8) + line("M8 43 Q8 28 24 28 Q40 28 40 43")
        case .calendar:
            return rect(6, 10, 36, 32, 4) + line("M6 20 L42 20") + line("M16 5 L16 14") + line("M32 5 L32 14")
                + circle(16, 28, 2, filled: true) + circle(24, 28, 2, filled: true) + circle(32, 28, 2, filled: true)
                + circle(16, 35, 2, filled: true) + circle(24, 35, 2, filled: true)
        case .mood:
            return circle(24, 24, 18) + circle(18, 20, 2.2, filled: true) + circle(30, 20, 2.2, filled: true)
                + line("M16 29 Q24 37 32 29")
        case .quote:
            return circle(14, 30, 6, filled: true) + circle(32, 30, 6, filled: true)
                + line("M8.5 30 Q8.5 17 19 14") + line("M26.5 30 Q26.5 17 37 14")
        case .unknown:
            return circle(24, 24, 18) + line("M18.5 19 Q18.5 13 24 13 Q29.5 13 29.5 18.5 Q29.5 22 24 25 L24 28")
                + circle(24, 34, 2.2, filled: true)
        case .pictureUnavailable:
            return rect(6, 9, 36, 30, 4) + line("M6 33 L17 22 L26 31 L31 26 L42 37") + circle(32, 17, 3.2)
                + line("M4 44 L44 4")
        }
    }

    /// A map pin's outline with its tip at (`x`, `y`), 40 units tall at `size` 1.
    static func pinPath(x: Double, y: Double, size: Double) -> String {
        let n = CardLayers.number
        let top = y - 40 * size, r = 14 * size
        return "M\(n(x)) \(n(y)) C\(n(x - 3 * size)) \(n(y - 8 * size)) \(n(x - r)) \(n(top + 20 * size)) "
            + "\(n(x - r)) \(n(top + 15 * size)) A\(n(r)) \(n(r)) 0 1 1 \(n(x + r)) \(n(top + 15 * size)) "
            + "C\(n(x + r)) \(n(top + 20 * size)) \(n(x + 3 * size)) \(n(y - 8 * size)) \(n(x)) \(n(y)) Z"
    }

    private static func line(_ d: String) -> String { "<path d=\"\(d)\"/>" }

    private static func circle(_ x: Double, _ y: Double, _ r: Double, filled: Bool = false) -> String {
        "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(r)\"\(filled ? " class=\"f\"" : "")/>"
    }

    private static func ellipse(_ x: Double, _ y: Double, _ rx: Double, _ ry: Double) -> String {
        "<ellipse cx=\"\(x)\" cy=\"\(y)\" rx=\"\(rx)\" ry=\"\(ry)\"/>"
    }

    private static func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) -> String {
        "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(w)\" height=\"\(h)\" rx=\"\(r)\"/>"
    }

    /// A complete SVG document of `glyph` in `color`, `side` pixels square.
    static func document(_ glyph: CardGlyph, color: String, side: Int) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(side)" height="\(side)" viewBox="0 0 48 48">\
        <style>.f{fill:\(color);stroke:none}</style>\
        <g fill="none" stroke="\(color)" stroke-width="3.2" stroke-linecap="round" stroke-linejoin="round">\
        \(elements(glyph))</g></svg>
        """
    }
}
