import Foundation
import JournalMediaCore
import JournalMediaHEIF

/// HEIF/AVIF (ISO base media file format): the `meta` box lists items (`iinf`) and where
/// their bytes are (`iloc`). The item of type `Exif` holds a 4-byte offset then the TIFF
/// structure; XMP is a `mime` item whose content type is `application/rdf+xml` (any case,
/// with or without parameters) or whose bytes are an XMP packet, or else a top-level `uuid`
/// box with XMP's UUID. A HEIF image sequence (a burst, brand `msf1`) may have no `meta` box
/// at all: its date is then the `moov/mvhd` creation time.
///
/// Reads the `meta` box (through `HEIFMeta`), the two items' extents, and the top-level box
/// headers (plus `mvhd`, 32 bytes) only; the coded image data is never read.
enum HEIFItems {
    /// The UUID of an XMP `uuid` box (the same one MP4 and JPEG 2000 use).
    static let xmpUUID: [UInt8] = [0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8,
                                   0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC]
    /// Most `mime` items tried as XMP when none declares the content type.
    private static let mimeItemsSniffed = 8

    static func blocks<Source: ByteSource>(in source: Source) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        let top = HEIFMeta<Source>.children(in: source, from: 0, to: source.size, limit: 64)
        if let moov = top.first(where: { $0.type == "moov" }) {
            blocks.movieCreated = movieHeaderTime(in: source, moov: moov)
        }
        if let meta = HEIFMeta(source) {
            readItems(meta, into: &blocks)
        }
        if blocks.xmp == nil {
            for box in top where box.type == "uuid" && box.end - box.content > 16 {
                guard source.read(box.content, 16) == xmpUUID,
                      box.end - box.content - 16 <= MetadataBlocks.maximumBlockSize else { continue }
                blocks.xmp = source.read(box.content + 16, box.end - box.content - 16)
                break
            }
        }
        return blocks
    }

    private static func readItems<Source: ByteSource>(_ meta: HEIFMeta<Source>, into blocks: inout MetadataBlocks) {
        let exifItem = meta.items.first { $0.type == "Exif" }?.id
        if let exifItem, let payload = meta.bytes(of: exifItem, limit: MetadataBlocks.maximumBlockSize),
           payload.count > 4 {
            let skip = Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8 | Int(payload[3])
            if skip >= 0, skip < payload.count - 4 {
                blocks.exif = MetadataBlocks.tiff(fromExifPayload: Array(payload[(4 + skip)...]))
            }
        }
        let mimeItems = meta.items.filter { $0.type == "mime" }
        let declared = mimeItems.first { isXMPContentType($0.contentType) }
        if let declared {
            blocks.xmp = meta.bytes(of: declared.id, limit: MetadataBlocks.maximumBlockSize)
        } else {
            // Some writers leave the content type empty or name another: sniff the bytes.
            for item in mimeItems.prefix(mimeItemsSniffed) {
                if let bytes = meta.bytes(of: item.id, limit: MetadataBlocks.maximumBlockSize), looksLikeXMP(bytes) {
                    blocks.xmp = bytes
                    break
                }
            }
        }
    }

    /// `application/rdf+xml` (or `application/xmp+xml`), any case, parameters ignored.
    static func isXMPContentType(_ type: String?) -> Bool {
        guard let type else { return false }
        let bare = type.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        let trimmed = bare.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed == "application/rdf+xml" || trimmed == "application/xmp+xml"
    }

    /// Whether the first kilobyte holds an XMP packet's opening (`<?xpacket` or `<x:xmpmeta`).
    static func looksLikeXMP(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1_024), as: UTF8.self)
        return head.contains("<?xpacket") || head.contains("xmpmeta")
    }

    /// `mvhd` creation time (seconds since 1904, UTC) as a UTC date-time; nil when absent or
    /// zero (an unset clock).
    static func movieHeaderTime<Source: ByteSource>(in source: Source, moov: HEIFBox) -> LocalDateTime? {
        let children = HEIFMeta<Source>.children(in: source, from: moov.content, to: moov.end, limit: 64)
        guard let mvhd = children.first(where: { $0.type == "mvhd" }), let version = source.read(mvhd.content, 1)?.first
        else { return nil }
        let seconds = version == 1 ? source.uint64BE(mvhd.content + 4) : source.uint32BE(mvhd.content + 4)
        guard let seconds, seconds > 0 else { return nil }
        return LocalDateTime(utcSecondsSinceEpoch: Double(seconds) - 2_082_844_800)
    }
}
