/// Recognises a supported image, video or audio format from a file's first bytes; the file
/// name plays no part.
///
/// Runs first for every asset, on the bytes already read; costs a few comparisons.
public enum FormatSniffer {
    /// How many leading bytes `sniff` looks at, at most.
    public static let prefixLength = 1024

    /// The format of `bytes`, or nil when it is none the toolkit reads.
    public static func sniff(_ bytes: some Collection<UInt8>) -> SourceFormat? {
        let head = Array(bytes.prefix(prefixLength))
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && head[offset..<offset + magic.count].elementsEqual(magic)
        }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("AVI ".utf8), at: 8) { return .avi }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WAVE".utf8), at: 8) { return .wav }
        if starts(with: Array("FORM".utf8)) && (starts(with: Array("AIFF".utf8), at: 8) || starts(with: Array("AIFC".utf8), at: 8)) {
            return .aiff
        }
        if isDVFrame(head) { return .dv }
        // FLV: "FLV", version 1, then a header of at least 9 bytes (big-endian offset at 5).
        if starts(with: Array("FLV".utf8)) && starts(with: [0x01], at: 3) && head.count >= 9
            && Int(head[5]) << 24 | Int(head[6]) << 16 | Int(head[7]) << 8 | Int(head[8]) >= 9 {
            return .flv
        }
        // MXF: a partition pack's SMPTE key (06 0E 2B 34 02 05 01 01 0D 01 02 01 01, then the
        // partition kind) first, as every OP1a/OP-Atom writer starts (no run-in).
        if starts(with: [0x06, 0x0E, 0x2B, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0D, 0x01, 0x02, 0x01, 0x01]) { return .mxf }
        if starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return matroska(head) }
        if isTransportStream(head) { return .mpegTS }
        if let tiff = tiffFamily(head) { return tiff }
        if let still = otherStill(head) { return still }
        if starts(with: Array("%PDF-".utf8)) { return .pdf }
        if starts(with: Array("8BPS".utf8)) && (starts(with: [0, 1], at: 4) || starts(with: [0, 2], at: 4)) { return .psd }
        if starts(with: Array("ftyp".utf8), at: 4) { return isobmff(head) }
        for box in ["moov", "mdat", "wide", "free", "skip", "pnot"] where starts(with: Array(box.utf8), at: 4) {
            return .mov  // QuickTime files from before `ftyp`
        }
        if starts(with: Array("fLaC".utf8)) { return .flac }
        if starts(with: Array("OggS".utf8)) { return .ogg }
        if starts(with: Array("ID3".utf8)) || isMPEGAudioLayer3(head) { return .mp3 }
        if isADTS(head) { return .aac }
        if looksLikeSVG(head) { return .svg }
        return nil
    }

    /// HEIF-family files share the ISO base media `ftyp` box with MP4 and MOV; the major
    /// and compatible brands say which it is. Image brands win (an iPhone HEIC lists `mif1`
    /// and `heic`); other `ftyp` files (JPEG 2000, Canon CR3) are not taken for video.
    private static func isobmff(_ head: [UInt8]) -> SourceFormat? {
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
        let major = brands[0]
        if major == "crx " { return nil }  // Canon CR3 raw: a still image, not a movie
        if major == "qt  " { return .mov }
        if major.hasPrefix("M4V") { return .m4v }
        if ["M4A ", "M4B ", "M4P "].contains(major) { return .m4a }
        if major.hasPrefix("3gp") || major.hasPrefix("3g2") { return .threeGP }
        let mp4Brands: Set<String> = ["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9", "mp41",
                                      "mp42", "avc1", "mmp4", "dash", "MSNV", "NDAS", "XAVC", "f4v ", "mp71"]
        if mp4Brands.contains(major) { return .mp4 }
        if brands.contains("qt  ") { return .mov }
        if brands.contains(where: mp4Brands.contains) { return .mp4 }
        return nil
    }

    /// Matroska and WebM share the EBML header; its `DocType` element (ID 0x4282) says which.
    /// Other EBML documents are not movies.
    private static func matroska(_ head: [UInt8]) -> SourceFormat? {
        let window = head.prefix(64)
        var index = window.startIndex
        while index + 3 < window.endIndex {
            defer { index += 1 }
            // The DocType ID, then a one-byte size (0x80 | length): the writers' usual form.
            guard window[index] == 0x42, window[index + 1] == 0x82, window[index + 2] & 0x80 != 0 else { continue }
            let length = Int(window[index + 2] & 0x7F)
            let start = index + 3
            guard length > 0, start + length <= head.count else { return nil }
            switch String(decoding: head[start..<start + length], as: UTF8.self) {
            case "webm": return .webm
            case "matroska": return .mkv
            default: return nil
            }
        }
        return nil
    }

    /// An MPEG transport stream: the sync byte 0x47 starting every 188-byte packet, or every
    /// 192-byte packet after a 4-byte timestamp (BDAV/AVCHD `.m2ts`/`.mts`), at least three
    /// packets in a row (as many as the head holds, up to five).
    private static func isTransportStream(_ head: [UInt8]) -> Bool {
        func synced(first: Int, stride: Int) -> Bool {
            let packets = min(5, (head.count - first + stride - 1) / stride)
            guard packets >= 3 else { return false }
            return (0..<packets).allSatisfy { head[first + $0 * stride] == 0x47 }
        }
        return synced(first: 0, stride: 188) || synced(first: 4, stride: 192)
    }

    /// Raw DV (IEC 61834 / SMPTE 314M DIF): a frame starts with the header DIF block
    /// (section type 0, ID bytes `1F 07 00`, then `3F` or `BF` for 525/625 lines), followed
    /// 80 bytes on by the first subcode block (section type 1: `3F`).
    private static func isDVFrame(_ head: [UInt8]) -> Bool {
        guard head.count >= 84 else { return false }
        return head[0] == 0x1F && head[1] == 0x07 && head[2] == 0x00 && head[3] & 0x7F == 0x3F
            && head[80] == 0x3F && head[81] == 0x07 && head[82] == 0x00
    }

    /// An MPEG-1/2 audio layer III frame header: 11 sync bits, a valid version, layer III,
    /// and a bitrate index that is neither free nor invalid.
    private static func isMPEGAudioLayer3(_ head: [UInt8]) -> Bool {
        guard head.count >= 4, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else { return false }
        let version = (head[1] >> 3) & 0x03, layer = (head[1] >> 1) & 0x03, bitrate = head[2] >> 4
        return version != 1 && layer == 1 && bitrate != 0 && bitrate != 15 && (head[2] >> 2) & 0x03 != 3
    }

    /// A raw AAC ADTS frame header (ISO 14496-3 1.A.2): 12 sync bits, layer 00, a sampling
    /// frequency index below 13 and a frame length of at least the 7-byte header; when the
    /// head holds the next frame's start, it must sync too.
    private static func isADTS(_ head: [UInt8]) -> Bool {
        guard head.count >= 7, head[0] == 0xFF, head[1] & 0xF6 == 0xF0, (head[2] >> 2) & 0x0F < 13 else { return false }
        let length = Int(head[3] & 0x03) << 11 | Int(head[4]) << 3 | Int(head[5] >> 5)
        guard length >= 7 else { return false }
        guard length + 2 <= head.count else { return true }
        return head[length] == 0xFF && head[length + 1] & 0xF6 == 0xF0
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
