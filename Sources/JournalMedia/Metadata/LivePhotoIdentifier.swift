import CExif
import Foundation

/// Finds the Live Photo content identifier of a still image: the raw MakerNote entry (EXIF
/// tag 0x927C) of the image's EXIF block, found with libexif, handed to `AppleMakerNote`.
/// libexif's own MakerNote interpretation is not used (0.6.24 misreads Apple values longer
/// than 4 bytes); only the entry's raw bytes are.
///
/// Runs once per JPEG/HEIC still; costs one libexif parse of the EXIF block (no pixels).
/// Garbage in gives nil, never a crash.
enum LivePhotoIdentifierReader {
    /// The identifier (MakerNote tag 0x0011) of a still whose EXIF block is `exif`.
    static func contentIdentifier(exif: [UInt8]) -> String? {
        makerNote(exif: exif)?.contentIdentifier
    }

    /// The identifier of an image opened with libvips (its `exif-data` field).
    static func contentIdentifier(of image: VipsImageHandle) -> String? {
        guard let exif = image.exifBlock else { return nil }
        return contentIdentifier(exif: exif)
    }

    /// The parsed Apple MakerNote of an EXIF block; nil when it has none or it is not Apple's.
    static func makerNote(exif: [UInt8]) -> AppleMakerNote? {
        guard let raw = makerNoteBytes(exif: exif) else { return nil }
        return AppleMakerNote.parse(raw)
    }

    /// The raw value of the MakerNote entry of an EXIF block, through libexif.
    static func makerNoteBytes(exif: [UInt8]) -> [UInt8]? {
        let block = normalised(exif)
        guard block.count > 14, block.count <= Int(UInt32.max) else { return nil }
        let data = block.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<ExifData>? in
            guard let base = buffer.baseAddress else { return nil }
            return exif_data_new_from_data(base, UInt32(buffer.count))
        }
        guard let data else { return nil }
        defer { exif_data_unref(data) }
        let ifds = data.pointee.ifd
        for content in [ifds.2, ifds.0, ifds.1, ifds.3, ifds.4] {
            guard let content, let entry = exif_content_get_entry(content, EXIF_TAG_MAKER_NOTE),
                  let bytes = entry.pointee.data, entry.pointee.size > 0 else { continue }
            return Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
        }
        return nil
    }

    /// libexif wants "Exif\0\0" + TIFF. Loaders hand over either that, bare TIFF, or (HEIF Exif
    /// items) a 4-byte offset before one of them.
    static func normalised(_ exif: [UInt8]) -> [UInt8] {
        let marker: [UInt8] = Array("Exif".utf8) + [0, 0]
        func isTIFF(_ at: Int) -> Bool {
            guard at + 4 <= exif.count else { return false }
            let head = Array(exif[at..<(at + 4)])
            return head == [0x4D, 0x4D, 0x00, 0x2A] || head == [0x49, 0x49, 0x2A, 0x00]
        }
        for start in 0..<min(16, exif.count) {
            if start + 6 <= exif.count, Array(exif[start..<(start + 6)]) == marker { return Array(exif[start...]) }
            if isTIFF(start) { return marker + exif[start...] }
        }
        return exif
    }
}
