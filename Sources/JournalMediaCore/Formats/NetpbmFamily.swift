/// Netpbm's integer formats (PBM, PGM, PPM, plain and binary: `P1`–`P6`) and the portable float
/// map (`PF`, `Pf`). "P" and a digit are a weak signature: the whole header must parse
/// (`PortableAnymapHeader`). The linked libvips reads them from a source, not a buffer. A float map
/// stores its rows bottom-up and holds linear light.
struct NetpbmFamily: FormatHandler {
    let priority = FormatPriority.structural
    let formats = [
        FormatDescription(.pnm, displayName: "PBM/PGM/PPM", mediaType: "image/x-portable-anymap", suffixes: ["pnm", "pbm", "pgm", "ppm"], kind: .still,
                          still: StillLoading(loader: "ppmload_source", input: .source, loadsWhole: true),
                          container: .portableAnymap),
        FormatDescription(.pfm, mediaType: "image/x-portable-floatmap", suffixes: ["pfm"], kind: .still,
                          still: StillLoading(loader: "ppmload_source", input: .source, loadsWhole: true,
                                               linearLight: true, rowOrder: .bottomUpBeforeLibvips815),
                          container: .portableAnymap),
    ]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "P"), let header = PortableAnymapHeader(head.bytes) else { return nil }
        return .format(header.isFloat ? .pfm : .pnm)
    }
}
