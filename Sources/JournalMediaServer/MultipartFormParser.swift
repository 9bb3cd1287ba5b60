import Foundation

/// Splits a collected `multipart/form-data` body (RFC 7578 over RFC 2046's multipart syntax)
/// into its parts: each part's `Content-Disposition` name and file name, its `Content-Type`,
/// and the byte range of its content inside the body (nothing is copied).
///
/// Bounded: the boundary is 1–70 characters from RFC 2046's `bchars`, at most `maxParts`
/// parts, at most `maxHeaderBytes` of headers per part; the body itself was already bounded
/// by the server's `maxBodyBytes`. A preamble before the first boundary and an epilogue after
/// the closing one are ignored, as RFC 2046 asks. Every malformed body is a `MultipartError`
/// naming what is wrong. Runs once per multipart request, on a `BlockingWork` thread (not
/// the cooperative pool); costs one linear pass over the body (`ByteSearch` for the delimiter)
/// plus the header lines.
struct MultipartFormParser {
    /// One part: where its content lies in the body, and what its headers say.
    struct Part: Sendable, Equatable {
        /// `Content-Disposition: form-data; name="…"`.
        var name: String?
        /// `Content-Disposition: …; filename="…"` (or `filename*=UTF-8''…`), as sent.
        var filename: String?
        /// The part's `Content-Type`, as sent; nil when absent (RFC 7578: `text/plain`).
        var contentType: String?
        /// The content's byte offsets in the body.
        var range: Range<Int>
    }

    /// Longest boundary RFC 2046 allows.
    static let maxBoundaryLength = 70
    /// Most header bytes one part may carry (a part's headers are a few hundred bytes).
    static let maxHeaderBytes = 16 * 1024
    /// RFC 2046 `bchars` (a space is allowed, but not as the last character).
    static let boundaryCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)

    let boundary: String
    let maxParts: Int
    let maxHeaderBytes: Int

    /// The boundary of a `Content-Type: multipart/form-data; boundary=…` header value.
    static func boundary(in contentType: String) throws(MultipartError) -> String {
        let type = MediaTypeHeader(contentType)
        guard let boundary = type.parameters["boundary"] else {
            throw MultipartError(.malformedMultipart, "Content-Type \(type.essence) has no boundary parameter")
        }
        guard (1...maxBoundaryLength).contains(boundary.utf8.count) else {
            throw MultipartError(.malformedMultipart,
                                 "the boundary is \(boundary.utf8.count) characters; RFC 2046 allows 1–\(maxBoundaryLength)")
        }
        guard boundary.utf8.allSatisfy(boundaryCharacters.contains), boundary.utf8.last != UInt8(ascii: " ") else {
            throw MultipartError(.malformedMultipart, "the boundary holds characters RFC 2046 does not allow")
        }
        return boundary
    }

    /// The parts of `body`, in order.
    func parse(_ body: UnsafeRawBufferPointer) throws(MultipartError) -> [Part] {
        let dashBoundary = Array(("--" + boundary).utf8)
        let delimiter = [UInt8(ascii: "\r"), UInt8(ascii: "\n")] + dashBoundary
        let search = ByteSearch(delimiter)
        // The first boundary line: at the very start, or after a preamble and its CRLF.
        var position: Int
        if ByteSearch.starts(body, with: dashBoundary, at: 0) {
            position = 0
        } else if let found = search.first(in: body, from: 0) {
            position = found + 2
        } else {
            throw MultipartError(.malformedMultipart, "the body has no boundary line (--\(boundary))")
        }
        var parts: [Part] = []
        while true {
            var cursor = position + dashBoundary.count
            if ByteSearch.starts(body, with: Array("--".utf8), at: cursor) { break }  // the closing delimiter
            while cursor < body.count && (body[cursor] == UInt8(ascii: " ") || body[cursor] == UInt8(ascii: "\t")) {
                cursor += 1
            }
            guard ByteSearch.starts(body, with: Self.crlf, at: cursor) else {
                throw MultipartError(.malformedMultipart,
                                     cursor >= body.count ? "the body ends inside a boundary line (truncated?)"
                                         : "a boundary line is not followed by CRLF")
            }
            cursor += 2
            guard parts.count < maxParts else {
                throw MultipartError(.overPartLimit, "more than \(maxParts) parts")
            }
            let (headers, contentStart) = try readHeaders(body, from: cursor)
            guard let end = search.first(in: body, from: contentStart) else {
                throw MultipartError(.malformedMultipart, "part \(parts.count + 1) has no closing boundary (truncated body?)")
            }
            var part = Part(name: nil, filename: nil, contentType: nil, range: contentStart..<end)
            for (name, value) in headers {
                switch name.lowercased() {
                case "content-disposition":
                    let disposition = MediaTypeHeader(value)
                    part.name = disposition.parameters["name"]
                    part.filename = disposition.parameters["filename*"].flatMap(Self.extendedValue)
                        ?? disposition.parameters["filename"]
                case "content-type":
                    part.contentType = value
                default:
                    continue
                }
            }
            parts.append(part)
            position = end + 2
        }
        return parts
    }

    private static let crlf = [UInt8(ascii: "\r"), UInt8(ascii: "\n")]

    /// The header lines of a part starting at `start`, and where its content starts.
    private func readHeaders(_ body: UnsafeRawBufferPointer,
                             from start: Int) throws(MultipartError) -> ([(String, String)], Int) {
        if ByteSearch.starts(body, with: Self.crlf, at: start) { return ([], start + 2) }  // no headers
        let window = min(body.count, start + maxHeaderBytes + 4)
        let terminator = ByteSearch(Array("\r\n\r\n".utf8))
        guard let end = terminator.first(in: UnsafeRawBufferPointer(rebasing: body[..<window]), from: start) else {
            throw MultipartError(.malformedMultipart,
                                 window - start >= maxHeaderBytes ? "a part's headers pass \(maxHeaderBytes) bytes"
                                     : "a part's headers are not terminated by an empty line (truncated?)")
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: body[start..<end]), as: UTF8.self)
        var headers: [(String, String)] = []
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex,
                  !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                throw MultipartError(.malformedMultipart, "a part header line is not \"Name: value\"")
            }
            let name = line[..<colon]
            guard name.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw MultipartError(.malformedMultipart, "a part header name holds spaces or non-ASCII characters")
            }
            headers.append((String(name), line[line.index(after: colon)...].trimmingSpaces))
        }
        return (headers, end + 4)
    }

    /// RFC 8187's `UTF-8''percent%20encoded` (other charsets are not decoded: nil).
    static func extendedValue(_ value: String) -> String? {
        let pieces = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces[0].lowercased() == "utf-8" else { return nil }
        var bytes: [UInt8] = []
        var iterator = pieces[2].utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next(), let low = iterator.next(),
                  let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Why a multipart body was refused: `malformedMultipart` (its syntax) or `overPartLimit`.
/// Answered as 400 problem+json with that reason and stage `read`.
struct MultipartError: Error, Sendable, Equatable {
    enum Reason: String, Sendable { case malformedMultipart, overPartLimit }
    let reason: Reason
    let message: String
    init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }
}

