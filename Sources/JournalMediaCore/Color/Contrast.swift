import Foundation

/// Contrast between a text colour and a background, by the two published measures.
///
/// - WCAG 2: relative luminance from the piecewise sRGB transfer function and the
///   Rec. 709 coefficients; ratio (L1 + 0.05) / (L2 + 0.05), 1…21.
/// - APCA 0.1.9 (APCA-W3, constants "0.0.98G-4g"): screen luminance from a plain 2.4
///   power, a soft clamp near black, separate exponents for dark-on-light and
///   light-on-dark; Lc is positive for dark text on a light background and negative
///   for light text on a dark one, about ±106 at most.
///
/// Pure arithmetic; a few hundred nanoseconds per pair.
public enum Contrast {
    /// sRGB gamma-encoded component → linear light (IEC 61966-2-1).
    public static func linear(_ c: Double) -> Double {
        c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light → gamma-encoded sRGB component.
    public static func encoded(_ c: Double) -> Double {
        let v = min(max(c, 0), 1)
        return v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    /// WCAG 2 relative luminance, 0…1.
    public static func relativeLuminance(_ c: RGBColor) -> Double {
        0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
    }

    /// WCAG 2 contrast ratio, 1…21, symmetric in its arguments.
    public static func wcagRatio(_ a: RGBColor, _ b: RGBColor) -> Double {
        let la = relativeLuminance(a), lb = relativeLuminance(b)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    // APCA 0.1.9 constants.
    private static let trc = 2.4
    private static let rCo = 0.2126729, gCo = 0.7151522, bCo = 0.0721750
    private static let normBG = 0.56, normText = 0.57, revText = 0.62, revBG = 0.65
    private static let blackThreshold = 0.022, blackClamp = 1.414
    private static let scale = 1.14, offset = 0.027, deltaYMin = 0.0005, lowClip = 0.1

    /// APCA screen luminance with the soft black clamp.
    static func apcaY(_ c: RGBColor) -> Double {
        let y = rCo * pow(c.red, trc) + gCo * pow(c.green, trc) + bCo * pow(c.blue, trc)
        return y < blackThreshold ? y + pow(blackThreshold - y, blackClamp) : y
    }

    /// APCA lightness contrast Lc of `text` on `background`.
    public static func apcaLc(text: RGBColor, background: RGBColor) -> Double {
        let yText = apcaY(text), yBackground = apcaY(background)
        guard abs(yBackground - yText) >= deltaYMin else { return 0 }
        if yBackground > yText {
            let sapc = (pow(yBackground, normBG) - pow(yText, normText)) * scale
            return sapc < lowClip ? 0 : (sapc - offset) * 100
        } else {
            let sapc = (pow(yBackground, revBG) - pow(yText, revText)) * scale
            return sapc > -lowClip ? 0 : (sapc + offset) * 100
        }
    }
}
