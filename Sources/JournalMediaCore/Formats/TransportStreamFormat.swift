/// MPEG transport stream (`.ts`, and AVCHD `.mts`/`.m2ts` with 4-byte timestamps): camcorders.
struct TransportStreamFormat: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [FormatDescription(.mpegTS, displayName: "MPEG-TS/AVCHD", mediaType: "video/mp2t", suffixes: ["ts", "mts", "m2ts"], kind: .video)]

    /// The sync byte 0x47 starting every 188-byte packet, or every 192-byte packet after a
    /// 4-byte timestamp, at least three packets in a row (as many as the head holds, up to five).
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        func synced(first: Int, stride: Int) -> Bool {
            let packets = min(5, (head.count - first + stride - 1) / stride)
            guard packets >= 3 else { return false }
            return (0..<packets).allSatisfy { head[first + $0 * stride] == 0x47 }
        }
        return synced(first: 0, stride: 188) || synced(first: 4, stride: 192) ? .format(.mpegTS) : nil
    }
}
