import Foundation

extension PushPayload {
    /// The payload's JSON, at most `maxBytes` long (measured in UTF-8, exactly as returned).
    ///
    /// When the whole payload is longer, the body alone is shortened: the longest run of its
    /// leading characters (extended grapheme clusters, so an emoji sequence or a letter
    /// with its combining marks is never split) that fits with an ellipsis appended,
    /// trailing white space dropped before the ellipsis. Every other key keeps its value.
    /// Throws `fixedPartTooLarge` when even an ellipsis alone as the body does not fit.
    ///
    /// Cost: one encoding, plus a binary search of about log2(body characters) encodings
    /// when shortening.
    public func encoded(maxBytes: Int = PushPayload.apnsMaxBytes) throws(PushPayloadError) -> EncodedPushPayload {
        guard (64...5120).contains(maxBytes) else { throw .invalidLimit(maxBytes) }
        let whole = body(content.body).encoded()
        if whole.count <= maxBytes {
            return EncodedPushPayload(data: whole, body: content.body, shortening: nil, warnings: warnings)
        }
        let characters = Array(content.body ?? "")
        func candidate(_ kept: Int) -> Data {
            body(String(characters[..<kept]) + Self.ellipsis).encoded()
        }
        guard !characters.isEmpty, candidate(0).count <= maxBytes else {
            throw .fixedPartTooLarge(bytes: body(content.body == nil ? nil : "").encoded().count, limit: maxBytes)
        }
        // Largest `kept` whose candidate fits: sizes grow with `kept`, candidate(0) fits and
        // the whole body (longer than the whole payload) does not.
        var low = 0, high = characters.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if candidate(middle).count <= maxBytes { low = middle } else { high = middle }
        }
        var kept = characters[..<low]
        while let last = kept.last, last.isWhitespace { kept = kept.dropLast() }
        let shortened = String(kept) + Self.ellipsis
        let data = body(shortened).encoded()
        return EncodedPushPayload(
            data: data, body: shortened,
            shortening: .init(originalCharacters: characters.count, keptCharacters: kept.count, unshortenedBytes: whole.count),
            warnings: warnings)
    }
}
