import JournalMediaCore

/// A TIFF byte order, from the two-byte mark a TIFF header or an Olympus MakerNote carries:
/// "II" little-endian, "MM" big-endian. Reads the unsigned 2- and 4-byte numbers of the
/// structures below in that order.
struct TIFFByteOrder {
    let little: Bool

    init?(mark: some Collection<UInt8>) {
        switch Array(mark.prefix(2)) {
        case [0x49, 0x49]: little = true
        case [0x4D, 0x4D]: little = false
        default: return nil
        }
    }

    /// An unsigned number from the bytes (2 or 4 of them) in this order.
    func number(_ bytes: ArraySlice<UInt8>) -> Int {
        (little ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
    }
}

/// The entry table of one TIFF-structured directory (a TIFF's or a raw's IFD, a sub-IFD, an
/// Olympus MakerNote's IFD): a 2-byte count, then 12-byte entries — tag, type, count, and 4
/// bytes holding the value when it fits or else its offset — read in one bounded read.
///
/// Shared by `RawPreview.refinedTIFF`, `TIFFDirectories` and `OlympusMakerNote`; costs two
/// reads of the source, whatever the entries point at (the callers read what they need).
struct TIFFEntryTable {
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        /// The value/offset field: the value itself when it fits in 4 bytes, else its offset.
        let field: ArraySlice<UInt8>
    }

    let entries: [Entry]
    /// Where the 4-byte link to the next directory sits (right after the entries).
    let linkOffset: Int

    /// The directory at `offset`. A count over `maxEntries` is cut to it, or, when
    /// `refusingLarger`, makes the table unreadable (nil), as is a table the source does not
    /// hold whole. An empty directory is `entries == []`.
    init?(_ source: some ByteSource, at offset: Int, order: TIFFByteOrder, maxEntries: Int, refusingLarger: Bool = false) {
        guard offset >= 0, let countBytes = source.read(offset, 2) else { return nil }
        let stated = order.number(countBytes[...])
        if refusingLarger && stated > maxEntries { return nil }
        let count = min(stated, maxEntries)
        guard let table = source.read(offset + 2, count * 12) else { return nil }
        entries = (0..<count).map { index in
            let entry = table[(index * 12)..<(index * 12 + 12)]
            return Entry(tag: order.number(entry.prefix(2)), type: order.number(entry.dropFirst(2).prefix(2)),
                         count: order.number(entry.dropFirst(4).prefix(4)), field: entry.dropFirst(8))
        }
        linkOffset = offset + 2 + count * 12
    }
}
