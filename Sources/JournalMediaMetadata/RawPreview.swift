import JournalMediaCore

/// The largest JPEG preview a camera raw file embeds, found by walking its structure — never
/// its sensor data. Cameras store a full-size or near full-size JPEG for their own screen;
/// Immich ("prefer embedded preview"), Lightroom's fast import and file browsers show it.
///
/// Where it is looked for: in TIFF-structured raws (DNG, CR2, NEF, ARW, ORF, RW2) every
/// directory reachable from IFD0 (the IFD chain, SubIFDs, the EXIF IFD): `JPEGInterchangeFormat`
/// + length, single-strip JPEG-compressed images (compression 6 or 7), Panasonic's
/// `JpgFromRaw` (tag 0x002E) and an Olympus MakerNote's preview (`OlympusMakerNote`: where
/// ORF files keep theirs); in Fujifilm RAF the header's JPEG offset and length. A candidate
/// counts only when it lies inside the file, starts with a JPEG SOI and has a baseline,
/// extended or progressive frame (lossless JPEG, SOF3, is how DNG and CR2 store sensor data,
/// not a preview); the one with the most pixels wins.
///
/// Runs once per raw asset in the photo source. Bounded: at most 64 directories of at most
/// 1,000 entries, and at most 2,000 JPEG segments per candidate; costs a few `pread`s.
package enum RawPreview {
    /// Where the chosen preview lies, its frame size, and the raw file's EXIF orientation.
    package struct Location: Equatable, Sendable {
        package var offset: Int
        package var length: Int
        package var width: Int
        package var height: Int
        /// IFD0's Orientation (1–8) of a TIFF-structured raw; nil when absent (RAF: the
        /// preview's own EXIF says it).
        package var orientation: Int?
    }

    /// The largest usable preview of `source`, read as `format`; nil when there is none.
    package static func locate(in source: some ByteSource, format: SourceFormat) -> Location? {
        var candidates: [(offset: Int, length: Int)] = []
        var orientation: Int?
        if format == .raf {
            // RAF header: 16-byte magic, version fields, then (big-endian) the JPEG's offset at
            // byte 84 and its length at byte 88.
            if let offset = source.uint32BE(84), let length = source.uint32BE(88) { candidates.append((offset, length)) }
        } else if let walk = TIFFDirectories.walk(source) {
            candidates = walk.previews
            orientation = walk.orientation
        }
        var best: Location?
        for candidate in candidates {
            guard candidate.offset > 0, candidate.length > 4, candidate.length <= source.size - candidate.offset,
                  let frame = jpegFrame(in: source, at: candidate.offset, length: candidate.length) else { continue }
            let location = Location(offset: candidate.offset, length: candidate.length, width: frame.width,
                                    height: frame.height, orientation: orientation)
            if let current = best, current.width * current.height >= frame.width * frame.height { continue }
            best = location
        }
        return best
    }

    /// A file the sniffer took for a plain TIFF, looked at again through its IFD0 wherever
    /// it lies (the sniffer sees only the first kilobyte): DNG (a DNGVersion entry), Nikon NEF
    /// or Sony ARW (IFD0's Make); otherwise still `.tiff`. Costs two reads.
    package static func refinedTIFF(_ source: some ByteSource) -> SourceFormat {
        guard let header = source.read(0, 8), MetadataBlocks.isTIFFHeader(header[...]) else { return .tiff }
        guard let order = TIFFByteOrder(mark: header.prefix(2)),
              let table = TIFFEntryTable(source, at: order.number(header[4..<8]), order: order, maxEntries: 1_000)
        else { return .tiff }
        for entry in table.entries {
            if entry.tag == 0xC612 { return .dng }
            guard entry.tag == 0x010F else { continue }
            let length = min(entry.count, 64)
            let value = length <= 4 ? Array(entry.field.prefix(length))
                : (source.read(order.number(entry.field), length) ?? [])
            let make = String(decoding: value, as: UTF8.self).uppercased()
            if make.hasPrefix("NIKON") { return .nef }
            if make.hasPrefix("SONY") { return .arw }
        }
        return .tiff
    }

    /// The size of a JPEG's frame if it is one libjpeg shows (SOF0, SOF1 or SOF2), reading
    /// segment headers from SOI to the frame header, all inside `start..<start + length`.
    static func jpegFrame(in source: some ByteSource, at start: Int, length: Int) -> (width: Int, height: Int)? {
        let preview = WindowBytes(source, start: start, length: length)
        var segments = JPEGSegments(preview, limit: 2_000)
        while let segment = segments.next() {
            switch segment.marker {
            case 0xC0, 0xC1, 0xC2:
                let frame = segment.payload.lowerBound  // precision, height, width, …
                guard let height = preview.uint16BE(frame + 1), let width = preview.uint16BE(frame + 3),
                      width > 0, height > 0 else { return nil }
                return (width, height)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDA, 0xD9:
                return nil  // lossless, hierarchical or arithmetic frames; or a scan before any frame
            default:
                continue
            }
        }
        return nil
    }
}

