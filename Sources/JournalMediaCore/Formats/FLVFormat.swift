/// Flash Video (`FLV`, version 1).
struct FLVFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.flv, mediaType: "video/x-flv", suffixes: ["flv"], kind: .video)]

    /// "FLV", version 1, then a header of at least 9 bytes (big-endian offset at 5).
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "FLV"), head.starts(with: [0x01], at: 3), head.count >= 9 else { return nil }
        return Int(head[5]) << 24 | Int(head[6]) << 16 | Int(head[7]) << 8 | Int(head[8]) >= 9 ? .format(.flv) : nil
    }
}
