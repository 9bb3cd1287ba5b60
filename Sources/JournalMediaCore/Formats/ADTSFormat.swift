/// Raw AAC in ADTS frames (`.aac`): no tags, so no artwork.
struct ADTSFormat: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [FormatDescription(.aac, displayName: "AAC (ADTS)", mediaType: "audio/aac", suffixes: ["aac"], kind: .audio)]

    /// An ADTS frame header (ISO 14496-3 1.A.2): 12 sync bits, layer 00, a sampling frequency
    /// index below 13 and a frame length of at least the 7-byte header; when the head holds the
    /// next frame's start, it must sync too.
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.count >= 7, head[0] == 0xFF, head[1] & 0xF6 == 0xF0, (head[2] >> 2) & 0x0F < 13 else { return nil }
        let length = Int(head[3] & 0x03) << 11 | Int(head[4]) << 3 | Int(head[5] >> 5)
        guard length >= 7 else { return nil }
        guard length + 2 <= head.count else { return .format(.aac) }
        return head[length] == 0xFF && head[length + 1] & 0xF6 == 0xF0 ? .format(.aac) : nil
    }
}
