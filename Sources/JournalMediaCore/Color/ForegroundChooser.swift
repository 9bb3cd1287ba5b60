import Foundation

/// Picks the text colour for a background: black or white, whichever has the larger APCA
/// |Lc|. The naive "luminance > 0.5" and WCAG-only rules choose black on saturated blues,
/// oranges and greens where white reads better; APCA flips near screen luminance 0.34–0.36.
///
/// Runs when a reflection or card colour needs a foreground; costs two contrast
/// computations, and a search of up to 200 tones when a tinted foreground is needed.
public enum ForegroundChooser {
    /// |Lc| a foreground should reach for body-size text.
    public static let targetLc = 60.0
    /// The WCAG 2 AA ratio, used when no tone of the background's hue reaches `targetLc`.
    public static let targetWCAG = 4.5

    public static func choose(for background: RGBColor) -> ForegroundChoice {
        let onBlack = Contrast.apcaLc(text: .black, background: background)
        let onWhite = Contrast.apcaLc(text: .white, background: background)
        let foreground: RGBColor = abs(onWhite) > abs(onBlack) ? .white : .black
        let lc = foreground == .white ? onWhite : onBlack
        var choice = ForegroundChoice(
            background: background.hex, foreground: foreground.hex,
            wcagRatio: round2(Contrast.wcagRatio(foreground, background)),
            apcaLc: round1(lc), rule: "apca")
        if abs(lc) < targetLc {
            choice.accessibleForeground = accessibleForeground(on: background)
        }
        return choice
    }

    /// The least tone shift of the background's hue (in OKLab lightness, chroma kept where
    /// sRGB allows) that reaches |Lc| 60, or else WCAG 4.5; nil when neither is reachable.
    static func accessibleForeground(on background: RGBColor) -> AccessibleForeground? {
        let base = OKLab(background)
        let hue = base.hue, chroma = base.chroma
        func candidates(towardDark: Bool) -> [RGBColor] {
            stride(from: 1, through: 100, by: 1).map { step -> RGBColor in
                let l = towardDark ? base.l * (1 - Double(step) / 100) : base.l + (1 - base.l) * Double(step) / 100
                return OKLab.fromLCh(l: l, chroma: chroma, hue: hue).rgb
            }
        }
        let both = [candidates(towardDark: true), candidates(towardDark: false)]
        for (target, meets) in [
            ("apca60", { (c: RGBColor) in abs(Contrast.apcaLc(text: c, background: background)) >= targetLc }),
            ("wcag4.5", { (c: RGBColor) in Contrast.wcagRatio(c, background) >= targetWCAG }),
        ] {
            // The first passing step in each direction; the smaller shift wins.
            let found = both.compactMap { list in list.firstIndex(where: meets).map { ($0, list[$0]) } }
            if let (_, color) = found.min(by: { $0.0 < $1.0 }) {
                return AccessibleForeground(
                    color: color.hex, wcagRatio: round2(Contrast.wcagRatio(color, background)),
                    apcaLc: round1(Contrast.apcaLc(text: color, background: background)), target: target)
            }
        }
        return nil
    }

    static func round1(_ x: Double) -> Double { (x * 10).rounded() / 10 }
    static func round2(_ x: Double) -> Double { (x * 100).rounded() / 100 }
}
