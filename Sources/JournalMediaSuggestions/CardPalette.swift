import Foundation
import JournalMediaCore

/// The colours of a card, with the contrast figures that justify them (written to the
/// output's `suggestion.json`).
public struct CardColorReport: Sendable, Equatable, Codable {
    /// The background as drawn: one colour, or the gradient's stop colours top to bottom.
    public var background: [String]
    /// The background the bundle or the artwork asked for, when it had to be changed to
    /// reach the contrast targets; nil when drawn as asked.
    public var requestedBackground: [String]?
    public var foreground: String
    public var secondaryForeground: String
    public var accent: String
    /// APCA Lc of the headline colour on the background (the weakest stop of a gradient):
    /// |Lc| ≥ 75.
    public var headlineLc: Double
    /// APCA Lc of the supporting text colour on the background (weakest stop): |Lc| ≥ 60.
    public var bodyLc: Double
}

/// Chooses a card's text and accent colours for a background, and moves the background's
/// tone just far enough when it cannot carry text: the headline colour (black or white, by
/// the toolkit's APCA rule, `ForegroundChooser`) must reach |Lc| ≥ 75 and the supporting
/// text colour |Lc| ≥ 60 on every stop. The hue is kept; only OKLab lightness moves, in
/// steps of 0.01, away from the text colour.
///
/// Runs twice per card (light and dark); costs up to a few hundred contrast computations.
public enum CardPalette {
    public static let headlineTarget = 75.0
    public static let bodyTarget = 60.0
    /// Route lines, pins and glyphs: graphics, not text, but still clearly visible.
    public static let accentTarget = 45.0

    public struct Resolved: Sendable, Equatable {
        public var stops: [RGBColor]
        public var report: CardColorReport
    }

    /// Resolves the colours for a background given as one or more stops, with `accent` the
    /// card's hue for graphics.
    public static func resolve(background requested: [RGBColor], accent: RGBColor) -> Resolved {
        let stops = requested.isEmpty ? [RGBColor.white] : requested
        // The toolkit's rule for one colour; for a gradient, the colour whose weakest stop is strongest.
        let foreground: RGBColor
        if stops.count == 1 {
            foreground = ForegroundChooser.choose(for: stops[0]).foreground == "#FFFFFF" ? .white : .black
        } else {
            foreground = weakest(.white, on: stops) > weakest(.black, on: stops) ? .white : .black
        }
        let adjusted = stops.map { reachHeadline(foreground, on: $0) }
        let secondary = softened(foreground, on: adjusted)
        let accentColor = visible(accent, against: adjusted, darken: foreground == .white ? false : true)
        let report = CardColorReport(
            background: adjusted.map(\.hex),
            requestedBackground: adjusted == stops ? nil : stops.map(\.hex),
            foreground: foreground.hex, secondaryForeground: secondary.hex, accent: accentColor.hex,
            headlineLc: round1(signedWeakest(foreground, on: adjusted)),
            bodyLc: round1(signedWeakest(secondary, on: adjusted)))
        return Resolved(stops: adjusted, report: report)
    }

    /// The smallest |Lc| of `text` over the stops.
    static func weakest(_ text: RGBColor, on stops: [RGBColor]) -> Double {
        stops.map { abs(Contrast.apcaLc(text: text, background: $0)) }.min() ?? 0
    }

    static func signedWeakest(_ text: RGBColor, on stops: [RGBColor]) -> Double {
        stops.map { Contrast.apcaLc(text: text, background: $0) }.min { abs($0) < abs($1) } ?? 0
    }

