import Foundation
import JournalMediaCore

/// A suggestion bundle (schema version 1): what an app uploads when a person picks a moment
/// in Apple's Journaling Suggestions picker — the `JournalingSuggestion`'s title, date
/// interval and items, with the items' files beside the JSON, referenced by relative path.
/// The JSON Schema is `Schemas/suggestion-bundle.v1.json`; field names follow Apple's API.
///
/// Made by `SuggestionBundleReader.read(_:)`, which validates everything before any file is
/// touched; costs one JSON parse (linear in the file's size).
public struct SuggestionBundle: Sendable, Equatable {
    /// The one schema version this toolkit reads.
    public static let schemaVersion = 1

    /// Names the output folder: letters, digits, `.`, `_` and `-`, starting with a letter or digit.
    public var bundleId: String
    /// IANA time zone the dates are shown in (default `UTC`).
    public var timeZone: TimeZone
    /// Locale the numbers, units and dates are formatted for (default `en_US`).
    public var locale: Locale
    public var suggestion: Suggestion

    public init(bundleId: String, timeZone: TimeZone, locale: Locale, suggestion: Suggestion) {
        self.bundleId = bundleId
        self.timeZone = timeZone
        self.locale = locale
        self.suggestion = suggestion
    }
}

/// The picked moment: a title, a date interval and up to 13 items, in the picker's order.
public struct Suggestion: Sendable, Equatable {
    public var title: String
    public var date: SuggestionInterval?
    public var items: [SuggestionItem]

    public init(title: String, date: SuggestionInterval?, items: [SuggestionItem]) {
        self.title = title
        self.date = date
        self.items = items
    }
}

/// An RFC 3339 instant as the bundle wrote it, and the instant it names.
public struct SuggestionDate: Sendable, Equatable {
    /// The text in the bundle, kept so outputs can show the raw value beside the formatted one.
    public var raw: String
    public var date: Date

    public init(raw: String, date: Date) {
        self.raw = raw
        self.date = date
    }

    /// Parses RFC 3339 (`2025-10-04T05:58:00Z`, `2025-10-04T07:58:00.250+02:00`); nil otherwise.
    public static func parse(_ text: String) -> SuggestionDate? {
        guard text.utf8.count <= 64 else { return nil }
        let plain = Date.ISO8601FormatStyle()
        if let date = try? plain.parse(text) { return SuggestionDate(raw: text, date: date) }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let date = try? fractional.parse(text) { return SuggestionDate(raw: text, date: date) }
        return nil
    }
}

/// A date interval `{start, end}`.
public struct SuggestionInterval: Sendable, Equatable {
    public var start: SuggestionDate
    public var end: SuggestionDate

    public init(start: SuggestionDate, end: SuggestionDate) {
        self.start = start
        self.end = end
    }

    /// Seconds from start to end (never negative).
    public var duration: Double { max(0, end.date.timeIntervalSince(start.date)) }
}
