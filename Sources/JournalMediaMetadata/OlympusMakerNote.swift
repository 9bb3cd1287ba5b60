import JournalMediaCore

/// The preview JPEG an Olympus (OM System) camera keeps inside its MakerNote, where ORF files
/// store their only large preview. Layout (as ExifTool documents it): a header — "OLYMPUS\0"
/// then the byte order ("II"/"MM") and a version (12 bytes), or "OM SYSTEM\0\0\0" then the
/// same (16 bytes) — and an IFD right after it; every offset counts from the MakerNote's
/// first byte. Tag 0x2020 (CameraSettings) points at a sub-IFD whose PreviewImageValid
/// (0x0100), PreviewImageStart (0x0101) and PreviewImageLength (0x0102) give the JPEG.
///
/// Used by `TIFFDirectories` when the EXIF IFD holds a MakerNote; costs three small reads.
/// Bounded: both IFDs must lie inside the MakerNote, hold at most 512 entries, and the
/// preview must lie inside the file; anything else gives no preview (`RawPreview` then
/// reports that the raw has none).
enum OlympusMakerNote {
    /// The preview's absolute offset and length for a MakerNote at `start` of `length` bytes,
    /// or nil when the MakerNote is not an Olympus one or does not hold a usable preview.
    static func preview(in source: some ByteSource, at start: Int, length: Int) -> (offset: Int, length: Int)? {
        guard start >= 0, length >= 18, length <= source.size - start, let head = source.read(start, 16) else { return nil }
        let ifdStart: Int
        if head.starts(with: Array("OLYMPUS\0".utf8)) {
            ifdStart = 12
        } else if head.starts(with: Array("OM SYSTEM\0\0\0".utf8)) {
            ifdStart = 16
        } else {
            return nil
        }
        guard let order = TIFFByteOrder(mark: head[(ifdStart - 4)..<(ifdStart - 2)]) else { return nil }
        // Offsets count from the note's first byte, and nothing outside it is read.
        let note = WindowBytes(source, start: start, length: length)
        /// The entries (tag → type, count, 4-byte value) of the IFD at `offset` in the note.
        func entries(at offset: Int) -> [Int: (type: Int, count: Int, value: Int)]? {
            guard offset >= ifdStart,
                  let table = TIFFEntryTable(note, at: offset, order: order, maxEntries: 512, refusingLarger: true),
                  !table.entries.isEmpty else { return nil }
            var found: [Int: (type: Int, count: Int, value: Int)] = [:]
            for entry in table.entries { found[entry.tag] = (entry.type, entry.count, order.number(entry.field)) }
            return found
        }
        // CameraSettings: an IFD (type 13) or a LONG/UNDEFINED offset to one.
        guard let main = entries(at: ifdStart), let settings = main[0x2020], [4, 7, 13].contains(settings.type),
              let camera = entries(at: settings.value) else { return nil }
        if let valid = camera[0x0100], valid.value == 0 { return nil }
        guard let offset = camera[0x0101], let size = camera[0x0102], offset.type == 4, size.type == 4,
              offset.value > 0, size.value > 0 else { return nil }
        let absolute = start + offset.value
        guard absolute <= source.size - size.value else { return nil }
        return (absolute, size.value)
    }
}
