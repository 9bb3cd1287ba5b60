/// SVG: XML text with an `<svg` element in the first kilobyte, rendered at the size asked for.
struct SVGFormat: FormatHandler {
    let priority = FormatPriority.text
    let formats = [FormatDescription(
        .svg, mediaType: "image/svg+xml", suffixes: ["svg", "svgz"], kind: .vector, still: StillLoading(loader: "svgload_buffer"))]

    /// Skips a byte-order mark and whitespace, expects `<` (a declaration, comment, doctype or
    /// the element), then `<svg` somewhere in the head.
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        var bytes = head.bytes[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let first = bytes.first(where: { !" \t\r\n".utf8.contains($0) }), first == UInt8(ascii: "<") else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self).contains("<svg") ? .format(.svg) : nil
    }
}
