import Foundation

/// A colour in Björn Ottosson's OKLab space (perceptual lightness L 0…1, opponent axes a, b),
/// used for quantising and tone shifts because distances there track perceived difference.
public struct OKLab: Sendable, Hashable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// From linear-light sRGB components.
    public init(linearRed r: Double, green g: Double, blue b: Double) {
        let lms0 = 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b
        let lms1 = 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b
        let lms2 = 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b
        let l_ = cbrt(lms0), m_ = cbrt(lms1), s_ = cbrt(lms2)
        self.l = 0.2104542553 * l_ + 0.7936177850 * m_ - 0.0040720468 * s_
        self.a = 1.9779984951 * l_ - 2.4285922050 * m_ + 0.4505937099 * s_
        self.b = 0.0259040371 * l_ + 0.7827717662 * m_ - 0.8086757660 * s_
    }

    public init(_ color: RGBColor) {
        self.init(linearRed: Contrast.linear(color.red), green: Contrast.linear(color.green),
                  blue: Contrast.linear(color.blue))
    }

    /// Linear-light sRGB, possibly outside 0…1 for colours outside the sRGB gamut.
    public var linearRGB: (Double, Double, Double) {
        let l_ = l + 0.3963377774 * a + 0.2158037573 * b
        let m_ = l - 0.1055613458 * a - 0.0638541728 * b
        let s_ = l - 0.0894841775 * a - 1.2914855480 * b
        let l3 = l_ * l_ * l_, m3 = m_ * m_ * m_, s3 = s_ * s_ * s_
        return (4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3,
                -1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3,
                -0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3)
    }

    public var isInSRGBGamut: Bool {
        let (r, g, b) = linearRGB
        let e = 1e-4
        return r >= -e && r <= 1 + e && g >= -e && g <= 1 + e && b >= -e && b <= 1 + e
    }

    /// The sRGB colour, clipped.
    public var rgb: RGBColor {
        let (r, g, b) = linearRGB
        return RGBColor(red: Contrast.encoded(r), green: Contrast.encoded(g), blue: Contrast.encoded(b))
    }

    /// Chroma (colourfulness), 0 for greys, about 0.32 at most inside sRGB.
    public var chroma: Double { (a * a + b * b).squareRoot() }
    /// Hue angle in radians.
    public var hue: Double { atan2(b, a) }

    /// A colour with lightness `l`, this hue, and the largest chroma up to `maxChroma` that
    /// stays inside sRGB (found by bisection).
    public static func fromLCh(l: Double, chroma maxChroma: Double, hue: Double) -> OKLab {
        func make(_ c: Double) -> OKLab { OKLab(l: l, a: c * cos(hue), b: c * sin(hue)) }
        if make(maxChroma).isInSRGBGamut { return make(maxChroma) }
        var low = 0.0, high = maxChroma
        for _ in 0..<24 {
            let mid = (low + high) / 2
            if make(mid).isInSRGBGamut { low = mid } else { high = mid }
        }
        return make(low)
    }

    public func distanceSquared(to other: OKLab) -> Double {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }
}
