import Glibc

/// One JPEG marker and what it delimits: a segment with a length field (APPn, DQT, SOFn,
/// DHT, SOS, COM, …) or a marker without one (RSTn, TEM, SOI, EOI).
package struct JPEGSegment: Equatable, Sendable {
    /// The marker code, the byte after 0xFF (0xE1 for APP1, 0xDA for SOS, …).
    package var marker: UInt8
    /// Where the marker's 0xFF is, after any fill bytes before it.
    package var offset: Int
    /// The bytes after the length field; empty, at `offset + 2`, for a marker without one.
    /// For SOS the scan header: the entropy-coded data starts at `payload.upperBound`.
    package var payload: Range<Int>

    /// Where the next marker (or, after SOS, the entropy-coded data) starts.
    package var end: Int { payload.upperBound }

    /// A marker's usual name (APP1, SOF2, DQT, RST0, …) or its hex code.
    package static func name(of marker: UInt8) -> String {
        switch marker {
        case 0xE0...0xEF: "APP\(marker - 0xE0)"
        case 0xC4: "DHT"
        case 0xCC: "DAC"
        case 0xC0...0xCF: "SOF\(marker - 0xC0)"
        case 0xD0...0xD7: "RST\(marker - 0xD0)"
        case 0xD8: "SOI"
        case 0xD9: "EOI"
        case 0xDA: "SOS"
        case 0xDB: "DQT"
        case 0xDD: "DRI"
        case 0xFE: "COM"
        case 0x01: "TEM"
        default: "0xFF" + String(marker, radix: 16, uppercase: true)
        }
    }
}

/// The marker segments of a JPEG from SOI: the one walk every reader of JPEG structure
/// shares (the metadata blocks, the container-bounds gate, a raw file's embedded preview, the
/// coded layout a JPEG fallback reuses). Fill bytes (0xFF runs) before a marker are skipped;
/// markers without a length (RSTn, TEM, a second SOI) come as segments with an empty payload;
/// a segment is handed out only when its length is at least 2 and it fits in `source`.
///
/// The walk ends after EOI, after SOS (the entropy-coded data has no declared sizes: a caller
/// that reads on finds its end with `JPEGSegment.entropyCodedEnd` and calls `resume(at:)`),
/// or at the first problem; `stop` then says which. Made per walk; costs two 2-byte reads per
/// segment (marker, length) and one read of up to 4 KB per run of fill bytes; payloads are
/// never read.
package struct JPEGSegments<Source: ByteSource>: Sequence, IteratorProtocol {
    /// Why the walk ended.
    package enum Stop: Equatable, Sendable {
        /// The source does not start with SOI.
        case notJPEG
        /// EOI was handed out.
        case endOfImage
        /// SOS was handed out; its entropy-coded data starts at its `end`.
        case scan
        /// A byte other than 0xFF (or 0xFF 0x00) where a marker belongs, at `offset`.
        case notAMarker(offset: Int)
        /// The source ends inside a marker or its length field.
        case cut(offset: Int)
        /// A length field under 2 (`declared`), which cannot even cover itself.
        case badLength(marker: UInt8, offset: Int, declared: Int)
        /// A segment declaring `declared` bytes (its length field's value) past the source's end.
        case overrun(marker: UInt8, offset: Int, declared: Int)
        /// `limit` segments were handed out before any of the above.
        case limit
    }

    private let source: Source
    private let limit: Int
    private var offset = 2
    private var count = 0
    /// Nil while the walk goes on.
    package private(set) var stop: Stop?

    /// A walk of `source`, which must start with SOI, handing out at most `limit` segments.
    package init(_ source: Source, limit: Int = .max) {
        self.source = source
        self.limit = limit
        if source.read(0, 2) != [0xFF, 0xD8] { stop = .notJPEG }
    }

    /// Goes on from the marker at `offset` (after a scan's entropy-coded data, or after stray
    /// bytes a lenient reader skipped); the segment count and limit carry over.
    package mutating func resume(at offset: Int) {
        self.offset = offset
        stop = nil
    }

    package mutating func next() -> JPEGSegment? {
        guard stop == nil else { return nil }
        guard count < limit else { return end(.limit) }
        guard let head = source.read(offset, 2) else { return end(.cut(offset: offset)) }
        guard head[0] == 0xFF else { return end(.notAMarker(offset: offset)) }
        var at = offset, marker = head[1]
        if marker == 0xFF {
            guard let fill = skipFill(from: offset + 1) else { return end(.cut(offset: offset)) }
            (at, marker) = (fill.offset - 1, fill.byte)
        }
        guard marker != 0x00 else { return end(.notAMarker(offset: at)) }
        count += 1
        if marker == 0x01 || (0xD0...0xD9).contains(marker) {  // TEM, RSTn, SOI, EOI: no length
            offset = at + 2
            if marker == 0xD9 { stop = .endOfImage }
            return JPEGSegment(marker: marker, offset: at, payload: offset..<offset)
        }
        guard let length = source.uint16BE(at + 2) else { return end(.cut(offset: at)) }
        guard length >= 2 else { return end(.badLength(marker: marker, offset: at, declared: length)) }
        guard length <= source.size - (at + 2) else {
            return end(.overrun(marker: marker, offset: at, declared: length))
        }
        offset = at + 2 + length
        if marker == 0xDA { stop = .scan }
        return JPEGSegment(marker: marker, offset: at, payload: (at + 4)..<offset)
    }

    private mutating func end(_ reason: Stop) -> JPEGSegment? {
        stop = reason
        return nil
    }

    /// The first byte after a run of 0xFF starting at `start`, and where it is; nil when the
    /// source ends first. Reads 4 KB at a time.
    private func skipFill(from start: Int) -> (offset: Int, byte: UInt8)? {
        var at = start
        while at < source.size {
            guard let chunk = source.read(at, Swift.min(4_096, source.size - at)) else { return nil }
            if let index = chunk.firstIndex(where: { $0 != 0xFF }) { return (at + index, chunk[index]) }
            at += chunk.count
        }
        return nil
    }
}

extension JPEGSegment {
    /// The offset of the marker that ends the entropy-coded data starting at `start` in
    /// `bytes`: the first 0xFF not followed by a stuffed 0x00, a restart marker or another 0xFF.
    /// Nil when the data runs to the end. Costs a `memchr` through the data.
    package static func entropyCodedEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var at = start
        while at < count {
            guard let found = memchr(base + at, 0xFF, count - at) else { return nil }
            let index = base.distance(to: UnsafeRawPointer(found))
            var next = index + 1
            while next < count, bytes[next] == 0xFF { next += 1 }
            guard next < count else { return nil }
            if bytes[next] == 0x00 || (0xD0...0xD7).contains(bytes[next]) {
                at = next + 1
                continue
            }
            return index
        }
        return nil
    }
}
