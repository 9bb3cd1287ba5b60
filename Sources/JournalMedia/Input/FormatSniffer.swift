/// Recognises a supported image format from a file's first bytes; the file name plays no part.
///
/// Runs first for every asset, on the bytes already read; costs a few comparisons.
public enum FormatSniffer {
    /// How many leading bytes `sniff` looks at, at most.
    public static let prefixLength = 1024

    /// The format of `bytes`, or nil when it is none the toolkit reads.
    public static func sniff(_ bytes: some Collection<UInt8>) -> SourceFormat? {
        let head = Array(bytes.prefix(prefixLength))
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if starts(with: Array("%PDF-".utf8)) { return .pdf }
        if starts(with: Array("ftyp".utf8), at: 4) { return isobmffImage(head) }
        if looksLikeSVG(head) { return .svg }
        return nil
    }

    /// HEIF-family files share the ISO base media `ftyp` box with MP4 and MOV; the major
    /// and compatible brands say which it is.
    private static func isobmffImage(_ head: [UInt8]) -> SourceFormat? {
        guard head.count >= 16 else { return nil }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(max(boxSize, 16), head.count)
        var brands: [String] = [brand(head, at: 8)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(brand(head, at: offset))
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
        if brands.contains(where: heifBrands.contains) { return .heic }
        return nil
    }

    private static func brand(_ head: [UInt8], at offset: Int) -> String {
        String(decoding: head[offset..<offset + 4], as: UTF8.self)
    }

    /// SVG is XML text: skip a byte-order mark, whitespace, the XML declaration, comments
    /// and a doctype, and expect an `<svg` element in the first kilobyte.
    private static func looksLikeSVG(_ head: [UInt8]) -> Bool {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !" \t\r\n".utf8.contains($0) }), first == UInt8(ascii: "<") else {
            return false
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("<svg")
    }
}
