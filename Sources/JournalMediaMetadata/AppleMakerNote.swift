import Foundation
import JournalMediaCore

/// The fields JournalMedia reads from an Apple MakerNote (EXIF tag 0x927C of iPhone/iPad
/// photos), parsed from its raw bytes by our own reader because libexif reads Apple
/// values longer than 4 bytes from the wrong offset.
///
/// Layout: "Apple iOS\0" (10 bytes), version (2), byte order "MM" (or "II") at 12, entry
/// count (2) at 14, then 12-byte IFD entries (tag, type, count, value or offset). Values over
/// 4 bytes live at an offset counted from the MakerNote's first byte.
///
/// Runs once per still image that has a MakerNote; costs one pass over its entry table.
/// Every read is bounds-checked: a wrong header or a truncated entry table gives nil, an entry
/// whose value lies outside the bytes or has an unexpected type is ignored.
package struct AppleMakerNote: Sendable, Equatable {
    /// Tag 0x0001, MakerNoteVersion.
    package var version: Int?
    /// Tag 0x000B, BurstUUID: shared by the photos of one burst.
    var burstIdentifier: String?
    /// Tag 0x0011, ContentIdentifier (ExifTool 12.57: MediaGroupUUID): the Live Photo
    /// identifier, equal to the paired MOV's `com.apple.quicktime.content.identifier`.
    package var contentIdentifier: String?
    /// Tag 0x0017, LivePhotoVideoIndex.
    var livePhotoVideoIndex: Int?

    static let header: [UInt8] = Array("Apple iOS".utf8) + [0]
    /// Apple MakerNotes carry a few dozen entries; more than this is garbage.
    static let maximumEntries = 512

    /// Parses raw MakerNote bytes; nil when they are not a readable Apple MakerNote.
    package static func parse(_ bytes: [UInt8]) -> AppleMakerNote? {
        let reader = ByteReader(bytes: bytes)
        guard bytes.count >= 16, Array(bytes[0..<10]) == header else { return nil }
        switch (bytes[12], bytes[13]) {
        case (0x4D, 0x4D): reader.bigEndian = true
        case (0x49, 0x49): reader.bigEndian = false
        default: return nil
        }
        guard let count = reader.u16(at: 14), count > 0, count <= maximumEntries,
              16 + count * 12 <= bytes.count else { return nil }

        var note = AppleMakerNote()
        for index in 0..<count {
            let entry = 16 + index * 12
            guard let tag = reader.u16(at: entry), let type = reader.u16(at: entry + 2),
                  let items = reader.u32(at: entry + 4), let size = Self.size(of: type),
                  items <= bytes.count, items * size <= bytes.count else { continue }
            let length = items * size
            let valueAt: Int
            if length <= 4 {
                valueAt = entry + 8
            } else {
                guard let offset = reader.u32(at: entry + 8), offset <= bytes.count - length else { continue }
                valueAt = offset
            }
            switch tag {
            case 0x0001: note.version = reader.integer(at: valueAt, type: type, count: items)
            case 0x000B: note.burstIdentifier = reader.text(at: valueAt, length: length, type: type)
            case 0x0011: note.contentIdentifier = reader.text(at: valueAt, length: length, type: type)
            case 0x0017: note.livePhotoVideoIndex = reader.integer(at: valueAt, type: type, count: items)
            default: break
            }
        }
        return note
    }

    /// Bytes per item of a TIFF field type; nil for unknown types.
    package static func size(of type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1      // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: 2            // SHORT, SSHORT
        case 4, 9, 11: 4        // LONG, SLONG, FLOAT
        case 5, 10, 12: 8       // RATIONAL, SRATIONAL, DOUBLE
        default: nil
        }
    }
}

/// Bounds-checked integer and text reads from a byte array in one byte order.
private final class ByteReader {
    package let bytes: [UInt8]
    var bigEndian = true

    package init(bytes: [UInt8]) { self.bytes = bytes }

    func u16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let v = (0..<4).map { Int(bytes[offset + $0]) }
        return bigEndian ? v[0] << 24 | v[1] << 16 | v[2] << 8 | v[3] : v[3] << 24 | v[2] << 16 | v[1] << 8 | v[0]
    }

    /// A single SHORT, LONG or signed LONG value.
    func integer(at offset: Int, type: Int, count: Int) -> Int? {
        guard count == 1 else { return nil }
        switch type {
        case 3: return u16(at: offset)
        case 4: return u32(at: offset)
        case 9: return u32(at: offset).map { Int(Int32(truncatingIfNeeded: $0)) }
        default: return nil
        }
    }

    /// Printable ASCII up to the first NUL, trimmed; nil when empty or not printable.
    func text(at offset: Int, length: Int, type: Int) -> String? {
        guard type == 2 || type == 7 || type == 1, offset >= 0, length > 0, offset <= bytes.count - length else { return nil }
        let raw = bytes[offset..<(offset + length)].prefix { $0 != 0 }
        guard !raw.isEmpty, raw.count <= 256, raw.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
