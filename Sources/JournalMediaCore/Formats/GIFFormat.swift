/// GIF (`GIF87a`, `GIF89a`).
struct GIFFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .gif, mediaType: "image/gif", suffixes: ["gif"], kind: .still,
        still: StillLoading(loader: "gifload_buffer", animated: true, iconWhenTransparent: true))]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: "GIF87a") || head.starts(with: "GIF89a") ? .format(.gif) : nil
    }
}
