import Foundation

/// The one way the CLI writes to stderr: every line has its control characters escaped, so a
/// file name can neither start a forged line (`evil\njournal-media: error: …`) nor send
/// escape sequences to the terminal. Manifests and JSON on stdout keep the exact names.
///
/// Escaped: C0 controls (U+0000–U+001F) as `\n`, `\r`, `\t` or `\xHH`; DEL as `\x7F`; C1
/// controls (U+0080–U+009F), the line and paragraph separators and the bidirectional
/// overrides and isolates as `\u{HHHH}`; a backslash as `\\`, so the escaped form is
/// unambiguous. Runs for every stderr line; costs one pass over its scalars.
enum StandardError {
    /// Writes `line` (escaped) followed by one newline.
    static func writeLine(_ line: String) {
        write(raw: escaped(line) + "\n")
    }

    /// Writes text the CLI composed itself (progress redraws), unescaped.
    static func write(raw text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// `text` with every control character spelled out (see the type's documentation).
    static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: out.append(contentsOf: #"\n"#.unicodeScalars)
            case 0x0D: out.append(contentsOf: #"\r"#.unicodeScalars)
            case 0x09: out.append(contentsOf: #"\t"#.unicodeScalars)
            case 0x5C: out.append(contentsOf: #"\\"#.unicodeScalars)
            case 0x00...0x1F, 0x7F:
                out.append(contentsOf: String(format: "\\x%02X", scalar.value).unicodeScalars)
            case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                out.append(contentsOf: String(format: "\\u{%04X}", scalar.value).unicodeScalars)
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// A multi-line message from the argument parser: the values the user typed that hold
    /// control characters are replaced by their escaped form first, then each of the
    /// parser's own lines is escaped, so only the parser's line breaks remain.
    static func writeParserMessage(_ message: String, arguments: [String]) {
        // One error prefix for the whole tool: the parser's own "Error: " becomes ours.
        var text = message.hasPrefix("Error: ") ? "journal-media: error: " + message.dropFirst(7) : message
        let hostile = Set(arguments).filter { $0.unicodeScalars.contains(where: needsEscaping) }
            .sorted { $0.utf8.count > $1.utf8.count }
        // Placeholders (private-use characters, never escaped) keep each value's escaped form
        // from being escaped a second time with the parser's lines.
        for (index, argument) in hostile.enumerated() {
            text = text.replacingOccurrences(of: argument, with: "\u{E000}\(index)\u{E001}")
        }
        var escapedText = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { escaped(String($0)) }.joined(separator: "\n")
        for (index, argument) in hostile.enumerated() {
            escapedText = escapedText.replacingOccurrences(of: "\u{E000}\(index)\u{E001}", with: escaped(argument))
        }
        write(raw: escapedText + "\n")
    }

    private static func needsEscaping(_ scalar: Unicode.Scalar) -> Bool {
        escaped(String(scalar)) != String(scalar)
    }
}
