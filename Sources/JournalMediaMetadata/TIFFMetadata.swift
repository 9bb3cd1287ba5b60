import JournalMediaCore

/// TIFF files (and TIFF-based raw files) are themselves an EXIF structure, but their
/// directories often sit after megabytes of strips, while libexif only reads the first
/// 64 KiB of a block (the JPEG APP1 limit). This walks IFD0, the EXIF IFD and the GPS IFD
/// with random-access reads and rebuilds a small TIFF holding only the date, GPS and camera entries,
/// which libexif then parses like any EXIF block. The XMP packet (tag 700) is returned as is.
///
/// Costs a few `pread`s (directory entries and the values they point to); never reads strips.
enum TIFFMetadata {
    private static let keep: [ExifBlock.Directory: Set<UInt16>] = [
        .primary: [ExifTagNumber.dateTime, ExifTagNumber.make, ExifTagNumber.model, ExifTagNumber.software,
                   ExifTagNumber.lensModel],
        .exif: [ExifTagNumber.dateTimeOriginal, ExifTagNumber.dateTimeDigitized, ExifTagNumber.offsetTime,
                ExifTagNumber.offsetTimeOriginal, ExifTagNumber.offsetTimeDigitized, ExifTagNumber.subSecTime,
                ExifTagNumber.subSecTimeOriginal, ExifTagNumber.subSecTimeDigitized, ExifTagNumber.exposureTime,
                ExifTagNumber.fNumber, ExifTagNumber.iso, ExifTagNumber.focalLength, ExifTagNumber.focalLength35,
                ExifTagNumber.lensModel],
        .gps: [ExifTagNumber.gpsTimeStamp, ExifTagNumber.gpsDateStamp, ExifTagNumber.gpsLatitudeRef,
               ExifTagNumber.gpsLatitude, ExifTagNumber.gpsLongitudeRef, ExifTagNumber.gpsLongitude,
               ExifTagNumber.gpsAltitudeRef, ExifTagNumber.gpsAltitude, ExifTagNumber.gpsStatus,
               ExifTagNumber.gpsSpeedRef, ExifTagNumber.gpsSpeed, ExifTagNumber.gpsImgDirection,
               ExifTagNumber.gpsHPositioningError],
    ]
    private static let exifPointer: UInt16 = 0x8769
    private static let gpsPointer: UInt16 = 0x8825
    private static let xmpTag: UInt16 = 0x02BC
    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4]

    private struct Entry {
        var tag: UInt16
        package var type: Int
        var count: Int
        var value: [UInt8]
    }

    /// - Parameter anyMagic: accept any TIFF byte-order mark with any magic number (Olympus
    ///   ORF and Panasonic RW2 replace 42 with their own), for camera raw files.
    static func blocks(in source: some ByteSource, anyMagic: Bool = false) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        guard let header = source.read(0, 8) else { return blocks }
        let byteOrderOnly = anyMagic && (header.starts(with: [0x49, 0x49]) || header.starts(with: [0x4D, 0x4D]))
        guard byteOrderOnly || MetadataBlocks.isTIFFHeader(header[...]) else { return blocks }
        let little = header[0] == 0x49
        func number(_ bytes: ArraySlice<UInt8>) -> Int {
            let ordered = little ? Array(bytes.reversed()) : Array(bytes)
            return ordered.reduce(0) { $0 << 8 | Int($1) }
        }
        func entries(at offset: Int) -> [Entry] {
            guard offset >= 8, let countBytes = source.read(offset, 2) else { return [] }
            let count = min(number(countBytes[...]), 1_000)
            guard let table = source.read(offset + 2, count * 12) else { return [] }
            var found: [Entry] = []
            for index in 0..<count {
                let raw = table[(index * 12)..<(index * 12 + 12)]
                let tag = UInt16(number(raw.prefix(2)))
                let type = number(raw.dropFirst(2).prefix(2))
                let components = number(raw.dropFirst(4).prefix(4))
                guard let size = typeSizes[type], components > 0, components <= MetadataBlocks.maximumBlockSize / size
                else { continue }
                let length = size * components
                let value: [UInt8]?
                if length <= 4 {
                    value = Array(raw.dropFirst(8).prefix(length))
                } else {
                    value = source.read(number(raw.dropFirst(8).prefix(4)), length)
                }
                if let value { found.append(Entry(tag: tag, type: type, count: components, value: value)) }
            }
            return found
        }
        func pointer(_ list: [Entry], _ tag: UInt16) -> Int? {
            guard let entry = list.first(where: { $0.tag == tag }), entry.type == 4 || entry.type == 13,
                  entry.value.count == 4 else { return nil }
            return number(entry.value[...])
        }

        let primary = entries(at: number(header[4..<8]))
        if let xmp = primary.first(where: { $0.tag == xmpTag }) { blocks.xmp = xmp.value }
        let exif = pointer(primary, exifPointer).map(entries(at:)) ?? []
        let gps = pointer(primary, gpsPointer).map(entries(at:)) ?? []
        func selected(_ list: [Entry], _ directory: ExifBlock.Directory) -> [Entry] {
            list.filter { keep[directory, default: []].contains($0.tag) }
        }
        blocks.exif = rebuild(primary: selected(primary, .primary), exif: selected(exif, .exif),
                              gps: selected(gps, .gps), littleEndian: little)
        return blocks
    }

    /// A TIFF structure with IFD0 (pointing to an EXIF and a GPS IFD when they have entries),
    /// the entries sorted by tag and their long values after each directory.
    private static func rebuild(primary: [Entry], exif: [Entry], gps: [Entry], littleEndian: Bool) -> [UInt8]? {
        guard !(primary.isEmpty && exif.isEmpty && gps.isEmpty) else { return nil }
        var out: [UInt8] = littleEndian ? [0x49, 0x49, 0x2A, 0x00] : [0x4D, 0x4D, 0x00, 0x2A]
        func put(_ value: Int, _ width: Int, at index: Int? = nil) {
            var bytes = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * (width - 1 - $0))) }
            if littleEndian { bytes.reverse() }
            if let index { out.replaceSubrange(index..<index + width, with: bytes) } else { out += bytes }
        }
        put(8, 4)
        /// Writes a directory at the end of `out`; returns the positions of pointer values to patch.
        func directory(_ entries: [Entry], pointers: [UInt16]) -> [UInt16: Int] {
            let all = entries.sorted { $0.tag < $1.tag }
            let start = out.count
            let total = all.count + pointers.count
            put(total, 2)
            var dataOffset = start + 2 + total * 12 + 4
            var longValues: [UInt8] = []
            var patches: [UInt16: Int] = [:]
            var rows: [(UInt16, Entry?)] = all.map { ($0.tag, $0) } + pointers.map { ($0, nil) }
            rows.sort { $0.0 < $1.0 }
            for (tag, entry) in rows {
                put(Int(tag), 2)
                guard let entry else {
                    put(4, 2); put(1, 4)
                    patches[tag] = out.count
                    put(0, 4)
                    continue
                }
                put(entry.type, 2)
                put(entry.count, 4)
                if entry.value.count <= 4 {
                    out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    put(dataOffset, 4)
                    longValues += entry.value
                    if entry.value.count % 2 == 1 { longValues.append(0) }
                    dataOffset += entry.value.count + entry.value.count % 2
                }
            }
            put(0, 4)  // no next IFD
            out += longValues
            return patches
        }
        var pointers: [UInt16] = []
        if !exif.isEmpty { pointers.append(exifPointer) }
        if !gps.isEmpty { pointers.append(gpsPointer) }
        let patches = directory(primary, pointers: pointers)
        if let at = patches[exifPointer] {
            put(out.count, 4, at: at)
            _ = directory(exif, pointers: [])
        }
        if let at = patches[gpsPointer] {
            put(out.count, 4, at: at)
            _ = directory(gps, pointers: [])
        }
        return out.count <= 0xFFF0 ? out : nil
    }
}
