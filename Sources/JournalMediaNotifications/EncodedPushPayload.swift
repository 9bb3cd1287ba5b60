import Foundation

/// A push payload as sent: the exact JSON bytes (at most the limit it was fitted to), and
/// what was done to fit. The result of `PushPayload.encoded(maxBytes:)`; pure data.
public struct EncodedPushPayload: Sendable, Equatable {
    /// The body shortened to fit: its length before and after, in characters (grapheme
    /// clusters), the kept part not counting the added ellipsis.
    public struct Shortening: Sendable, Equatable {
        public var originalCharacters: Int
        public var keptCharacters: Int
        /// Size the payload would have had with the whole body.
        public var unshortenedBytes: Int
    }

    /// UTF-8 JSON, compact, keys sorted.
    public let data: Data
    /// The body actually written (shortened or not); nil when there is none.
    public let body: String?
    /// Set when the body was shortened.
    public let shortening: Shortening?
    /// Allowed but probably unintended settings (see `PushPayload.warnings`).
    public let warnings: [String]

    public var byteCount: Int { data.count }
}
