import Foundation
import JournalMediaCore

/// A coding key for any JSON member name.
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// One JSON object being read at a known path, with typed accessors that check range and
/// length and throw `SuggestionBundleError` naming the member's path. `null` and a missing
/// member are both "absent"; `required` turns absence into an error.
struct JSONFields {
    let container: KeyedDecodingContainer<JSONKey>
    let path: String

    init(decoder: any Decoder, path: String) throws {
        do { container = try decoder.container(keyedBy: JSONKey.self) } catch {
            throw SuggestionBundleError(path: path, message: "expected an object")
        }
        self.path = path
    }

    init(container: KeyedDecodingContainer<JSONKey>, path: String) {
        self.container = container
        self.path = path
    }

    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether the member is present and not null; throws `missing` when required and absent.
    private func present(_ key: String, required: Bool) throws -> Bool {
        let k = JSONKey(key)
        let here = container.contains(k) && !((try? container.decodeNil(forKey: k)) ?? false)
        if !here && required { throw SuggestionBundleError(path: path(key), message: "missing (required)") }
        return here
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: String, expected: String) throws -> T {
        do { return try container.decode(type, forKey: JSONKey(key)) } catch {
            throw SuggestionBundleError(path: path(key), message: "expected \(expected)")
        }
    }

    func string(_ key: String, required: Bool = false,
                maxLength: Int = SuggestionBundleLimits.maxTextLength) throws -> String? {
        guard try present(key, required: required) else { return nil }
        let value = try decode(String.self, key, expected: "a string")
        try JSONFields.checkLength(value, maxLength: maxLength, path: path(key))
        return value
    }

    static func checkLength(_ value: String, maxLength: Int, path: String) throws {
        // UTF-8 bytes bound the scalar count from above, so most strings skip the count.
        if value.utf8.count > maxLength, value.unicodeScalars.count > maxLength {
            throw SuggestionBundleError(path: path, message: "longer than \(maxLength) characters")
        }
    }

    /// A relative file path: a non-empty string (where it may point is checked when it is opened).
    func file(_ key: String, required: Bool = false) throws -> String? {
        guard let value = try string(key, required: required, maxLength: SuggestionBundleLimits.maxPathLength) else {
            return nil
        }
        guard !value.isEmpty else { throw SuggestionBundleError(path: path(key), message: "expected a file path, found \"\"") }
        return value
    }

