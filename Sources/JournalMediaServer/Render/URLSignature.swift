import Foundation
import JournalMedia

/// The signature of an on-demand URL: HMAC-SHA256 (RFC 2104) with a configured key over the
/// key's salt followed by the path after the signature (`/PRESET/SOURCE…`), written as
/// unpadded base64url (43 characters), as imgproxy does. Checked per request before anything
/// else is read; costs two SHA-256 passes over ~100 bytes per configured key.
enum URLSignature {
    /// The signature `signer` would put in a URL for `path` (`/thumb/file/a.jpg`).
    static func sign(_ path: String, with signer: RenderConfiguration.SigningKey) -> String {
        Base64URL.encode(hmacSHA256(key: signer.key, message: signer.salt + Array(path.utf8)))
    }

    /// Whether `given` is a valid signature of `path` under any of `keys`. Takes the same
    /// time whether it matches or not and whichever key matches: every key's HMAC is computed
    /// and compared in full, and a malformed `given` is compared as zeros.
    static func isValid(_ given: String, path: String, keys: [RenderConfiguration.SigningKey]) -> Bool {
        let decoded = Base64URL.decode(given)
        let candidate = decoded.flatMap { $0.count == 32 ? $0 : nil } ?? [UInt8](repeating: 0, count: 32)
        var matched: UInt8 = 0
        for signer in keys {
            let expected = hmacSHA256(key: signer.key, message: signer.salt + Array(path.utf8))
            var difference: UInt8 = 0
            for index in 0..<32 { difference |= expected[index] ^ candidate[index] }
            matched |= difference == 0 ? 1 : 0
        }
        return matched == 1 && decoded?.count == 32
    }

    /// HMAC-SHA256 of `message` under `key` (64-byte blocks; longer keys hashed first).
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha256(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha256(block.map { $0 ^ 0x36 } + message)
        return sha256(block.map { $0 ^ 0x5c } + inner)
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        RenderConfiguration.hexBytes(ContentDigest.sha256(bytes)) ?? []
    }
}

/// Unpadded base64url (RFC 4648 §5): signatures and URL sources inside a path segment, where
/// `%` escapes are not accepted (`CanonicalPath`).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// The bytes, or nil for text outside the base64url alphabet (padding tolerated).
    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "=")
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "=", with: "")
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
