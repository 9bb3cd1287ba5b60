/// FITS (Flexible Image Transport System): astronomy's image format, 8-bit integer images only
/// (grey, or three planes read as RGB), read by libvips' cfitsio loader from a memfd (it has no
/// buffer loader). FITS stores the bottom row first; libvips returns rows as stored, so the
/// decode flips them. Float and 16/32-bit data have no fixed black and white and are claimed
/// (listed as not media), not guessed at.
struct FITSFormat: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [FormatDescription(
        .fits, mediaType: "image/fits", suffixes: ["fits", "fit", "fts"], kind: .still,
        still: StillLoading(loader: "fitsload", input: .memoryFile(name: "fits"), loadsWhole: true, rowOrder: .bottomUp),
        container: .declaredLength(container: "FITS", length: { FITSHeader($0)?.fileLength }))]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "SIMPLE  =") else { return nil }
        return FITSHeader(head).map { $0.bitsPerPixel == 8 ? .format(.fits) : .claimed } ?? .claimed
    }
}

extension SourceFormat {
    /// FITS: 8-bit grey or RGB-plane images (`FITSFormat`).
    public static let fits = SourceFormat(identifier: "fits")
}

/// The primary header's mandatory keywords, read from its 80-character cards: `SIMPLE = T`,
/// `BITPIX`, `NAXIS` (2, or 3 with 1 or 3 planes) and each `NAXISn`. Nil when they are not
/// there in that order within the head.
struct FITSHeader: Equatable {
    var bitsPerPixel: Int
    var axes: [Int]
    /// Bytes of header (whole 2,880-byte blocks up to `END`; one block when `END` lies past the head).
    var headerLength: Int

    /// Header plus data (the data's final padding to a block is not required).
    var fileLength: Int { axes.reduce(abs(bitsPerPixel) / 8, *) + headerLength }

    init?(_ head: SniffHead) {
        let cards = head.count / 80
        func card(_ index: Int) -> (key: String, value: String)? {
            guard index < cards else { return nil }
            let text = String(decoding: head.bytes[index * 80..<index * 80 + 80], as: UTF8.self)
            let key = String(text.prefix(8)).trimmed(" ")
            let hasValue = text.dropFirst(8).hasPrefix("= ")
            let value = hasValue ? String(text.dropFirst(10).prefix(20)).trimmed(" ") : ""
            return (key, value)
        }
        guard let simple = card(0), simple.key == "SIMPLE", simple.value == "T",
              let bitpix = card(1), bitpix.key == "BITPIX", let bits = Int(bitpix.value), [8, 16, 32, 64, -32, -64].contains(bits),
              let naxis = card(2), naxis.key == "NAXIS", let count = Int(naxis.value), count == 2 || count == 3 else { return nil }
        var axes: [Int] = []
        for axis in 1...count {
            guard let entry = card(2 + axis), entry.key == "NAXIS\(axis)", let length = Int(entry.value),
                  (1...1_000_000).contains(length) else { return nil }
            axes.append(length)
        }
        if count == 3, axes[2] != 1, axes[2] != 3 { return nil }
        let end = (3 + count..<cards).first { card($0)?.key == "END" }
        bitsPerPixel = bits
        self.axes = axes
        headerLength = end.map { ($0 * 80 + 80 + 2879) / 2880 * 2880 } ?? 2880
    }
}

private extension String {
    func trimmed(_ set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
