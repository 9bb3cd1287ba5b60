/// Matroska and WebM: the EBML header, told apart by its `DocType`. Other EBML documents are
/// claimed (not movies).
struct MatroskaFormats: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [
        FormatDescription(.mkv, displayName: "Matroska", mediaType: "video/x-matroska", suffixes: ["mkv"], kind: .video),
        FormatDescription(.webm, displayName: "WebM", mediaType: "video/webm", suffixes: ["webm"], kind: .video),
    ]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return nil }
        let window = head.bytes.prefix(64)
        var index = window.startIndex
        while index + 3 < window.endIndex {
            defer { index += 1 }
            // The DocType ID (0x4282), then a one-byte size (0x80 | length): the writers' usual form.
            guard window[index] == 0x42, window[index + 1] == 0x82, window[index + 2] & 0x80 != 0 else { continue }
            let length = Int(window[index + 2] & 0x7F)
            let start = index + 3
            guard length > 0, start + length <= head.count else { return .claimed }
            switch String(decoding: head.bytes[start..<start + length], as: UTF8.self) {
            case "webm": return .format(.webm)
            case "matroska": return .format(.mkv)
            default: return .claimed
            }
        }
        return .claimed
    }
}
