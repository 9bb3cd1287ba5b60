import Foundation

/// An sRGB colour with components in 0…1 (gamma-encoded, as in CSS and hex codes).
public struct RGBColor: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
    }

    /// From 8-bit components.
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255)
    }

    public static let black = RGBColor(red: 0, green: 0, blue: 0)
    public static let white = RGBColor(red: 1, green: 1, blue: 1)

    /// 8-bit components, rounded.
    public var bytes: (UInt8, UInt8, UInt8) {
        func byte(_ c: Double) -> UInt8 { UInt8((c * 255).rounded()) }
        return (byte(red), byte(green), byte(blue))
    }

    /// `#RRGGBB`, uppercase.
    public var hex: String {
        let (r, g, b) = bytes
        return String(format: "#%02X%02X%02X", r, g, b)
    }

    /// This colour with opacity `alpha` composited over `base` (in gamma-encoded sRGB, as
    /// browsers composite).
    public func composited(alpha: Double, over base: RGBColor) -> RGBColor {
        RGBColor(red: red * alpha + base.red * (1 - alpha),
                 green: green * alpha + base.green * (1 - alpha),
                 blue: blue * alpha + base.blue * (1 - alpha))
    }
}

/// A colour argument that is none of the accepted forms.
public struct ColorParseError: Error, Equatable, CustomStringConvertible {
    public var value: String
    public var description: String {
        "\"\(value)\" is not a colour: use #RGB, #RRGGBB, #RRGGBBAA or r,g,b with 0–255 components"
    }
}

extension RGBColor {
    /// Parses `#RGB`, `#RRGGBB`, `#RRGGBBAA` (the alpha composited over `base`) or `r,g,b`
    /// (0–255 each, spaces allowed). The `#` is optional for hex forms.
    public static func parse(_ text: String, over base: RGBColor = .white) throws(ColorParseError) -> RGBColor {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains(",") {
            let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 3 else { throw ColorParseError(value: text) }
            var values: [UInt8] = []
            for part in parts {
                guard let value = UInt8(part) else { throw ColorParseError(value: text) }
                values.append(value)
            }
            return RGBColor(values[0], values[1], values[2])
        }
        var hex = Substring(trimmed)
        if hex.hasPrefix("#") { hex = hex.dropFirst() }
        guard hex.allSatisfy(\.isHexDigit) else { throw ColorParseError(value: text) }
        let digits = hex.compactMap { $0.hexDigitValue }
        func pair(_ i: Int) -> UInt8 { UInt8(digits[i] * 16 + digits[i + 1]) }
        switch digits.count {
        case 3:
            return RGBColor(UInt8(digits[0] * 17), UInt8(digits[1] * 17), UInt8(digits[2] * 17))
        case 6:
            return RGBColor(pair(0), pair(2), pair(4))
        case 8:
            return RGBColor(pair(0), pair(2), pair(4)).composited(alpha: Double(pair(6)) / 255, over: base)
        default:
            throw ColorParseError(value: text)
        }
    }
}
