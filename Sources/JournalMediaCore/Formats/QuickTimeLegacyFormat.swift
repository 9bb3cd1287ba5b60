/// A QuickTime movie from before `ftyp`: a `moov`, `mdat`, `wide`, `free`, `skip` or `pnot` box
/// first. Only a second signature of `.mov` (described by `ISOBMFFFamily`), checked after the
/// fixed signatures.
struct QuickTimeLegacyFormat: FormatHandler {
    let priority = FormatPriority.structural
    let formats: [FormatDescription] = []

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        ["moov", "mdat", "wide", "free", "skip", "pnot"].contains { head.starts(with: $0, at: 4) } ? .format(.mov) : nil
    }
}
