/// Photoshop document (PSD version 1, PSB version 2): read for its capture date only.
struct PSDFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .psd, mediaType: "image/vnd.adobe.photoshop", suffixes: ["psd", "psb"], kind: .metadataOnly,
        metadata: .photoshopResources)]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: "8BPS") && (head.starts(with: [0, 1], at: 4) || head.starts(with: [0, 2], at: 4)) ? .format(.psd) : nil
    }
}
