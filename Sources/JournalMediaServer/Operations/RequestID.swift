import Foundation
import HTTPTypes

/// The id an answer and its access-log line share: the caller's `X-Request-Id` when it is
/// 1–128 characters of letters, digits and `-_.:+/=@` (what proxies and SDKs send: UUIDs,
/// hex, base64), else a new one (32 lowercase hex digits from the system's random source).
/// The answer carries it back in `X-Request-Id`. Runs once per request; costs a scan of the
/// header or 16 random bytes.
enum RequestID {
    static let header = HTTPField.Name("X-Request-Id")!
    static let maxLength = 128

    /// The caller's id when it is acceptable, else a new one.
    static func resolve(_ fields: HTTPFields) -> String {
        if let given = fields[header], isAcceptable(given) { return given }
        return generate()
    }

    /// Whether `text` may be echoed into a header and a log line as it is.
    static func isAcceptable(_ text: String) -> Bool {
        let bytes = text.utf8
        guard (1...maxLength).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"): true
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "+"),
                 UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "@"): true
            default: false
            }
        }
    }

    /// 128 random bits as 32 hex digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next() as UInt64) + hex(generator.next() as UInt64)
    }

    /// `value` as 16 lowercase hex digits, zero-padded.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
