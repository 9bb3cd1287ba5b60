/// JPEG 2000: the JP2 signature box, or a bare J2K codestream (SOC then SIZ), decoded by
/// OpenJPEG. Loaded whole although it has resolution levels: libvips' `thumbnail` with
/// `size=down` picks a level too small when the target is larger than the image (a 240×160 JP2
/// asked to fit 1024 came out 120×80).
struct JPEG2000Format: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .jp2, displayName: "JPEG 2000", mediaType: "image/jp2", suffixes: ["jp2", "j2k", "j2c", "jpc"], kind: .still,
        still: StillLoading(loader: "jp2kload_buffer", loadsWhole: true, codec: .jpeg2000))]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        if head.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) { return .format(.jp2) }
        if head.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) { return .format(.jp2) }
        return nil
    }
}
