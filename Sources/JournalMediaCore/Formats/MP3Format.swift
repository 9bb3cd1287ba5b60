/// MP3: an ID3v2 tag first, or an MPEG-1/2 audio layer III frame header (11 sync bits, a valid
/// version, layer III, and a bitrate index that is neither free nor invalid).
struct MP3Format: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [FormatDescription(.mp3, mediaType: "audio/mpeg", suffixes: ["mp3"], kind: .audio)]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        if head.starts(with: "ID3") { return .format(.mp3) }
        guard head.count >= 4, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 else { return nil }
        let version = (head[1] >> 3) & 0x03, layer = (head[1] >> 1) & 0x03, bitrate = head[2] >> 4
        let frame = version != 1 && layer == 1 && bitrate != 0 && bitrate != 15 && (head[2] >> 2) & 0x03 != 3
        return frame ? .format(.mp3) : nil
    }
}
