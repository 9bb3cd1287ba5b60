/// AIFF and AIFF-C (`FORM` … `AIFF`/`AIFC`): uncompressed audio, artwork from an ID3 chunk.
struct AIFFFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.aiff, mediaType: "audio/aiff", suffixes: ["aif", "aiff", "aifc"], kind: .audio)]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: "FORM") && (head.starts(with: "AIFF", at: 8) || head.starts(with: "AIFC", at: 8)) ? .format(.aiff) : nil
    }
}
