/// Raw DV (IEC 61834 / SMPTE 314M DIF): tape camcorders' transfers.
struct DVFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.dv, mediaType: "video/dv", suffixes: ["dv", "dif"], kind: .video)]

    /// A frame starts with the header DIF block (section type 0, ID bytes `1F 07 00`, then `3F`
    /// or `BF` for 525/625 lines), followed 80 bytes on by the first subcode block (`3F`).
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.count >= 84 else { return nil }
        let frame = head[0] == 0x1F && head[1] == 0x07 && head[2] == 0x00 && head[3] & 0x7F == 0x3F
            && head[80] == 0x3F && head[81] == 0x07 && head[82] == 0x00
        return frame ? .format(.dv) : nil
    }
}
