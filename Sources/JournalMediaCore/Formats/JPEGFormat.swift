/// JPEG (`FF D8 FF`): shrink-on-load through libvips' loader or the direct decode.
struct JPEGFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .jpeg, mediaType: "image/jpeg", suffixes: ["jpg", "jpeg", "jpe"], kind: .still,
        still: StillLoading(loader: "jpegload_buffer", codec: .jpeg), container: .jpegSegments, metadata: .jpegSegments,
        livePhoto: .still)]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: [0xFF, 0xD8, 0xFF]) ? .format(.jpeg) : nil
    }
}