/// A bounded walk of a TIFF-structured raw's directories, collecting the JPEG candidates
/// `RawPreview` weighs and IFD0's orientation. Olympus ORF (`IIRO`) and Panasonic RW2
/// (`IIU\0`) change only the TIFF magic number; the walk accepts them.
enum TIFFDirectories {
    struct Walk {
        var previews: [(offset: Int, length: Int)] = []
        var orientation: Int?
    }

    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4,
                                                12: 8, 13: 4]

    static func walk(_ source: some ByteSource) -> Walk? {
        guard let header = source.read(0, 8), let order = TIFFByteOrder(mark: header.prefix(2)) else { return nil }
        var result = Walk()
        var pending = [(offset: order.number(header[4..<8]), isFirst: true)]
        var visited: Set<Int> = []
        while let (directory, isFirst) = pending.popLast(), visited.count < 64 {
            guard directory >= 8, visited.insert(directory).inserted,
                  let table = TIFFEntryTable(source, at: directory, order: order, maxEntries: 1_000) else { continue }
            var values: [Int: [Int]] = [:]
            var jpgFromRaw: (Int, Int)?
            var makerNote: (offset: Int, length: Int)?
            for entry in table.entries {
                let (tag, components) = (entry.tag, entry.count)
                guard let size = typeSizes[entry.type], components > 0 else { continue }
                if tag == 0x002E, size == 1 {  // Panasonic JpgFromRaw: the JPEG is the value itself
                    jpgFromRaw = (order.number(entry.field), components)
                    continue
                }
                if tag == 0x927C, size == 1, components > 4 {  // MakerNote (UNDEFINED): its offset
                    makerNote = (order.number(entry.field), components)
                    continue
                }
                guard [0x0103, 0x0111, 0x0117, 0x0112, 0x0201, 0x0202, 0x014A, 0x8769].contains(tag),
                      size == 2 || size == 4, components <= 4_096 else { continue }
                let length = size * components
                let bytes = length <= 4 ? Array(entry.field.prefix(length))
                    : (source.read(order.number(entry.field), length) ?? [])
                values[tag] = stride(from: 0, to: bytes.count - size + 1, by: size).map { order.number(bytes[$0..<$0 + size]) }
            }
            if isFirst, let orientation = values[0x0112]?.first, (1...8).contains(orientation) {
                result.orientation = orientation
            }
            if let offset = values[0x0201]?.first, let length = values[0x0202]?.first {
                result.previews.append((offset, length))
            }
            if let compression = values[0x0103]?.first, compression == 6 || compression == 7,
               let offsets = values[0x0111], let lengths = values[0x0117], offsets.count == 1, lengths.count == 1 {
                result.previews.append((offsets[0], lengths[0]))
            }
            if let jpgFromRaw { result.previews.append(jpgFromRaw) }
            if let makerNote, let preview = OlympusMakerNote.preview(in: source, at: makerNote.offset,
                                                                      length: makerNote.length) {
                result.previews.append(preview)
            }
            for child in (values[0x014A] ?? []) + (values[0x8769] ?? []) { pending.append((child, false)) }
            if let link = source.read(table.linkOffset, 4) {
                pending.append((order.number(link[...]), false))
            }
        }
        return result
    }
}

/// A window onto part of another source (an embedded JPEG inside a raw file), addressed from
/// the window's start.
package struct WindowBytes<Base: ByteSource>: ByteSource {
    let base: Base
    let start: Int
    package let size: Int

    package init(_ base: Base, start: Int, length: Int) {
        self.base = base
        self.start = start
        self.size = max(0, min(length, base.size - start))
    }

    package func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        return base.read(start + offset, count)
    }

    package func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        let count = min(buffer.count, size - offset)
        return base.copy(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), at: start + offset)
    }
}
