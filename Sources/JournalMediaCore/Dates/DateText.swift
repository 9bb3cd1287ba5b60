import Foundation

/// Parsers for the date texts found in media files: EXIF (`2023:06:01 14:03:22`), ISO 8601 /
/// XMP (`2023-06-01T14:03:22.12+02:00`), QuickTime (`2023-06-01T14:03:22+0200`), RFC 1123
/// (`Sat, 10 Aug 2024 16:45:30 +0100`), EXIF sub-seconds and offsets.
///
/// Pure Swift, no allocation beyond the input's bytes; runs once per candidate field.
/// Anything malformed, blank or zeroed gives nil, so the caller moves to its next source.
package enum DateText {
    /// A parsed date: local wall-clock time, and the offset when the text carries one.
    package struct Parsed: Equatable {
        package var local: LocalDateTime
        package var offsetMinutes: Int?
        /// False for a date without a time of day (`2023-06-01`).
        package var hasTime: Bool
    }

    /// Largest offset accepted anywhere, in minutes (UTC−14:00 … UTC+14:00).
    package static let maximumOffsetMinutes = 14 * 60

    /// EXIF, ISO 8601 and XMP date-times, with or without seconds, fraction and zone. Dates
    /// without a time are accepted only when `allowDateOnly` (XMP `photoshop:DateCreated`).
    package static func dateTime(_ text: String, allowDateOnly: Bool = false) -> Parsed? {
        var s = Cursor(text)
        s.skipSpaces()
        guard let year = s.digits(4...4) else { return nil }
        let dateSeparator = s.take(anyOf: ":-/.")
        guard let month = s.digits(dateSeparator == nil ? 2...2 : 1...2) else { return nil }
        if let dateSeparator { guard s.take(dateSeparator) else { return nil } }
        guard let day = s.digits(dateSeparator == nil ? 2...2 : 1...2) else { return nil }
        var rest = s
        rest.skipTrailingNoise()
        if rest.atEnd {
            guard allowDateOnly, let local = LocalDateTime(year: year, month: month, day: day) else { return nil }
            return Parsed(local: local, offsetMinutes: nil, hasTime: false)
        }
        guard s.take(anyOf: "T ") != nil else { return nil }
        s.skipSpaces()
        guard let hour = s.digits(1...2), s.take(":"), let minute = s.digits(2...2) else { return nil }
        var second = 0
        var millisecond: Int?
        if s.take(":") {
            guard let value = s.digits(2...2) else { return nil }
            second = value
            if s.take(anyOf: ".,") != nil {
                guard let fraction = s.fractionMilliseconds() else { return nil }
                millisecond = fraction
            }
        }
        s.skipSpaces()
        var offset: Int?
        if !s.atEnd, s.peek != 0 {
            guard let zone = s.zone() else { return nil }
            offset = zone
        }
        s.skipTrailingNoise()
        guard s.atEnd, let local = LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                                 second: second, millisecond: millisecond)
        else { return nil }
        return Parsed(local: local, offsetMinutes: offset, hasTime: true)
    }

    /// EXIF `SubSecTime*`: the digits are a decimal fraction of a second (`12` is 0.12 s).
    package static func subSecondMilliseconds(_ text: String) -> Int? {
        var s = Cursor(text)
        s.skipSpaces()
        guard let value = s.fractionMilliseconds() else { return nil }
        s.skipTrailingNoise()
        return s.atEnd ? value : nil
    }

    /// EXIF `OffsetTime*` and zone suffixes: `+02:00`, `-0530`, `+05`, `Z`.
    package static func offsetMinutes(_ text: String) -> Int? {
        var s = Cursor(text)
        s.skipSpaces()
        guard let value = s.zone() else { return nil }
        s.skipTrailingNoise()
        return s.atEnd ? value : nil
    }

    /// `2023-06-01T14:03:22` or `2023-06-01T14:03:22.120` as printed by `LocalDateTime`.
    static func isoLocal(_ text: String) -> LocalDateTime? {
        guard let parsed = dateTime(text), parsed.offsetMinutes == nil else { return nil }
        return parsed.local
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// RFC 1123 / RFC 2822 (`Sat, 10 Aug 2024 16:45:30 +0100`, `10 Aug 2024 16:45:30 GMT`),
    /// the form the PNG specification suggests for `Creation Time`.
    package static func rfc1123(_ text: String) -> Parsed? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        if let first = words.first, first.count >= 3, first.allSatisfy(\.isLetter) { words.removeFirst() }
        guard words.count >= 4, let day = Int(words[0]),
              let month = monthNames.firstIndex(of: String(words[1].lowercased().prefix(3))),
              words[1].allSatisfy(\.isLetter), let year = Int(words[2]), words[2].count == 4
        else { return nil }
        let clock = words[3].split(separator: ":").map { Int($0) }
        guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0 != nil }) else { return nil }
        var offset: Int?
        if words.count >= 5 {
            switch words[4].uppercased() {
            case "GMT", "UT", "UTC", "Z": offset = 0
            default:
                guard let zone = offsetMinutes(words[4]) else { return nil }
                offset = zone
            }
        }
        guard let local = LocalDateTime(year: year, month: month + 1, day: day, hour: clock[0] ?? 0,
                                        minute: clock[1] ?? 0, second: clock.count == 3 ? clock[2] ?? 0 : 0)
        else { return nil }
        return Parsed(local: local, offsetMinutes: offset, hasTime: true)
    }

    /// Capture dates before 1900 or after the end of tomorrow are not believed: zeroed
    /// clocks, unset cameras and corrupt fields produce them. "Tomorrow" is counted in the
    /// easternmost zone (UTC+14), where the calendar is furthest ahead.
    package static func isPlausible(_ local: LocalDateTime, now: Date = Date()) -> Bool {
        guard local.year >= 1900 else { return false }
        let todayEast = ((now.timeIntervalSince1970 + Double(maximumOffsetMinutes * 60)) / 86_400).rounded(.down)
        return local.secondsSinceEpochAsUTC < (todayEast + 2) * 86_400
    }
}

