import Foundation
import JournalMediaCore

/// Formats the numbers, units, durations and dates drawn on cards for one bundle's locale
/// and time zone: `de_DE` "10,02 km", `en_US` "6.23 mi", steps "12.345" / "12,345", dates
/// and times in the locale's order in the bundle's zone. The words on cards are English;
/// numbers, units and dates follow the locale.
///
/// Made once per bundle; each call costs one ICU format (microseconds).
public struct CardTextFormatter: Sendable {
    public let locale: Locale
    public let timeZone: TimeZone

    public init(locale: Locale, timeZone: TimeZone) {
        self.locale = locale
        self.timeZone = timeZone
    }

    /// Regions whose roads are signed in miles (United States, United Kingdom, Liberia, Myanmar).
    private static let mileRegions: Set<String> = ["US", "GB", "LR", "MM"]

    public var usesMiles: Bool { Self.mileRegions.contains(locale.region?.identifier ?? "") }

    /// A whole number with the locale's grouping: "12,345" (en_US), "12.345" (de_DE).
    public func integer(_ value: Int) -> String {
        value.formatted(.number.locale(locale))
    }

    /// A number with exactly `digits` fraction digits in the locale's notation.
    public func decimal(_ value: Double, digits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(digits)).locale(locale))
    }

    /// Kilometres, or miles where roads are signed in miles, with two decimals below 100.
    public func distance(meters: Double) -> String {
        let value = usesMiles ? meters / 1609.344 : meters / 1000
        return "\(decimal(value, digits: value < 100 ? 2 : 1)) \(usesMiles ? "mi" : "km")"
    }

    public func energy(kcal: Double) -> String { "\(integer(Int(kcal.rounded()))) kcal" }

    public func heartRate(bpm: Double) -> String { "\(integer(Int(bpm.rounded()))) bpm" }

    public func steps(_ count: Int) -> String { "\(integer(count)) \(count == 1 ? "step" : "steps")" }

    /// "45 s", "52 min", "1 h 12 min" (seconds shown only under a minute).
    public func duration(seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        if total < 60 { return "\(integer(total)) s" }
        let hours = total / 3600, minutes = (total % 3600) / 60
        if hours == 0 { return "\(integer(minutes)) min" }
        return minutes == 0 ? "\(integer(hours)) h" : "\(integer(hours)) h \(integer(minutes)) min"
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = timeZone
        return calendar
    }

    private func style(date: Date.FormatStyle.DateStyle?, time: Date.FormatStyle.TimeStyle?) -> Date.FormatStyle {
        var style = Date.FormatStyle(date: date, time: time, locale: locale, calendar: calendar, timeZone: timeZone)
        style.capitalizationContext = .standalone
        return style
    }

    /// Date and time: "Oct 4, 2025 at 7:58 AM" (en_US), "04.10.2025, 07:58" (de_DE).
    public func dateTime(_ date: Date) -> String { date.formatted(style(date: .abbreviated, time: .shortened)) }

    public func day(_ date: Date) -> String { date.formatted(style(date: .abbreviated, time: nil)) }

    public func time(_ date: Date) -> String { date.formatted(style(date: nil, time: .shortened)) }

    /// A range: the start's date and time and the end's time when both fall on the same day
    /// in the bundle's zone ("Oct 4, 2025 at 8:00 AM – 8:52 AM"), else both date-times.
    public func range(_ interval: SuggestionInterval) -> String {
        let start = interval.start.date, end = interval.end.date
        if calendar.isDate(start, inSameDayAs: end) {
            return start == end ? dateTime(start) : "\(dateTime(start)) – \(time(end))"
        }
        return "\(dateTime(start)) – \(dateTime(end))"
    }

    /// Coordinates as degrees with hemisphere letters: "52.5201° N, 13.4012° E" (the locale's
    /// decimal mark).
    public func coordinates(latitude: Double, longitude: Double) -> String {
        "\(decimal(abs(latitude), digits: 4))° \(latitude < 0 ? "S" : "N"), "
            + "\(decimal(abs(longitude), digits: 4))° \(longitude < 0 ? "W" : "E")"
    }

    /// "A", "A and B", "A, B and C"; beyond `limit` names, "A, B, C and 4 more".
    public static func list(_ names: [String], limit: Int = 4) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        if names.count > limit {
            return names.prefix(limit - 1).joined(separator: ", ") + " and \(names.count - limit + 1) more"
        }
        return names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "")
    }

    /// `camelCase` → "Camel case": how unknown enumeration values are shown, neutrally.
    public static func words(_ identifier: String) -> String {
        var result = ""
        for character in identifier {
            if character.isUppercase, !result.isEmpty {
                result.append(" ")
                result.append(contentsOf: character.lowercased())
            } else if character == "_" || character == "-" {
                result.append(" ")
            } else {
                result.append(character)
            }
        }
        return result.prefix(1).uppercased() + result.dropFirst()
    }

    /// At most `limit` characters (grapheme clusters), ending with "…" when shortened.
    public static func shortened(_ text: String, limit: Int) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < limit {
            end = text.index(after: end)
            count += 1
        }
        return end == text.endIndex ? text : text[..<end].trimmingCharacters(in: .whitespacesAndNewlines) + "…"
    }
}
