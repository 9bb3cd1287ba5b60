/// A header value of the form `value; key=token; key="quoted \"string\""` — `Content-Type`,
/// one range of `Accept`, or a part's `Content-Disposition` — split into its lowercased
/// essence (`multipart/form-data`, `form-data`) and its parameters (names lowercased, values
/// unquoted). Lenient: a parameter without `=` is skipped. Made per header; costs one pass.
struct MediaTypeHeader: Sendable, Equatable {
    var essence: String
    var parameters: [String: String] = [:]

    init(_ text: String) {
        var scanner = Substring(text)
        essence = Self.token(&scanner).lowercased()
        while let semicolon = scanner.firstIndex(of: ";") {
            scanner = scanner[scanner.index(after: semicolon)...]
            let name = Self.token(&scanner, stopAtEquals: true).lowercased()
            guard scanner.first == "=" else { continue }
            scanner = scanner.dropFirst()
            let value = scanner.drop { $0 == " " || $0 == "\t" }.first == "\"" ? Self.quoted(&scanner) : Self.token(&scanner)
            if !name.isEmpty && parameters[name] == nil { parameters[name] = value }
        }
    }

    /// Text up to the next `;` (or `=`), trimmed.
    private static func token(_ scanner: inout Substring, stopAtEquals: Bool = false) -> String {
        let end = scanner.firstIndex { $0 == ";" || (stopAtEquals && $0 == "=") } ?? scanner.endIndex
        let token = scanner[..<end].trimmingSpaces
        scanner = scanner[end...]
        return token
    }

    /// A quoted string (`\` escapes the next character); the scanner moves past it.
    private static func quoted(_ scanner: inout Substring) -> String {
        scanner = scanner.drop { $0 == " " || $0 == "\t" }.dropFirst()
        var value = ""
        var escaped = false
        while let character = scanner.first {
            scanner = scanner.dropFirst()
            if escaped {
                value.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                break
            } else {
                value.append(character)
            }
        }
        scanner = scanner[(scanner.firstIndex(of: ";") ?? scanner.endIndex)...]
        return value
    }

    /// `value` as a quoted string for a header parameter: `"` and `\` escaped, control
    /// characters dropped (they could end the header line).
    static func quote(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
            if scalar == "\"" || scalar == "\\" { out.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}

/// How a successful answer is encoded, chosen from the request's `Accept` header
/// (RFC 9110 §12.5.1: the most specific matching range's `q` counts; `q=0` refuses; ties go to
/// the first offered). No `Accept` (or an empty one) means the first offered: JSON. Runs per
/// request; costs one parse of the header.
enum AnswerFormat: String, Sendable, CaseIterable {
    /// `application/json`: the renditions base64-encoded inside the JSON (or their paths in
    /// output-folder mode).
    case json = "application/json"
    /// `multipart/mixed`: the JSON part first, then one part per rendition file.
    case multipartMixed = "multipart/mixed"

    /// The format to answer in, or nil when `accept` matches none of `offered` (406).
    static func negotiate(_ accept: String?, offered: [AnswerFormat]) -> AnswerFormat? {
        let ranges = (accept ?? "").split(separator: ",").map { MediaTypeHeader(String($0)) }.filter { !$0.essence.isEmpty }
        guard !ranges.isEmpty else { return offered.first }
        var best: (format: AnswerFormat, q: Double)?
        for format in offered {
            let type = format.rawValue
            let major = type.prefix { $0 != "/" } + "/*"
            // The most specific range that matches decides this format's weight.
            var match: (specificity: Int, q: Double)?
            for range in ranges {
                let specificity = range.essence == type ? 3 : range.essence == major ? 2 : range.essence == "*/*" ? 1 : 0
                guard specificity > 0, specificity > (match?.specificity ?? 0) else { continue }
                let q = range.parameters["q"].flatMap(Double.init).map { min(1, max(0, $0)) } ?? 1
                match = (specificity, q)
            }
            if let match, match.q > 0, match.q > (best?.q ?? 0) { best = (format, match.q) }
        }
        return best?.format
    }
}
