/// Windows bitmap, decoded by libvips' ImageMagick loader (the only one that reads it in libvips).
struct BMPFormat: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [FormatDescription(
        .bmp, mediaType: "image/bmp", suffixes: ["bmp", "dib"], kind: .still,
        still: StillLoading(loader: "magickload_buffer", viaImageMagick: true, loadsWhole: true), container: .bmpHeader)]

    /// "BM" alone is too weak: the DIB header that follows has one of a few known sizes.
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "BM"), head.count >= 18 else { return nil }
        let dibSize = Int(head[14]) | Int(head[15]) << 8 | Int(head[16]) << 16 | Int(head[17]) << 24
        return [12, 40, 52, 56, 64, 108, 124].contains(dibSize) ? .format(.bmp) : nil
    }
}