    /// `background`, or the nearest tone of its hue on which `text` reaches the headline target.
    static func reachHeadline(_ text: RGBColor, on background: RGBColor) -> RGBColor {
        guard abs(Contrast.apcaLc(text: text, background: background)) < headlineTarget else { return background }
        let base = OKLab(background)
        let towardLight = text == .black
        for step in 1...100 {
            let l = towardLight ? min(1, base.l + Double(step) / 100) : max(0, base.l - Double(step) / 100)
            let candidate = OKLab.fromLCh(l: l, chroma: base.chroma, hue: base.hue).rgb
            if abs(Contrast.apcaLc(text: text, background: candidate)) >= headlineTarget { return candidate }
        }
        return towardLight ? .white : .black
    }

    /// The text colour moved toward the backgrounds' mean as far as the body target allows
    /// (at most 40 %), for a visible hierarchy between headline and supporting lines.
    static func softened(_ text: RGBColor, on stops: [RGBColor]) -> RGBColor {
        let n = Double(stops.count)
        let mean = RGBColor(red: stops.map(\.red).reduce(0, +) / n, green: stops.map(\.green).reduce(0, +) / n,
                            blue: stops.map(\.blue).reduce(0, +) / n)
        var best = text
        for step in 1...20 {
            let t = Double(step) * 0.02
            let candidate = mean.composited(alpha: t, over: text)
            guard weakest(candidate, on: stops) >= bodyTarget + 2 else { break }
            best = candidate
        }
        return best
    }

    /// `accent` with its lightness moved until it stands out from every stop.
    static func visible(_ accent: RGBColor, against stops: [RGBColor], darken: Bool) -> RGBColor {
        if weakest(accent, on: stops) >= accentTarget { return accent }
        let base = OKLab(accent)
        for step in 1...100 {
            let l = darken ? max(0, base.l - Double(step) / 100) : min(1, base.l + Double(step) / 100)
            let candidate = OKLab.fromLCh(l: l, chroma: base.chroma, hue: base.hue).rgb
            if weakest(candidate, on: stops) >= accentTarget { return candidate }
        }
        return darken ? .black : .white
    }

    static func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }

    /// The light and dark card backgrounds of a hue (`ImageColorAnalyzer.cardColors`: a
    /// pale tint and a deep shade).
    public static func typeBackgrounds(seed: RGBColor) -> (light: RGBColor, dark: RGBColor) {
        let colors = ImageColorAnalyzer.cardColors(seed: OKLab(seed))
        return ((try? RGBColor.parse(colors.light.background)) ?? .white,
                (try? RGBColor.parse(colors.dark.background)) ?? .black)
    }

    /// The 7-step valence palette, very unpleasant (indigo) to very pleasant (orange), as
    /// mid-tone seeds; cards use a light or deep two-stop gradient of the seed's hue.
    public static let valenceSeeds: [RGBColor] = [
        RGBColor(0x5E, 0x5C, 0xE6), RGBColor(0x4F, 0x7C, 0xE8), RGBColor(0x3A, 0xA8, 0xD8),
        RGBColor(0x6B, 0xB8, 0xA8), RGBColor(0x9C, 0xC8, 0x4E), RGBColor(0xF2, 0xB8, 0x2A),
        RGBColor(0xF5, 0x8A, 0x1F),
    ]

    public static func valenceGradient(index: Int, dark: Bool) -> [RGBColor] {
        let seed = OKLab(valenceSeeds[min(6, max(0, index))])
        let (top, bottom) = dark ? (0.36, 0.26) : (0.95, 0.86)
        return [OKLab.fromLCh(l: top, chroma: min(seed.chroma, 0.09), hue: seed.hue).rgb,
                OKLab.fromLCh(l: bottom, chroma: min(seed.chroma, 0.12), hue: seed.hue).rgb]
    }

    /// A stable colour for a contact's initials disc, from the name's UTF-8 bytes (FNV-1a):
    /// one of eight hues at a mid tone, so the same name always gets the same colour.
    public static func initialsColor(for name: String) -> RGBColor {
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        let hue = Double(hash % 8) / 8 * 2 * .pi + 0.4
        return OKLab.fromLCh(l: 0.45, chroma: 0.13, hue: hue).rgb
    }
}
