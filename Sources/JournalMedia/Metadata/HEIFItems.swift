/// HEIF/AVIF (ISO base media file format): the `meta` box lists items (`iinf`) and where
/// their bytes are (`iloc`). The item of type `Exif` holds a 4-byte offset then the TIFF
/// structure; a `mime` item of type `application/rdf+xml` holds XMP.
///
/// Reads the `meta` box and the two items' extents only; the coded image data is never read.
enum HEIFItems {
    private struct Box {
        var type: String
        /// Offset of the box's content (after size, type and any 64-bit size).
        var content: Int
        var end: Int
    }

    private struct Location {
        var constructionMethod = 0
        var baseOffset = 0
        var extents: [(offset: Int, length: Int)] = []
    }

    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        guard let meta = children(in: source, from: 0, to: source.size, limit: 64).first(where: { $0.type == "meta" }) else { return blocks }
        // meta is a full box: version and flags precede its children.
        let metaBoxes = children(in: source, from: meta.content + 4, to: meta.end)
        var exifItem: Int?
        var xmpItem: Int?
        if let iinf = metaBoxes.first(where: { $0.type == "iinf" }) {
            for (id, type, contentType) in itemInfos(iinf, in: source) {
                if type == "Exif", exifItem == nil { exifItem = id }
                if type == "mime", contentType == "application/rdf+xml", xmpItem == nil { xmpItem = id }
            }
        }
        guard exifItem != nil || xmpItem != nil, let iloc = metaBoxes.first(where: { $0.type == "iloc" }) else {
            return blocks
        }
        let locations = itemLocations(iloc, in: source)
        let idat = metaBoxes.first(where: { $0.type == "idat" })
        if let exifItem, let location = locations[exifItem], let payload = bytes(of: location, idat: idat, in: source),
           payload.count > 4 {
            let skip = Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8 | Int(payload[3])
            if skip >= 0, skip < payload.count - 4 {
                blocks.exif = MetadataBlocks.tiff(fromExifPayload: Array(payload[(4 + skip)...]))
            }
        }
        if let xmpItem, let location = locations[xmpItem] {
            blocks.xmp = bytes(of: location, idat: idat, in: source)
        }
        return blocks
    }

    /// The boxes between `from` and `to` (at most `limit`); stops at the first malformed one.
    private static func children(in source: some ByteSource, from start: Int, to end: Int, limit: Int = 4_096) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while boxes.count < limit, offset + 8 <= end, let size32 = source.uint32BE(offset),
              let type = source.fourCC(offset + 4) {
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let size64 = source.uint64BE(offset + 8) else { break }
                size = size64
                header = 16
            } else if size32 == 0 {
                size = end - offset
            }
            guard size >= header, size <= end - offset else { break }
            boxes.append(Box(type: type, content: offset + header, end: offset + size))
            offset += size
        }
        return boxes
    }

    /// `iinf` entries: (item ID, item type, content type for `mime` items). Only `infe`
    /// versions 2 and 3 carry item types; older entries are skipped.
    private static func itemInfos(_ iinf: Box, in source: some ByteSource) -> [(Int, String, String?)] {
        guard let version = source.uint8(iinf.content) else { return [] }
        let first = iinf.content + 4 + (version == 0 ? 2 : 4)
        var infos: [(Int, String, String?)] = []
        for infe in children(in: source, from: first, to: iinf.end) where infe.type == "infe" {
            guard let infeVersion = source.uint8(infe.content), infeVersion >= 2 else { continue }
            var cursor = infe.content + 4
            let id: Int?
            if infeVersion == 2 { id = source.uint16BE(cursor); cursor += 2 } else { id = source.uint32BE(cursor); cursor += 4 }
            cursor += 2  // protection index
            guard let id, let type = source.fourCC(cursor) else { continue }
            cursor += 4
            var contentType: String?
            if type == "mime", let nameEnd = terminator(in: source, from: cursor, to: infe.end),
               let typeEnd = terminator(in: source, from: nameEnd + 1, to: infe.end),
               let text = source.read(nameEnd + 1, typeEnd - nameEnd - 1) {
                contentType = String(decoding: text, as: UTF8.self)
            }
            infos.append((id, type, contentType))
        }
        return infos
    }

    private static func terminator(in source: some ByteSource, from start: Int, to end: Int) -> Int? {
        guard start < end, let bytes = source.read(start, min(end - start, 1_024)),
              let index = bytes.firstIndex(of: 0) else { return nil }
        return start + index
    }

    /// `iloc` versions 0–2: every item's construction method, base offset and extents.
    private static func itemLocations(_ iloc: Box, in source: some ByteSource) -> [Int: Location] {
        guard let version = source.uint8(iloc.content), version <= 2,
              let sizes = source.read(iloc.content + 4, 2) else { return [:] }
        let offsetSize = Int(sizes[0] >> 4), lengthSize = Int(sizes[0] & 0x0F)
        let baseOffsetSize = Int(sizes[1] >> 4), indexSize = version == 0 ? 0 : Int(sizes[1] & 0x0F)
        var cursor = iloc.content + 6
        func number(_ width: Int) -> Int? {
            defer { cursor += width }
            switch width {
            case 0: return 0
            case 2: return source.uint16BE(cursor)
            case 4: return source.uint32BE(cursor)
            case 8: return source.uint64BE(cursor)
            default: return nil
            }
        }
        guard let count = number(version < 2 ? 2 : 4) else { return [:] }
        var locations: [Int: Location] = [:]
        for _ in 0..<min(count, 65_536) {
            guard cursor < iloc.end, let id = number(version < 2 ? 2 : 4) else { break }
            var location = Location()
            if version >= 1 {
                guard let method = number(2) else { break }
                location.constructionMethod = method & 0x0F
            }
            guard number(2) != nil, let base = number(baseOffsetSize), let extentCount = number(2) else { break }
            location.baseOffset = base
            for _ in 0..<extentCount {
                guard number(indexSize) != nil, let offset = number(offsetSize), let length = number(lengthSize),
                      cursor <= iloc.end else { return locations }
                location.extents.append((offset, length))
            }
            locations[id] = location
        }
        return locations
    }

    /// The bytes of an item: its extents in the file (method 0) or in `idat` (method 1).
    private static func bytes(of location: Location, idat: Box?, in source: some ByteSource) -> [UInt8]? {
        var origin = location.baseOffset
        if location.constructionMethod == 1 {
            guard let idat else { return nil }
            origin += idat.content
        } else if location.constructionMethod != 0 {
            return nil
        }
        var result: [UInt8] = []
        for extent in location.extents {
            let length = extent.length == 0 ? source.size - (origin + extent.offset) : extent.length
            guard length > 0, result.count + length <= MetadataBlocks.maximumBlockSize,
                  let piece = source.read(origin + extent.offset, length) else { return nil }
            result += piece
        }
        return result.isEmpty ? nil : result
    }
}
