/// JPEG XL: a bare codestream (`FF 0A`) or the ISO-BMFF container's signature box, decoded by
/// libjxl (no shrink-on-load, so the whole image is held).
struct JPEGXLFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .jxl, displayName: "JPEG XL", mediaType: "image/jxl", suffixes: ["jxl"], kind: .still,
        still: StillLoading(loader: "jxlload_buffer", wholeImage: .always))]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        if head.starts(with: [0xFF, 0x0A]) { return .format(.jxl) }
        if head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .format(.jxl) }
        return nil
    }
}
