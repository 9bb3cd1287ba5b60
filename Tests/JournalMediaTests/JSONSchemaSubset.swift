import Foundation

/// A JSON value as decoded for schema checks: numbers keep whether they were integral.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .integer(i) }
        else if let d = try? c.decode(Double.self) { self = d.rounded() == d && abs(d) < 1e15 ? .integer(Int(d)) : .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    var double: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }
}

/// Checks JSON documents against the subset of JSON Schema 2020-12 that the project's
/// committed schemas use: type (one or a list), const, enum, properties, required,
/// additionalProperties (false or a schema), items, minItems/maxItems, minimum/maximum,
/// minLength/maxLength, pattern, oneOf, anyOf, and `$ref` into the same document's `$defs`.
/// A keyword outside that subset is reported as a problem, so a schema cannot silently
/// rely on something this checker ignores.
struct JSONSchemaSubset {
    let root: JSONValue
    private static let known: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "$comment", "title", "description", "examples", "default",
        "type", "const", "enum", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
        "minimum", "maximum", "minLength", "maxLength", "pattern", "oneOf", "anyOf",
    ]

    init(schema data: Data) throws { root = try JSONValue.parse(data) }
    init(contentsOf url: URL) throws { try self.init(schema: try Data(contentsOf: url)) }

    /// Problems found, each as "path: what is wrong"; empty when the document conforms.
    func problems(in document: JSONValue) -> [String] {
        var out: [String] = []
        check(document, against: root, path: "$", into: &out)
        return out
    }

    func problems(in data: Data) -> [String] {
        do { return problems(in: try JSONValue.parse(data)) } catch { return ["$: not JSON: \(error)"] }
    }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/") else { return nil }
        var node = root
        for part in ref.dropFirst(2).split(separator: "/") {
            guard case .object(let o) = node, let next = o[String(part)] else { return nil }
            node = next
        }
        return node
    }

    private func check(_ value: JSONValue, against schema: JSONValue, path: String, into out: inout [String]) {
        guard case .object(let s) = schema else {
            if schema == .bool(false) { out.append("\(path): not allowed") }
            return
        }
        for key in s.keys where !Self.known.contains(key) {
            out.append("\(path): schema keyword \(key) is outside the checked subset")
        }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { out.append("\(path): unresolvable $ref \(ref)"); return }
            check(value, against: target, path: path, into: &out)
        }
        if let type = s["type"] {
            let allowed: [String]
            switch type {
            case .string(let t): allowed = [t]
            case .array(let ts): allowed = ts.compactMap { if case .string(let t) = $0 { t } else { nil } }
            default: allowed = []
            }
            let actual = value.typeName
            let ok = allowed.contains(actual) || (actual == "integer" && allowed.contains("number"))
            if !ok { out.append("\(path): expected \(allowed.joined(separator: " or ")), found \(actual)"); return }
        }
        if let c = s["const"], !Self.same(c, value) { out.append("\(path): expected the constant \(c)") }
        if case .array(let options)? = s["enum"], !options.contains(where: { Self.same($0, value) }) {
            out.append("\(path): \(value) is not one of the allowed values")
        }
        switch value {
        case .object(let o):
            if case .array(let required)? = s["required"] {
                for case .string(let key) in required where o[key] == nil { out.append("\(path): missing \(key)") }
            }
            var properties: [String: JSONValue] = [:]
            if case .object(let p)? = s["properties"] { properties = p }
            for (key, child) in o.sorted(by: { $0.key < $1.key }) {
                if let sub = properties[key] {
                    check(child, against: sub, path: "\(path).\(key)", into: &out)
                } else if let extra = s["additionalProperties"] {
                    check(child, against: extra, path: "\(path).\(key)", into: &out)
                }
            }
        case .array(let a):
            if let min = s["minItems"]?.double, Double(a.count) < min { out.append("\(path): fewer than \(Int(min)) items") }
            if let max = s["maxItems"]?.double, Double(a.count) > max { out.append("\(path): more than \(Int(max)) items") }
            if let items = s["items"] {
                for (i, child) in a.enumerated() { check(child, against: items, path: "\(path)[\(i)]", into: &out) }
            }
        case .string(let str):
            let length = str.count
            if let min = s["minLength"]?.double, Double(length) < min { out.append("\(path): shorter than \(Int(min))") }
            if let max = s["maxLength"]?.double, Double(length) > max { out.append("\(path): longer than \(Int(max))") }
            if case .string(let pattern)? = s["pattern"] {
                if str.range(of: pattern, options: .regularExpression) == nil {
                    out.append("\(path): \"\(str)\" does not match \(pattern)")
                }
            }
        case .integer, .number:
            if let v = value.double {
                if let min = s["minimum"]?.double, v < min { out.append("\(path): \(v) below \(min)") }
                if let max = s["maximum"]?.double, v > max { out.append("\(path): \(v) above \(max)") }
            }
        default:
            break
        }
        if case .array(let options)? = s["oneOf"] {
            let results = options.map { option in
                var sub: [String] = []
                check(value, against: option, path: path, into: &sub)
                return sub
            }
            let passing = results.filter(\.isEmpty).count
            if passing == 0, let nearest = results.min(by: { $0.count < $1.count }) {
                out.append(contentsOf: nearest)  // the closest alternative says what is wrong
            } else if passing > 1 {
                out.append("\(path): matches \(passing) of the oneOf alternatives, not exactly one")
            }
        }
        if case .array(let options)? = s["anyOf"] {
            let any = options.contains { option in
                var sub: [String] = []
                check(value, against: option, path: path, into: &sub)
                return sub.isEmpty
            }
            if !any { out.append("\(path): matches none of the anyOf alternatives") }
        }
    }

    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.double, let y = b.double { return x == y }
        return a == b
    }
}