/// A byte cursor over a short ASCII text.
private struct Cursor {
    private let bytes: [UInt8]
    private var index = 0

    package init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8 { atEnd ? 0 : bytes[index] }

    mutating func skipSpaces() {
        while !atEnd, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    /// Spaces and tabs; a NUL ends the text (EXIF strings are NUL-terminated, padding follows).
    mutating func skipTrailingNoise() {
        skipSpaces()
        if !atEnd, bytes[index] == 0 { index = bytes.count }
    }

    mutating func take(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, peek == ascii, !atEnd else { return false }
        index += 1
        return true
    }

    mutating func take(anyOf characters: String) -> Character? {
        guard !atEnd, characters.utf8.contains(bytes[index]) else { return nil }
        index += 1
        return Character(Unicode.Scalar(bytes[index - 1]))
    }

    mutating func digits(_ count: ClosedRange<Int>) -> Int? {
        var value = 0
        var taken = 0
        while taken < count.upperBound, !atEnd, (0x30...0x39).contains(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            taken += 1
        }
        return count.contains(taken) ? value : nil
    }

    /// One or more digits read as a decimal fraction, truncated to milliseconds.
    mutating func fractionMilliseconds() -> Int? {
        var value = 0
        var taken = 0
        while !atEnd, (0x30...0x39).contains(bytes[index]) {
            if taken < 3 { value = value * 10 + Int(bytes[index] - 0x30) }
            index += 1
            taken += 1
        }
        guard taken > 0 else { return nil }
        for _ in min(taken, 3)..<3 { value *= 10 }
        return value
    }

    /// `Z`, `+hh`, `+hhmm`, `+hh:mm` (also `-`), within ±14:00.
    mutating func zone() -> Int? {
        if take("Z") || take("z") { return 0 }
        guard let sign = take(anyOf: "+-") else { return nil }
        guard let hours = digits(2...2) else { return nil }
        var minutes = 0
        if take(":") {
            guard let value = digits(2...2) else { return nil }
            minutes = value
        } else if let value = digits(2...2) {
            minutes = value
        }
        guard minutes < 60 else { return nil }
        let total = hours * 60 + minutes
        guard total <= DateText.maximumOffsetMinutes else { return nil }
        return sign == "-" ? -total : total
    }
}
