/// The still-image signatures beyond the web formats: JPEG XL, BMP, ICO, JPEG 2000, Netpbm and
/// float maps, OpenEXR, Radiance, and the TIFF family (plain TIFF and the camera raw files
/// built on it or beside it).
extension FormatSniffer {
    /// JPEG XL, BMP, ICO, JPEG 2000, Netpbm, PFM, OpenEXR or Radiance from their signatures, or nil.
    static func otherStill(_ head: [UInt8]) -> SourceFormat? {
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && head[offset..<offset + magic.count].elementsEqual(magic)
        }
        // JPEG XL: a bare codestream (FF 0A) or the container's signature box.
        if starts(with: [0xFF, 0x0A]) { return .jxl }
        if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jxl }
        // JPEG 2000: the JP2 signature box, or a bare codestream (SOC then SIZ).
        if starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .jp2 }
        if starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return .jp2 }
        // OpenEXR: magic 20000630 (little-endian), then a version 2 field.
        if starts(with: [0x76, 0x2F, 0x31, 0x01]), head.count >= 8, head[4] == 2 { return .exr }
        if starts(with: Array("#?RADIANCE\n".utf8)) || starts(with: Array("#?RGBE\n".utf8)) { return .hdr }
        // Netpbm's "P1"–"P6" and "PF"/"Pf" are weak signatures: the whole header must parse.
        if starts(with: Array("P".utf8)), let header = PortableAnymapHeader(head) { return header.isFloat ? .pfm : .pnm }
        if starts(with: Array("BM".utf8)), head.count >= 18 {
            // "BM" alone is too weak: the DIB header that follows has one of a few known sizes.
            let dibSize = Int(head[14]) | Int(head[15]) << 8 | Int(head[16]) << 16 | Int(head[17]) << 24
            if [12, 40, 52, 56, 64, 108, 124].contains(dibSize) { return .bmp }
        }
        if starts(with: [0x00, 0x00, 0x01, 0x00]), head.count >= 22 {
            // ICONDIR: 1–256 images; the first entry's reserved byte is 0, planes 0 or 1,
            // bit count a real one, and its data starts after the directory.
            let count = Int(head[4]) | Int(head[5]) << 8
            let planes = Int(head[10]) | Int(head[11]) << 8
            let bits = Int(head[12]) | Int(head[13]) << 8
            let offset = Int(head[18]) | Int(head[19]) << 8 | Int(head[20]) << 16 | Int(head[21]) << 24
            if (1...256).contains(count), head[9] == 0, planes <= 1, [0, 1, 4, 8, 16, 24, 32].contains(bits),
               offset >= 6 + 16 * count {
                return .ico
            }
        }
        return nil
    }

    /// TIFF (and BigTIFF) and the camera raw formats: Canon CR2 (TIFF with "CR" 2 at byte 8), Olympus ORF
    /// ("IIRO"/"IIRS"/"MMOR"), Panasonic RW2 ("IIU\0"), Fujifilm RAF ("FUJIFILMCCD-RAW "), and,
    /// among plain TIFF headers, DNG (a DNGVersion entry in IFD0), Nikon NEF and Sony ARW (IFD0's
    /// Make) when IFD0 lies within the sniffed head; any other TIFF stays `.tiff`.
    static func tiffFamily(_ head: [UInt8]) -> SourceFormat? {
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && head[offset..<offset + magic.count].elementsEqual(magic)
        }
        if starts(with: Array("FUJIFILMCCD-RAW ".utf8)) { return .raf }
        if starts(with: Array("IIRO".utf8)) || starts(with: Array("IIRS".utf8)) || starts(with: Array("MMOR".utf8)) {
            return .orf
        }
        if starts(with: [0x49, 0x49, 0x55, 0x00]) { return .rw2 }
        // BigTIFF (magic 43, 64-bit offsets): libtiff reads it as a TIFF.
        if starts(with: [0x49, 0x49, 0x2B, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
        let little = starts(with: [0x49, 0x49, 0x2A, 0x00])
        guard little || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return nil }
        if little, starts(with: [0x43, 0x52, 0x02], at: 8) { return .cr2 }
        func number(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= head.count else { return nil }
            let bytes = head[offset..<offset + width]
            return (little ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let directory = number(4, 4), let count = number(directory, 2) else { return .tiff }
        for index in 0..<min(count, 512) {
            let entry = directory + 2 + index * 12
            guard let tag = number(entry, 2) else { break }
            if tag == 0xC612 { return .dng }
            guard tag == 0x010F, let length = number(entry + 4, 4), length > 0 else { continue }
            let start = length <= 4 ? entry + 8 : (number(entry + 8, 4) ?? head.count)
            guard start + length <= head.count else { continue }
            let make = String(decoding: head[start..<start + length], as: UTF8.self).uppercased()
            if make.hasPrefix("NIKON") { return .nef }
            if make.hasPrefix("SONY") { return .arw }
        }
        return .tiff
    }
}
