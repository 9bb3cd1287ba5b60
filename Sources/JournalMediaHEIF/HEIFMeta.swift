import JournalMediaCore

/// One ISO BMFF box: its type and where its content (after the header) starts and ends.
package struct HEIFBox {
    package var type: String
    /// Offset of the box's content (after size, type and any 64-bit size).
    package var content: Int
    package var end: Int
}

/// The `meta` box of a HEIF/AVIF file (ISO/IEC 14496-12 and 23008-12): which item is the
/// primary image (`pitm`), what each item is (`iinf`), where its bytes are (`iloc`, `idat`),
/// how items refer to each other (`iref`) and which properties each item has (`iprp`:
/// `ipco` + `ipma`).
///
/// Shared by the metadata reader (`HEIFItems`: the Exif and XMP items) and the in-process
/// HEVC decoder (`HEIFImageItems`: the primary image, its tiles and properties). Parsed once
/// per use from a `ByteSource`; costs a walk over the `meta` box only (a few kilobytes), the
/// coded image data is read only when `bytes(of:limit:)` asks for an item. Every read is
/// bounds-checked: malformed input yields fewer items, never a trap.
package struct HEIFMeta<Source: ByteSource> {
    package typealias Box = HEIFBox

    /// Where an item's bytes are: in the file (construction method 0) or in `idat` (1).
    struct Location {
        var constructionMethod = 0
        var baseOffset = 0
        var extents: [(offset: Int, length: Int)] = []
        /// Data reference index 0: the bytes are in this file (not in another one `dref` names).
        var inThisFile = true
    }

    /// An `infe` entry (versions 2 and 3).
    package struct ItemInfo {
        package var id: Int
        package var type: String
        /// For `mime` items, the content type.
        package var contentType: String?
    }

    /// An `iref` entry: `from` refers to `to` (in order) with `type` (`dimg`, `auxl`, `thmb`, …).
    package struct Reference {
        package var type: String
        var from: Int
        var to: [Int]
    }

    /// An `ipma` association: the property at `index` (0-based into `properties`).
    struct Association {
        var index: Int
        var essential: Bool
    }

    let source: Source
    var primaryItem: Int?
    package var items: [ItemInfo] = []
    var locations: [Int: Location] = [:]
    var idat: Box?
    var references: [Reference] = []
    /// The `ipco` children, in order (property index n is `properties[n - 1]`).
    var properties: [Box] = []
    var associations: [Int: [Association]] = [:]

    /// Parses the `meta` box among the file's first top-level boxes; nil when there is none.
    package init?(_ source: Source) {
        self.source = source
        guard let meta = Self.children(in: source, from: 0, to: source.size, limit: 64).first(where: { $0.type == "meta" })
        else { return nil }
        // meta is a full box: version and flags precede its children.
        let boxes = Self.children(in: source, from: meta.content + 4, to: meta.end)
        if let pitm = boxes.first(where: { $0.type == "pitm" }), let version = source.uint8(pitm.content) {
            primaryItem = version == 0 ? source.uint16BE(pitm.content + 4) : source.uint32BE(pitm.content + 4)
        }
        if let iinf = boxes.first(where: { $0.type == "iinf" }) { items = Self.itemInfos(iinf, in: source) }
        if let iloc = boxes.first(where: { $0.type == "iloc" }) { locations = Self.itemLocations(iloc, in: source) }
        idat = boxes.first(where: { $0.type == "idat" })
        if let iref = boxes.first(where: { $0.type == "iref" }) { references = Self.itemReferences(iref, in: source) }
        if let iprp = boxes.first(where: { $0.type == "iprp" }) {
            let inner = Self.children(in: source, from: iprp.content, to: iprp.end, limit: 16)
            if let ipco = inner.first(where: { $0.type == "ipco" }) {
                properties = Self.children(in: source, from: ipco.content, to: ipco.end)
            }
            for ipma in inner where ipma.type == "ipma" {
                Self.propertyAssociations(ipma, in: source, into: &associations)
            }
        }
    }

    func item(_ id: Int) -> ItemInfo? { items.first { $0.id == id } }

    /// The properties associated with `item`, in association order (which is the order
    /// transformative properties apply in), with their essential flags.
    func properties(of item: Int) -> [(box: Box, essential: Bool)] {
        (associations[item] ?? []).compactMap { association in
            properties.indices.contains(association.index) ? (properties[association.index], association.essential) : nil
        }
    }

    /// The items `from` refers to with `type`, in order.
    func referenced(from item: Int, type: String) -> [Int] {
        references.first { $0.from == item && $0.type == type }?.to ?? []
    }

    /// The bytes of an item: its extents in the file (method 0) or in `idat` (method 1),
    /// concatenated; nil when any extent lies outside the file (or `idat`), the method is
    /// another, or the total would exceed `limit`.
    package func bytes(of item: Int, limit: Int) -> [UInt8]? {
        guard let location = locations[item], location.inThisFile else { return nil }
        var origin = location.baseOffset
        var end = source.size
        if location.constructionMethod == 1 {
            guard let idat else { return nil }
            origin += idat.content
            end = idat.end
        } else if location.constructionMethod != 0 {
            return nil
        }
        var result: [UInt8] = []
        for extent in location.extents {
            let (start, overflow) = origin.addingReportingOverflow(extent.offset)
            guard !overflow, start >= 0, start <= end else { return nil }
            let length = extent.length == 0 ? end - start : extent.length
            guard length > 0, length <= end - start, length <= limit - result.count,
                  let piece = source.read(start, length) else { return nil }
            result += piece
        }
        return result.isEmpty ? nil : result
    }

    /// The first item extent that lies (partly) outside the file or its `idat`: the item, the
    /// extent's absolute start and its declared length; nil when every extent fits. Items in
    /// other files (`dref`) and construction methods other than 0 and 1 are not checked.
    /// Costs nothing beyond the parse (the locations are already in memory).
    package func extentOutsideFile() -> (item: Int, start: Int, length: Int)? {
        for (item, location) in locations.sorted(by: { $0.key < $1.key }) where location.inThisFile {
            var origin = location.baseOffset
            var end = source.size
            if location.constructionMethod == 1 {
                guard let idat else { return (item, origin, location.extents.first?.length ?? 0) }
                origin += idat.content
                end = idat.end
            } else if location.constructionMethod != 0 {
                continue
            }
            for extent in location.extents {
                let (start, overflow) = origin.addingReportingOverflow(extent.offset)
                guard !overflow, start >= 0, start <= end, extent.length <= end - start else {
                    return (item, overflow ? Int.max : start, extent.length)
                }
            }
        }
        return nil
    }

    /// The boxes between `from` and `to` (at most `limit`); stops at the first malformed one.
    package static func children(in source: Source, from start: Int, to end: Int, limit: Int = 4_096) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while boxes.count < limit, offset >= 0, offset + 8 <= end, let size32 = source.uint32BE(offset),
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

    /// `iinf` entries. Only `infe` versions 2 and 3 carry item types; older entries are skipped.
    private static func itemInfos(_ iinf: Box, in source: Source) -> [ItemInfo] {
        guard let version = source.uint8(iinf.content) else { return [] }
        let first = iinf.content + 4 + (version == 0 ? 2 : 4)
        var infos: [ItemInfo] = []
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
            infos.append(ItemInfo(id: id, type: type, contentType: contentType))
        }
        return infos
    }

    private static func terminator(in source: Source, from start: Int, to end: Int) -> Int? {
        guard start < end, let bytes = source.read(start, min(end - start, 1_024)),
              let index = bytes.firstIndex(of: 0) else { return nil }
        return start + index
    }

    /// `iloc` versions 0–2: every item's construction method, base offset and extents.
    private static func itemLocations(_ iloc: Box, in source: Source) -> [Int: Location] {
        guard let version = source.uint8(iloc.content), version <= 2,
              let sizes = source.read(iloc.content + 4, 2) else { return [:] }
        let offsetSize = Int(sizes[0] >> 4), lengthSize = Int(sizes[0] & 0x0F)
        let baseOffsetSize = Int(sizes[1] >> 4), indexSize = version == 0 ? 0 : Int(sizes[1] & 0x0F)
        var cursor = iloc.content + 6
        func number(_ width: Int) -> Int? {
            defer { cursor += width }
            guard cursor + width <= iloc.end else { return nil }
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
            guard let dataReference = number(2), let base = number(baseOffsetSize), let extentCount = number(2) else { break }
            location.baseOffset = base
            location.inThisFile = dataReference == 0
            for _ in 0..<extentCount {
                guard number(indexSize) != nil, let offset = number(offsetSize), let length = number(lengthSize)
                else { return locations }
                location.extents.append((offset, length))
            }
            locations[id] = location
        }
        return locations
    }

    /// `iref` versions 0 (16-bit item IDs) and 1 (32-bit).
    private static func itemReferences(_ iref: Box, in source: Source) -> [Reference] {
        guard let version = source.uint8(iref.content), version <= 1 else { return [] }
        let idSize = version == 0 ? 2 : 4
        func id(_ offset: Int) -> Int? { idSize == 2 ? source.uint16BE(offset) : source.uint32BE(offset) }
        var references: [Reference] = []
        for box in children(in: source, from: iref.content + 4, to: iref.end) {
            guard let from = id(box.content), let count = source.uint16BE(box.content + idSize),
                  box.content + idSize + 2 + count * idSize <= box.end else { continue }
            var to: [Int] = []
            to.reserveCapacity(count)
            for index in 0..<count {
                guard let target = id(box.content + idSize + 2 + index * idSize) else { break }
                to.append(target)
            }
            references.append(Reference(type: box.type, from: from, to: to))
        }
        return references
    }

    /// `ipma` versions 0 and 1, flags bit 0 choosing 15-bit property indices.
    private static func propertyAssociations(_ ipma: Box, in source: Source, into associations: inout [Int: [Association]]) {
        guard let header = source.read(ipma.content, 4), let count = source.uint32BE(ipma.content + 4) else { return }
        let version = header[0], wideIndex = header[3] & 1 == 1
        var cursor = ipma.content + 8
        for _ in 0..<min(count, 65_536) {
            let id: Int?
            if version < 1 { id = source.uint16BE(cursor); cursor += 2 } else { id = source.uint32BE(cursor); cursor += 4 }
            guard let id, cursor < ipma.end, let n = source.uint8(cursor) else { return }
            cursor += 1
            var list: [Association] = []
            for _ in 0..<Int(n) {
                guard cursor + (wideIndex ? 2 : 1) <= ipma.end else { return }
                let value: Int?
                if wideIndex { value = source.uint16BE(cursor); cursor += 2 } else { value = source.uint8(cursor).map(Int.init); cursor += 1 }
                guard let value else { return }
                let essential = wideIndex ? value & 0x8000 != 0 : value & 0x80 != 0
                let index = wideIndex ? value & 0x7FFF : value & 0x7F
                // Index 0 means "no property".
                if index > 0 { list.append(Association(index: index - 1, essential: essential)) }
            }
            if associations[id] == nil { associations[id] = list }
        }
    }
}
