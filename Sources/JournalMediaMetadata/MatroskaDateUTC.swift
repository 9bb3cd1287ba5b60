import Foundation
import JournalMediaCore

/// A Matroska or WebM file's `DateUTC` (Segment → Info → 0x4461: nanoseconds since
/// 2001-01-01T00:00:00 UTC, a signed 8-byte big-endian integer), read from the EBML element
/// headers directly. libav exports it as `creation_time` when it opens the file; this is for
/// files it refuses (a damaged seek head, a cut file) whose Info element is still whole.
///
/// Used by the capture-date reader for `.mkv`/`.webm` files whose container tags have no
/// `creation_time`; costs reads of at most 256 element headers in the first MiB.
package enum MatroskaDateUTC {
    static let segment = 0x1853_8067
    static let info = 0x1549_A966
    static let dateUTC = 0x4461

    /// The date as libav spells `creation_time` ("2010-02-03T21:17:48.000000Z"), or nil.
    package static func find(in source: some ByteSource) -> String? {
        let limit = min(source.size, 1 << 20)
        var offset = 0
        var end = limit
        var elements = 0
        while elements < 256, offset < end, let (id, idLength) = vint(source, offset, keepMarker: true),
              let (size, sizeLength) = vint(source, offset + idLength, keepMarker: false) {
            elements += 1
            let body = offset + idLength + sizeLength
            switch id {
            case segment, info:
                // Enter: its children follow (an unknown size runs to the end of what is read).
                if let size, body + size < end { end = body + size }
                offset = body
            case dateUTC:
                guard size == 8, let bytes = source.read(body, 8) else { return nil }
                let nanoseconds = bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
                let seconds = 978_307_200 + Double(nanoseconds) / 1e9
                guard seconds.isFinite, let utc = LocalDateTime(utcSecondsSinceEpoch: seconds.rounded(.down)) else { return nil }
                return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.000000Z", utc.year, utc.month, utc.day,
                              utc.hour, utc.minute, utc.second)
            default:
                guard let size else { return nil }  // an unknown size only makes sense for a master we enter
                offset = body + size
            }
        }
        return nil
    }

    /// An EBML variable-length integer at `offset`: its value (nil for the all-ones "unknown"
    /// size) and length in bytes (1–8). IDs keep their length marker, sizes drop it.
    static func vint(_ source: some ByteSource, _ offset: Int, keepMarker: Bool) -> (Int?, Int)? {
        guard let first = source.read(offset, 1)?.first, first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= (keepMarker ? 4 : 8), let bytes = source.read(offset, length) else { return nil }
        var value = Int(keepMarker ? first : first & (0xFF >> length))
        var allOnes = value == (0xFF >> length)
        for byte in bytes.dropFirst() {
            value = value << 8 | Int(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return (!keepMarker && allOnes ? nil : value, length)
    }
}