    func integer(_ key: String, required: Bool = false, in range: ClosedRange<Int>? = nil) throws -> Int? {
        guard try present(key, required: required) else { return nil }
        let value = try decode(Int.self, key, expected: "an integer")
        if let range, !range.contains(value) {
            throw SuggestionBundleError(path: path(key), message: "\(value) is out of range \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    func number(_ key: String, required: Bool = false, in range: ClosedRange<Double>) throws -> Double? {
        guard try present(key, required: required) else { return nil }
        let value = try decode(Double.self, key, expected: "a number")
        guard range.contains(value) else {
            throw SuggestionBundleError(path: path(key), message: "\(value) is out of range \(Self.text(range.lowerBound))…\(Self.text(range.upperBound))")
        }
        return value
    }

    private static func text(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    func boolean(_ key: String) throws -> Bool? {
        guard try present(key, required: false) else { return nil }
        return try decode(Bool.self, key, expected: "true or false")
    }

    func color(_ key: String, required: Bool = false) throws -> String? {
        guard let value = try string(key, required: required, maxLength: 16) else { return nil }
        guard value.range(of: #"^#[0-9A-Fa-f]{6}$"#, options: .regularExpression) != nil else {
            throw SuggestionBundleError(path: path(key), message: "\"\(value)\" is not a colour: expected #RRGGBB")
        }
        return value.uppercased()
    }

    func date(_ key: String, required: Bool = false) throws -> SuggestionDate? {
        guard let value = try string(key, required: required, maxLength: 64) else { return nil }
        guard let date = SuggestionDate.parse(value) else {
            throw SuggestionBundleError(
                path: path(key), message: "\"\(value)\" is not an RFC 3339 date-time (e.g. 2025-10-04T05:58:00Z)")
        }
        return date
    }

    func interval(_ key: String) throws -> SuggestionInterval? {
        guard let fields = try object(key) else { return nil }
        guard let start = try fields.date("start", required: true), let end = try fields.date("end", required: true) else {
            return nil
        }
        return SuggestionInterval(start: start, end: end)
    }

    func object(_ key: String, required: Bool = false) throws -> JSONFields? {
        guard try present(key, required: required) else { return nil }
        do {
            return JSONFields(container: try container.nestedContainer(keyedBy: JSONKey.self, forKey: JSONKey(key)),
                              path: path(key))
        } catch {
            throw SuggestionBundleError(path: path(key), message: "expected an object")
        }
    }

    func list(_ key: String, required: Bool = false, maxCount: Int) throws -> JSONList? {
        guard try present(key, required: required) else { return nil }
        let nested: any UnkeyedDecodingContainer
        do { nested = try container.nestedUnkeyedContainer(forKey: JSONKey(key)) } catch {
            throw SuggestionBundleError(path: path(key), message: "expected a list")
        }
        let count = nested.count ?? 0
        guard count <= maxCount else {
            throw SuggestionBundleError(path: path(key), message: "\(count) entries, over the limit of \(maxCount)")
        }
        return JSONList(container: nested, path: path(key), count: count)
    }

    /// A route: a list of `{latitude, longitude, altitude?, timestamp?}`. Decoded in one call
    /// (the decoder's fast path for arrays of simple structs: a million points in about a
    /// second) and then range-checked; type errors keep their path.
    func route(_ key: String) throws -> [RoutePoint] {
        guard let list = try list(key, maxCount: SuggestionBundleLimits.maxRoutePoints) else { return [] }
        _ = list
        let raw: [RawRoutePoint]
        do { raw = try container.decode([RawRoutePoint].self, forKey: JSONKey(key)) } catch let error as DecodingError {
            throw SuggestionBundleError(decoding: error)
        }
        var points: [RoutePoint] = []
        points.reserveCapacity(raw.count)
        for (index, point) in raw.enumerated() {
            func check(_ value: Double?, _ name: String, _ limit: Double) throws {
                if let value, !(-limit...limit).contains(value) {
                    throw SuggestionBundleError(path: "\(path(key))[\(index)].\(name)",
                                                message: "\(value) is out of range \(Int(-limit))…\(Int(limit))")
                }
            }
            try check(point.latitude, "latitude", 90)
            try check(point.longitude, "longitude", 180)
            try check(point.altitude, "altitude", 1e6)
            if let timestamp = point.timestamp {
                try JSONFields.checkLength(timestamp, maxLength: 64, path: "\(path(key))[\(index)].timestamp")
            }
            points.append(RoutePoint(latitude: point.latitude, longitude: point.longitude, altitude: point.altitude,
                                     timestamp: point.timestamp))
        }
        return points
    }

    /// A list of short strings (labels, associations), each at most 256 characters.
    func strings(_ key: String) throws -> [String] {
        guard let list = try list(key, maxCount: SuggestionBundleLimits.maxLabels) else { return [] }
        var values: [String] = []
        values.reserveCapacity(list.count)
        for index in list.indices {
            values.append(try list.string(at: index, maxLength: 256))
        }
        return values
    }
}

/// A JSON list read in order (a decoder's unkeyed container is sequential).
final class JSONList {
    private var container: any UnkeyedDecodingContainer
    let path: String
    let count: Int

    init(container: any UnkeyedDecodingContainer, path: String, count: Int) {
        self.container = container
        self.path = path
        self.count = count
    }

    var indices: Range<Int> { 0..<count }

    /// The entry at `index`, which must be the next one.
    func object(at index: Int) throws -> JSONFields {
        do {
            return JSONFields(container: try container.nestedContainer(keyedBy: JSONKey.self), path: "\(path)[\(index)]")
        } catch {
            throw SuggestionBundleError(path: "\(path)[\(index)]", message: "expected an object")
        }
    }

    func string(at index: Int, maxLength: Int) throws -> String {
        let value: String
        do { value = try container.decode(String.self) } catch {
            throw SuggestionBundleError(path: "\(path)[\(index)]", message: "expected a string")
        }
        try JSONFields.checkLength(value, maxLength: maxLength, path: "\(path)[\(index)]")
        return value
    }

}

/// A route point as the decoder reads it, before range checks.
private struct RawRoutePoint: Decodable {
    var latitude: Double
    var longitude: Double
    var altitude: Double?
    var timestamp: String?
}

extension SuggestionBundleError {
    /// A decoder's error in this type's words, with the JSON path of the value.
    init(decoding error: DecodingError) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce(into: "") { text, key in
                if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
            }
        }
        func expected(_ type: Any.Type) -> String {
            switch type {
            case is Double.Type, is Float.Type: return "expected a number"
            case is Int.Type: return "expected an integer"
            case is String.Type: return "expected a string"
            case is Bool.Type: return "expected true or false"
            default: return "\(type)".hasPrefix("Array") ? "expected a list" : "expected an object"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(path: path(context.codingPath), message: expected(type))
        case .valueNotFound(_, let context):
            self.init(path: path(context.codingPath), message: "missing (required)")
        case .keyNotFound(let key, let context):
            self.init(path: path(context.codingPath + [key]), message: "missing (required)")
        case .dataCorrupted(let context):
            self.init(path: path(context.codingPath), message: "expected a number")
        @unknown default:
            self.init(path: "", message: "\(error)")
        }
    }
}
