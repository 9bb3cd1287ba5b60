import Foundation
import JournalMediaCore

/// Parses the ISO 6709 point strings movies carry: QuickTime's
/// `com.apple.quicktime.location.ISO6709` and MP4's `©xyz` (`+48.8584+002.2945+035.000/`).
///
/// Latitude, longitude and an optional altitude, each starting with its sign. Degrees may be
/// decimal (`±DD.D`, `±DDD.D`) or sexagesimal, told apart by the digits before the point as
/// the standard says: latitude `DD`, `DDMM` or `DDMMSS`, longitude `DDD`, `DDDMM`,
/// `DDDMMSS`. A trailing `CRS…` and the closing `/` are optional. Anything else is refused
/// (nil). Pure string work, well under a microsecond.
package enum ISO6709 {
    package struct Point: Equatable, Sendable {
        package var latitude: Double
        package var longitude: Double
        package var altitude: Double?
    }

    /// Longer texts are refused unread: a point with altitude and a `CRS` name is under 80
    /// characters, and a tag's value can be as large as its container allows.
    package static let maximumLength = 256

    package static func parse(_ text: String) -> Point? {
        guard text.utf8.count <= maximumLength else { return nil }
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let crs = rest.range(of: "CRS") { rest = rest[..<crs.lowerBound] }
        var parts: [Substring] = []
        var start = rest.startIndex
        for index in rest.indices where index != rest.startIndex && (rest[index] == "+" || rest[index] == "-") {
            parts.append(rest[start..<index])
            start = index
        }
        parts.append(rest[start...])
        guard parts.count == 2 || parts.count == 3,
              let latitude = degrees(parts[0], degreeDigits: 2),
              let longitude = degrees(parts[1], degreeDigits: 3) else { return nil }
        var altitude: Double?
        if parts.count == 3 {
            guard let value = signedNumber(parts[2]) else { return nil }
            altitude = value
        }
        return Point(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// `±DD[MM[SS]][.fraction]`: the digits before the point say which form it is.
    private static func degrees(_ part: Substring, degreeDigits: Int) -> Double? {
        guard let value = signedNumber(part) else { return nil }
        let body = part.dropFirst()
        let whole = body.prefix { $0 != "." }.count
        let sign: Double = part.first == "-" ? -1 : 1
        let magnitude = abs(value)
        switch whole - degreeDigits {
        case 0: return value
        case 2:
            let d = (magnitude / 100).rounded(.down), m = magnitude - d * 100
            guard m < 60 else { return nil }
            return sign * (d + m / 60)
        case 4:
            let d = (magnitude / 10_000).rounded(.down), m = ((magnitude - d * 10_000) / 100).rounded(.down)
            let s = magnitude - d * 10_000 - m * 100
            guard m < 60, s < 60 else { return nil }
            return sign * (d + m / 60 + s / 3_600)
        default: return nil
        }
    }

    /// A sign, then digits with at most one point; nil otherwise.
    private static func signedNumber(_ part: Substring) -> Double? {
        guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
        let body = part.dropFirst()
        guard !body.isEmpty, body.first != ".", body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              body.filter({ $0 == "." }).count <= 1, let value = Double(body), value.isFinite else { return nil }
        return sign == "-" ? -value : value
    }
}
