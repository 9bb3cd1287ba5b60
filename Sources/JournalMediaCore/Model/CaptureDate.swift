import Foundation

/// A calendar date and wall-clock time with no zone attached, as cameras write them.
///
/// `millisecond` is nil when the source has no sub-second part (it is then not printed).
/// Values are validated on construction (`LocalDateTime(year:…)` returns nil for 2023-02-30).
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    public let millisecond: Int?

    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                 millisecond: Int? = nil) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...LocalDateTime.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (0...999).contains(millisecond ?? 0)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = min(second, 59)  // a leap second is read as :59
        self.millisecond = millisecond
    }

    /// `2023-06-01T14:03:22` or `2023-06-01T14:03:22.120`.
    public var description: String {
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if let millisecond { text += "." + pad(millisecond, 3) }
        return text
    }

    /// Seconds since 1970-01-01T00:00:00 if this wall-clock time were UTC (proleptic Gregorian).
    public var secondsSinceEpochAsUTC: Double {
        let days = LocalDateTime.daysFromCivil(year: year, month: month, day: day)
        let whole = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Double(whole) + Double(millisecond ?? 0) / 1_000
    }

    /// The wall-clock time `minutes` later (negative: earlier), keeping the millisecond part.
    public func adding(minutes: Int) -> LocalDateTime? {
        let whole = LocalDateTime.daysFromCivil(year: year, month: month, day: day) * 1_440 + hour * 60 + minute + minutes
        let days = Int((Double(whole) / 1_440).rounded(.down))
        let minuteOfDay = whole - days * 1_440
        let (y, m, d) = LocalDateTime.civilFromDays(days)
        return LocalDateTime(year: y, month: m, day: d, hour: minuteOfDay / 60, minute: minuteOfDay % 60,
                             second: second, millisecond: millisecond)
    }

    /// The UTC wall-clock time of an instant given as seconds since 1970.
    public init?(utcSecondsSinceEpoch seconds: Double) {
        guard seconds.isFinite, abs(seconds) < 3e11 else { return nil }
        let whole = Int(seconds.rounded(.down))
        let millis = Int(((seconds - Double(whole)) * 1_000).rounded(.down))
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let secondOfDay = whole - days * 86_400
        let (y, m, d) = LocalDateTime.civilFromDays(days)
        self.init(year: y, month: m, day: d, hour: secondOfDay / 3_600, minute: secondOfDay % 3_600 / 60,
                  second: secondOfDay % 60, millisecond: millis)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.secondsSinceEpochAsUTC < b.secondsSinceEpochAsUTC
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (era-based day counting).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil`.
    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// When an asset was captured, as far as its file can tell: the local wall-clock time, the
/// zone offset, the instant, which field it came from and how sure that is.
///
/// Made by `CaptureDateReader` (headers only, no pixels) for every asset a batch processes
/// and for `journal-media inspect`. The manifest's `captureDate` object is this value.
public struct CaptureDate: Sendable, Equatable {
    /// How much of the moment the file pins down.
    public enum Confidence: String, Codable, Sendable {
        /// Local time and zone offset both written in the file.
        case exact
        /// Local time from the file; offset inferred from the GPS time (UTC) in the same file.
        case offsetInferred
        /// Local time from the file; offset from the IANA time zone of the place nearest to
        /// the file's GPS position (`Place.timeZone`, named in `timeZone`), at that local time.
        /// Right wherever the camera's clock followed local time; a clock left on home time
        /// while travelling is not detected.
        case offsetFromPlace
        /// Only the instant in UTC is known (e.g. a QuickTime `mvhd` creation time).
        case utcOnly
        /// Only the local wall-clock time is known; no offset was invented.
        case localOnly
        /// A local time read from the file's name.
        case filename
        /// The file's modification time: when the file was last written, not the moment.
        case fileModified
    }

    /// Local wall-clock time; nil when only the instant is known (`utcOnly`, `fileModified`).
    public var local: LocalDateTime?
    /// Offset of local time from UTC in minutes (east positive); nil when unknown.
    public var offsetMinutes: Int?
    /// The instant as UTC wall-clock time; nil when the offset is unknown.
    public var utc: LocalDateTime?
    /// Where the value came from, e.g. `exif.DateTimeOriginal` (docs/dates.md lists them all).
    public var source: String
    public var confidence: Confidence
    /// The IANA time zone the offset came from (`Europe/Zurich`) when it came from the place
    /// (`offsetFromPlace`); nil otherwise, and then absent from the JSON.
    public var timeZone: String?

    public init(local: LocalDateTime?, offsetMinutes: Int?, utc: LocalDateTime?, source: String,
                confidence: Confidence, timeZone: String? = nil) {
        self.local = local
        self.offsetMinutes = offsetMinutes
        self.utc = utc
        self.source = source
        self.confidence = confidence
        self.timeZone = timeZone
    }

    /// The date without what the place told (`--no-location`): an offset taken from the
    /// place's time zone is dropped again, leaving the file's local time (`localOnly`).
    public func withoutPlaceZone() -> CaptureDate {
        guard confidence == .offsetFromPlace else { return self }
        return CaptureDate(local: local, offsetMinutes: nil, utc: nil, source: source, confidence: .localOnly)
    }

    /// A local time with a known offset; the UTC instant follows.
    public static func zoned(_ local: LocalDateTime, offsetMinutes: Int, source: String,
                             confidence: Confidence) -> CaptureDate {
        CaptureDate(local: local, offsetMinutes: offsetMinutes, utc: local.adding(minutes: -offsetMinutes),
                    source: source, confidence: confidence)
    }

    /// The instant, when it is known.
    public var date: Date? {
        utc.map { Date(timeIntervalSince1970: $0.secondsSinceEpochAsUTC) }
    }

    /// `+02:00`, `-05:30`, `+00:00`; nil when the offset is unknown.
    public var offsetText: String? {
        offsetMinutes.map(CaptureDate.offsetText)
    }

    static func offsetText(_ minutes: Int) -> String {
        let sign = minutes < 0 ? "-" : "+"
        return sign + pad(abs(minutes) / 60, 2) + ":" + pad(abs(minutes) % 60, 2)
    }

    /// `2023-06-01T12:03:22.120Z`; nil when the instant is unknown.
    public var utcText: String? { utc.map { $0.description + "Z" } }

    /// One JSON object, keys in the documented order, unknown values as `null`.
    public var json: String {
        func quoted(_ s: String?) -> String { s.map { "\"\(JSONText.escape($0))\"" } ?? "null" }
        return "{\"local\":\(quoted(local?.description)),\"offset\":\(quoted(offsetText)),\"utc\":\(quoted(utcText)),"
            + "\"source\":\(quoted(source)),\"confidence\":\"\(confidence.rawValue)\""
            + (timeZone.map { ",\"timeZone\":\(quoted($0))" } ?? "") + "}"
    }
}

extension CaptureDate: Codable {
    private enum CodingKeys: String, CodingKey { case local, offset, utc, source, confidence, timeZone }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(local?.description, forKey: .local)
        try c.encode(offsetText, forKey: .offset)
        try c.encode(utcText, forKey: .utc)
        try c.encode(source, forKey: .source)
        try c.encode(confidence, forKey: .confidence)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func bad(_ key: CodingKeys) -> DecodingError {
            .dataCorruptedError(forKey: key, in: c, debugDescription: "not a date in the manifest's form")
        }
        local = nil
        if let text = try c.decodeIfPresent(String.self, forKey: .local) {
            guard let value = DateText.isoLocal(text) else { throw bad(.local) }
            local = value
        }
        offsetMinutes = nil
        if let text = try c.decodeIfPresent(String.self, forKey: .offset) {
            guard let value = DateText.offsetMinutes(text) else { throw bad(.offset) }
            offsetMinutes = value
        }
        utc = nil
        if let text = try c.decodeIfPresent(String.self, forKey: .utc) {
            guard text.hasSuffix("Z"), let value = DateText.isoLocal(String(text.dropLast())) else { throw bad(.utc) }
            utc = value
        }
        source = try c.decode(String.self, forKey: .source)
        confidence = try c.decode(Confidence.self, forKey: .confidence)
        timeZone = try c.decodeIfPresent(String.self, forKey: .timeZone)
    }
}

/// Escaping for JSON string contents written by hand (inspect lines, capture dates).
package enum JSONText {
    /// A finite number as JSON (shortest round-tripping spelling, `12` not `12.0`); `null`
    /// for nil, NaN or infinity.
    package static func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// A string as a quoted, escaped JSON string; `null` for nil.
    package static func quoted(_ text: String?) -> String { text.map { "\"\(escape($0))\"" } ?? "null" }

    package static func escape(_ text: String) -> String {
        // Nearly every text (paths, dates, messages) needs no escape: one byte scan, no copy.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
