/// OpenEXR (scanline or tiled): linear-light half or full floats. The linked libvips reads it
/// from a file only, so the loader gets a memfd copy of the bytes.
struct OpenEXRFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .exr, displayName: "OpenEXR", mediaType: "image/x-exr", suffixes: ["exr"], kind: .still,
        still: StillLoading(loader: "openexrload", input: .memoryFile(name: "exr"), loadsWhole: true, linearLight: true))]

    /// Magic 20000630 (little-endian), then a version 2 field.
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: [0x76, 0x2F, 0x31, 0x01]) && head.count >= 8 && head[4] == 2 ? .format(.exr) : nil
    }
}
