/// The header of a Netpbm file (`P1`–`P6`: PBM, PGM, PPM, plain text or binary) or a portable
/// float map (`PF` colour, `Pf` grey): magic, width, height, and the maximum value (or, for
/// float maps, the scale whose sign gives the byte order), with `#` comments allowed between
/// fields as Netpbm allows them.
///
/// Parsed by the sniffer (a file counts as Netpbm only when its whole header parses) and by
/// the probe's bounds check, which refuses a binary file shorter than its header declares
/// before libvips allocates for it. Costs a scan of the first few dozen bytes.
package struct PortableAnymapHeader: Equatable, Sendable {
    /// The second magic byte: `1`…`6`, `F` or `f`.
    package var kind: UInt8
    package var width: Int
    package var height: Int
    /// The largest sample value (1 for bitmaps); 0 for float maps.
    package var maximum: Int
    /// Where the pixel data starts (after the single whitespace byte that ends the header).
    package var dataOffset: Int

    /// Float maps (`PF`, `Pf`): linear-light samples.
    package var isFloat: Bool { kind == UInt8(ascii: "F") || kind == UInt8(ascii: "f") }
    /// Binary rasters (`P4`, `P5`, `P6`, float maps), whose size follows from the header.
    package var isBinary: Bool { isFloat || (UInt8(ascii: "4")...UInt8(ascii: "6")).contains(kind) }

    /// Bytes of pixel data a binary file must hold: rows × bytes per row; nil for plain-text
    /// files (their size depends on how the numbers are written) or on overflow.
    package var rasterBytes: Int? {
        guard isBinary else { return nil }
        let rowBytes: Int
        switch kind {
        case UInt8(ascii: "4"): rowBytes = (width + 7) / 8
        case UInt8(ascii: "5"): rowBytes = width * (maximum > 255 ? 2 : 1)
        case UInt8(ascii: "6"): rowBytes = width * 3 * (maximum > 255 ? 2 : 1)
        case UInt8(ascii: "F"): rowBytes = width * 12
        default: rowBytes = width * 4
        }
        let (total, overflow) = rowBytes.multipliedReportingOverflow(by: height)
        return overflow ? nil : total
    }

    /// Largest width or height accepted from a header (larger numbers are not a real image).
    static let maximumSide = 1 << 24

    /// Parses the header at the start of `bytes`, or nil when they are not one.
    package init?(_ bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(512))
        guard head.count >= 3, head[0] == UInt8(ascii: "P") else { return nil }
        let kind = head[1]
        let known = (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(kind) || kind == UInt8(ascii: "F")
            || kind == UInt8(ascii: "f")
        guard known, Self.isSpace(head[2]) else { return nil }
        var index = 2
        /// The next whitespace-separated field, skipping comments; nil at the end of `head`.
        func field() -> [UInt8]? {
            while index < head.count {
                if Self.isSpace(head[index]) {
                    index += 1
                } else if head[index] == UInt8(ascii: "#") {
                    while index < head.count, head[index] != 0x0A, head[index] != 0x0D { index += 1 }
                } else {
                    break
                }
            }
            let start = index
            while index < head.count, !Self.isSpace(head[index]) { index += 1 }
            // The field must end inside the head (a following whitespace byte).
            guard index > start, index < head.count else { return nil }
            return Array(head[start..<index])
        }
        func number() -> Int? {
            guard let digits = field(), digits.count <= 9,
                  digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        guard let width = number(), let height = number(), (1...Self.maximumSide).contains(width),
              (1...Self.maximumSide).contains(height) else { return nil }
        var maximum = 1
        let isFloat = kind == UInt8(ascii: "F") || kind == UInt8(ascii: "f")
        if isFloat {
            guard let scale = field(), let value = Double(String(decoding: scale, as: UTF8.self)), value != 0,
                  value.isFinite else { return nil }
            maximum = 0
        } else if kind != UInt8(ascii: "1") && kind != UInt8(ascii: "4") {
            guard let value = number(), (1...65_535).contains(value) else { return nil }
            maximum = value
        }
        // One whitespace byte ends the header; the raster follows.
        self.kind = kind
        self.width = width
        self.height = height
        self.maximum = maximum
        self.dataOffset = index + 1
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }
}
