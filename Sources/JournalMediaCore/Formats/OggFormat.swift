/// Ogg (`OggS`): Vorbis or Opus audio; artwork from its comment's picture.
struct OggFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.ogg, displayName: "Ogg", mediaType: "audio/ogg", suffixes: ["ogg", "oga", "opus"], kind: .audio)]

    func sniff(_ head: SniffHead) -> SniffVerdict? { head.starts(with: "OggS") ? .format(.ogg) : nil }
}