/// Finds a byte string in a buffer in time linear in the buffer whatever its content:
/// `memchr` jumps to each occurrence of the pattern's first byte, `memcmp` checks the rest
/// and stops at the first difference. Two candidates' matched prefixes can only overlap
/// where the first byte recurs inside the pattern, so the total work is at most the buffer
/// length times the number of times the first byte occurs in the pattern: once for the
/// multipart delimiter (CR, then `\n--` and the boundary, whose RFC 2046 characters exclude
/// CR), twice for the `CRLFCRLF` header terminator. (Boyer–Moore–Horspool, used before,
/// degraded to length × pattern when the body repeats the boundary's last characters: a
/// 50 MB body of `a` under a 70-character boundary of `a` took 5 s.) Made per search
/// pattern; costs nothing beyond the pattern.
struct ByteSearch {
    let pattern: [UInt8]

    init(_ pattern: [UInt8]) {
        self.pattern = pattern
    }

    /// The offset of the first occurrence at or after `start`, or nil.
    func first(in buffer: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let firstByte = pattern.first else { return start }
        guard let base = buffer.baseAddress, start >= 0 else { return nil }
        let lastCandidate = buffer.count - pattern.count
        var position = start
        return pattern.withUnsafeBytes { needle -> Int? in
            guard let needleBase = needle.baseAddress else { return nil }
            while position <= lastCandidate {
                guard let hit = memchr(base + position, Int32(firstByte), lastCandidate - position + 1) else { return nil }
                let candidate = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + candidate, needleBase, needle.count) == 0 { return candidate }
                position = candidate + 1
            }
            return nil
        }
    }

    /// Whether `buffer` holds `prefix` at `offset`.
    static func starts(_ buffer: UnsafeRawBufferPointer, with prefix: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + prefix.count <= buffer.count else { return false }
        for index in prefix.indices where buffer[offset + index] != prefix[index] { return false }
        return true
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
