/// Radiance RGBE (`#?RADIANCE`, `#?RGBE`): linear light, often in absolute units.
struct RadianceFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .hdr, displayName: "Radiance HDR", mediaType: "image/vnd.radiance", suffixes: ["hdr", "rgbe", "pic"], kind: .still,
        still: StillLoading(loader: "radload_buffer", loadsWhole: true, linearLight: true))]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: "#?RADIANCE\n") || head.starts(with: "#?RGBE\n") ? .format(.hdr) : nil
    }
}
