/// PNG (its 8-byte signature).
struct PNGFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .png, mediaType: "image/png", suffixes: ["png"], kind: .still,
        still: StillLoading(loader: "pngload_buffer", codec: .png, iconWhenTransparent: true),
        container: .pngChunks, metadata: .pngChunks)]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? .format(.png) : nil
    }
}
