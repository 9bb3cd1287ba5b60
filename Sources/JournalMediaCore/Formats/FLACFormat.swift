/// FLAC (`fLaC`): artwork from its PICTURE block.
struct FLACFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.flac, mediaType: "audio/flac", suffixes: ["flac"], kind: .audio)]

    func sniff(_ head: SniffHead) -> SniffVerdict? { head.starts(with: "fLaC") ? .format(.flac) : nil }
}
