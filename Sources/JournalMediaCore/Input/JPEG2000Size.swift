/// The image and component grid a JPEG 2000 codestream declares in its SIZ marker segment
/// (ISO/IEC 15444-1, A.5.1): the reference grid's size and, per component, its precision and
/// its subsampling against that grid (XRsiz, YRsiz). Read from a raw codestream (`.j2k`,
/// which starts SOC `FF 4F` then SIZ `FF 51`) or from a JP2 file's contiguous-codestream
/// (`jp2c`) box.
///
/// Read by the still decode before libvips sees a JPEG 2000, to refuse layouts its loader
/// decodes wrongly (see `firstComponentIsSubsampled`). Costs a walk over the file's top-level
/// boxes and one read of the SIZ segment (tens of bytes); nil when there is no well-formed SIZ.
package struct JPEG2000Size: Equatable, Sendable {
    /// One component's declaration.
    package struct Component: Equatable, Sendable {
        /// Bits per sample (1–38).
        package var bits: Int
        package var signed: Bool
        /// Horizontal and vertical subsampling against the reference grid (1 = full size).
        package var dx: Int
        package var dy: Int
    }

    /// The image area on the reference grid (Xsiz − XOsiz, Ysiz − YOsiz).
    package var width: Int
    package var height: Int
    package var components: [Component]

    /// Whether the first component is sampled more coarsely than the reference grid.
    /// libvips' `jp2kload` sizes its output from the first component's sample count and
    /// then divides the position by that component's subsampling again while packing pixels:
    /// such a file (a valid one from `opj_compress -s 2,2` as much as a fuzzer's) decodes to
    /// the wrong pixels, read past the component's buffer, different on every run. Colour
    /// images with subsampled chroma (first component 1×1) are not affected.
    package var firstComponentIsSubsampled: Bool {
        guard let first = components.first else { return false }
        return first.dx != 1 || first.dy != 1
    }

    /// Parses the SIZ segment of `source`, a raw codestream or a JP2 file.
    package init?<Source: ByteSource>(_ source: Source) {
        let codestream: Int
        if source.read(0, 4) == [0xFF, 0x4F, 0xFF, 0x51] {
            codestream = 0
        } else {
            // JP2: the codestream is the content of the first top-level `jp2c` box, which may
            // declare more bytes than the file holds (the decoder reads what is there, so
            // this reads its header too).
            var offset = 0
            var found: Int?
            for _ in 0..<64 {
                guard let size = source.uint32BE(offset), let type = source.fourCC(offset + 4) else { break }
                let header = size == 1 ? 16 : 8
                if type == "jp2c" {
                    found = offset + header
                    break
                }
                let length = size == 1 ? source.uint64BE(offset + 8) ?? 0 : size
                guard length >= header, length <= source.size - offset else { break }
                offset += length
            }
            guard let found else { return nil }
            codestream = found
        }
        self.init(codestream: codestream, in: source)
    }

    private init?(codestream start: Int, in source: some ByteSource) {
        guard source.read(start, 4) == [0xFF, 0x4F, 0xFF, 0x51], let length = source.uint16BE(start + 4),
              let xsiz = source.uint32BE(start + 8), let ysiz = source.uint32BE(start + 12),
              let xosiz = source.uint32BE(start + 16), let yosiz = source.uint32BE(start + 20),
              let count = source.uint16BE(start + 40),
              count >= 1, length == 38 + 3 * count, xsiz > xosiz, ysiz > yosiz,
              let table = source.read(start + 42, 3 * count) else { return nil }
        width = xsiz - xosiz
        height = ysiz - yosiz
        components = stride(from: 0, to: table.count, by: 3).map { at in
            Component(bits: Int(table[at] & 0x7F) + 1, signed: table[at] & 0x80 != 0,
                      dx: Int(table[at + 1]), dy: Int(table[at + 2]))
        }
    }
}
