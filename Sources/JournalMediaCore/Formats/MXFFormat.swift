/// MXF (SMPTE 377M): broadcast and professional cameras.
struct MXFFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(.mxf, mediaType: "application/mxf", suffixes: ["mxf"], kind: .video)]

    /// A partition pack's SMPTE key (06 0E 2B 34 02 05 01 01 0D 01 02 01 01, then the partition
    /// kind) first, as every OP1a/OP-Atom writer starts (no run-in).
    func sniff(_ head: SniffHead) -> SniffVerdict? {
        head.starts(with: [0x06, 0x0E, 0x2B, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0D, 0x01, 0x02, 0x01, 0x01]) ? .format(.mxf) : nil
    }
}
