/// File names that are not valid UTF-8 (Linux allows any bytes but `/` and NUL), shown
/// losslessly: every byte that is not part of a valid UTF-8 character, and every `%`, is
/// written `%XX` (two uppercase hex digits); everything else is kept. A name so escaped is
/// flagged (`sourceEncoding` / `pathEncoding` = `"percent"` in the manifest), so a reader
/// knows to decode it; valid UTF-8 names are never escaped and never flagged.
///
/// Output file names are spelled by `outputName(_:escaped:)`, which escapes the `%` of valid
/// names too, so no two inputs share an output name.
///
/// Used by the folder scanner for each name it reads; costs one pass over the name.
public enum FileNameEscaping {
    /// The manifest's value of `sourceEncoding` / `pathEncoding` for escaped names.
    public static let encodingName = "percent"

    /// The name as text, and whether it had to be escaped.
    public static func shown(_ bytes: [UInt8]) -> (text: String, escaped: Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
        return (escaped(bytes), true)
    }

    /// The escaped spelling of `bytes` (see the type's description).
    public static func escaped(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        func hex(_ byte: UInt8) -> String {
            let digits = Array("0123456789ABCDEF")
            return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
        }
        while index < bytes.count {
            var matched = false
            // The shortest prefix that is one whole UTF-8 character (1–4 bytes).
            for length in 1...4 where index + length <= bytes.count {
                guard let character = String(validating: bytes[index..<index + length], as: UTF8.self),
                      character.unicodeScalars.count == 1 else { continue }
                text += character == "%" ? "%25" : character
                index += length
                matched = true
                break
            }
            if !matched {
                text += hex(bytes[index])
                index += 1
            }
        }
        return text
    }

    /// How a name (or relative path) is spelled in output file names: its escaped spelling
    /// whatever its bytes, i.e. an escaped name as it is, and a valid UTF-8 name with each
    /// `%` written `%25` (other characters kept). One-to-one over the names' bytes, so the
    /// literal name `%FF.jpg` and the byte 0xFF followed by `.jpg` (shown `%FF.jpg`, flagged
    /// escaped) get different outputs (`%25FF.jpg…` and `%FF.jpg…`). A name without `%` is
    /// spelled as it is. Costs one pass over a name that holds a `%`.
    public static func outputName(_ text: String, escaped: Bool) -> String {
        guard !escaped, text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var spelled = ""
        for character in text { spelled += character == "%" ? "%25" : String(character) }
        return spelled
    }

    /// The bytes an escaped name stands for (the inverse of `escaped`); nil when `text` has a
    /// `%` not followed by two hex digits.
    public static func unescaped(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%") {
                guard index + 2 < utf8.count,
                      let byte = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) else {
                    return nil
                }
                bytes.append(byte)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }

    /// Calls `body` with `path` as a NUL-terminated C string (for `open`, `lstat`, `opendir`).
    public static func withCPath<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        let terminated = path.map { CChar(bitPattern: $0) } + [0]
        return body(terminated)
    }
}
