/// Windows icon, decoded by libvips' ImageMagick loader; the icon's largest image is used.
struct ICOFormat: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [FormatDescription(
        .ico, mediaType: "image/vnd.microsoft.icon", suffixes: ["ico"], kind: .still,
        still: StillLoading(loader: "magickload_buffer", viaImageMagick: true, page: .largestIconEntry, loadsWhole: true),
        container: .iconDirectory)]

    /// ICONDIR: 1–256 images; the first entry's reserved byte is 0, planes 0 or 1, bit count a
    /// real one, and its data starts after the directory.
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: [0x00, 0x00, 0x01, 0x00]), head.count >= 22 else { return nil }
        let count = Int(head[4]) | Int(head[5]) << 8
        let planes = Int(head[10]) | Int(head[11]) << 8
        let bits = Int(head[12]) | Int(head[13]) << 8
        let offset = Int(head[18]) | Int(head[19]) << 8 | Int(head[20]) << 16 | Int(head[21]) << 24
        let icon = (1...256).contains(count) && head[9] == 0 && planes <= 1 && [0, 1, 4, 8, 16, 24, 32].contains(bits)
            && offset >= 6 + 16 * count
        return icon ? .format(.ico) : nil
    }
}
