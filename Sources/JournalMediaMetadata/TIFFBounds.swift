import JournalMediaCore

extension ContainerBounds {
    /// TIFF: every directory (IFD0 and the ones it chains to, SubIFDs, the EXIF and GPS
    /// directories), every entry's value (count × type size) stored outside its entry, and
    /// every strip or tile (offset + byte count) must lie inside the file. Entries of unknown
    /// types are skipped (libtiff ignores them too). At most 64 directories are visited, each
    /// once, so loops in the chain end.
    static func tiff(_ source: some ByteSource) -> ContainerOverrun? {
        guard let header = source.read(0, 8), MetadataBlocks.isTIFFHeader(header[...]) else { return nil }
        let little = header[0] == 0x49
        func number(_ bytes: ArraySlice<UInt8>) -> Int {
            (little ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        func overrun(_ what: String, _ offset: Int, _ declared: Int) -> ContainerOverrun {
            ContainerOverrun(container: "TIFF", structure: what, offset: offset, declared: declared, fileSize: source.size)
        }
        var pending = [number(header[4..<8])]
        var visited: Set<Int> = []
        while let directory = pending.popLast(), directory != 0, visited.count < 64 {
            guard visited.insert(directory).inserted else { continue }
            guard let countBytes = source.read(directory, 2) else { return overrun("directory", directory, 2) }
            let count = number(countBytes[...])
            let tableLength = 2 + count * 12 + 4
            guard let table = source.read(directory + 2, count * 12), tableLength <= source.size - directory else {
                return overrun("directory of \(count) entries", directory, tableLength)
            }
            var strips: [UInt16: [Int]] = [:]
            for index in 0..<count {
                let raw = table[(index * 12)..<(index * 12 + 12)]
                let tag = UInt16(number(raw.prefix(2)))
                let type = number(raw.dropFirst(2).prefix(2))
                let components = number(raw.dropFirst(4).prefix(4))
                guard let size = typeSizes[type] else { continue }
                let length = size * components  // ≤ 8 × (2^32 − 1): no overflow on 64-bit
                let entryOffset = directory + 2 + index * 12
                var values: [UInt8]
                if length <= 4 {
                    values = Array(raw.dropFirst(8).prefix(length))
                } else {
                    let at = number(raw.dropFirst(8).prefix(4))
                    guard length <= source.size - at else {
                        return overrun("entry 0x\(String(tag, radix: 16, uppercase: true)) (\(components) values)",
                                       entryOffset, length)
                    }
                    values = stripTags.contains(tag) || pointerTags.contains(tag) ? (source.read(at, length) ?? []) : []
                }
                guard stripTags.contains(tag) || pointerTags.contains(tag), size == 2 || size == 4 else { continue }
                let numbers = stride(from: 0, to: values.count - size + 1, by: size).map { number(values[$0..<$0 + size]) }
                if pointerTags.contains(tag) { pending += numbers } else { strips[tag] = numbers }
            }
            for (offsetsTag, countsTag, what) in [(UInt16(0x0111), UInt16(0x0117), "strip"), (0x0144, 0x0145, "tile")] {
                guard let offsets = strips[offsetsTag], let counts = strips[countsTag] else { continue }
                for (index, (start, length)) in zip(offsets, counts).enumerated() where length > source.size - start {
                    return overrun("\(what) \(index)", start, length)
                }
            }
            let next = directory + 2 + count * 12
            if let link = source.read(next, 4) { pending.append(number(link[...])) }
        }
        return nil
    }

    /// Bytes per value of each TIFF field type (BYTE … IFD8).
    private static let typeSizes: [Int: Int] = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4,
                                                12: 8, 13: 4, 16: 8, 17: 8, 18: 8]
    /// StripOffsets, StripByteCounts, TileOffsets, TileByteCounts.
    private static let stripTags: Set<UInt16> = [0x0111, 0x0117, 0x0144, 0x0145]
    /// SubIFDs, the EXIF directory, the GPS directory.
    private static let pointerTags: Set<UInt16> = [0x014A, 0x8769, 0x8825]
}
