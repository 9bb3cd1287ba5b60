import JournalMediaCore
import JournalMediaHEIF

/// A structure inside a container that declares more bytes than the file holds: a PNG chunk,
/// a JPEG segment, a RIFF chunk, an ISO-BMFF box or item extent, a TIFF directory or value.
package struct ContainerOverrun: Error, Equatable, Sendable {
    /// "PNG", "JPEG", "RIFF", "ISO-BMFF" or "TIFF".
    package var container: String
    /// What overruns, e.g. "chunk tEXt", "segment APP1", "box mdat", "entry 0x0111".
    package var structure: String
    /// Where the structure starts, in bytes from the start of the file.
    package var offset: Int
    /// How many bytes it declares (for its data, or in all).
    package var declared: Int
    /// The file's size.
    package var fileSize: Int

    /// One sentence for the asset's error message.
    package var message: String {
        let at = offset == Int.max ? "beyond any offset" : "at byte \(offset)"
        return "\(container) \(structure) \(at) declares \(declared) bytes, past the end of the \(fileSize)-byte file"
    }
}

/// The first gate for untrusted stills: walks the container's structure (headers only) and
/// refuses any chunk, segment, box, item extent or TIFF value that runs past the end of the
/// file, before libvips, libpng, libwebp, libheif, libtiff or libexif see the bytes. Decoders
/// allocate what a header declares (a 355-byte PNG whose `tEXt` declares 2 GB made libpng
/// allocate 2 GB); a declared size the file cannot hold is never legitimate.
///
/// Runs once per still in the probe. Costs one small read per structure header: PNG chunk
/// headers up to `IEND` (pixel data skipped, not read), JPEG segment headers up to the first
/// scan, RIFF chunk headers, top-level ISO-BMFF boxes plus the `meta` box, TIFF directories
/// and their strip/tile tables. Movies are not checked here: libav reads a truncated movie's
/// complete frames, and its demuxers bound their own reads.
package enum ContainerBounds {
    /// The first overrun in `source` read as `format` (walked as its handler's `ContainerLayout`),
    /// or nil when every declared size fits.
    package static func check(_ source: some ByteSource, format: SourceFormat) -> ContainerOverrun? {
        switch format.handling.container {
        case .pngChunks: png(source)
        case .jpegSegments: jpeg(source)
        case .riffChunks: riff(source)
        case .isoBMFFBoxes: isoBMFF(source)
        case .tiffDirectories: tiff(source)
        case .bmpHeader: bmp(source)
        case .iconDirectory: ico(source)
        case .portableAnymap: anymap(source)
        case .declaredLength(let container, let length): declared(source, container: container, length: length)
        case nil: nil
        }
    }

    /// A file whose header declares its whole length (`ContainerLayout.declaredLength`): it
    /// must hold that many bytes.
    static func declared(_ source: some ByteSource, container: String,
                         length: (SniffHead) -> Int?) -> ContainerOverrun? {
        guard let head = source.read(0, min(source.size, FormatSniffer.prefixLength)),
              let declared = length(SniffHead(head)), declared > source.size else { return nil }
        return ContainerOverrun(container: container, structure: "header", offset: 0, declared: declared,
                                fileSize: source.size)
    }

    /// PNG: length (big-endian, data only), type, data, CRC, from byte 8 to `IEND`. A chunk's
    /// data must fit in the file; its CRC may be missing (libpng reports that itself).
    static func png(_ source: some ByteSource) -> ContainerOverrun? {
        var offset = 8
        var chunks = 0
        while chunks < 1_000_000, let length = source.uint32BE(offset), let type = source.fourCC(offset + 4) {
            chunks += 1
            let data = offset + 8
            // libpng streams IDAT (it never allocates an IDAT's declared length) and stops once
            // it has every row, so a cut final IDAT is the decoder's to judge.
            if length > source.size - data, type == "IDAT" { return nil }
            if length > source.size - data {
                return ContainerOverrun(container: "PNG", structure: "chunk \(printable(type))", offset: offset,
                                        declared: length, fileSize: source.size)
            }
            if type == "IEND" { return nil }
            offset = data + length + 4
        }
        return nil
    }

    /// JPEG: markers from SOI; every segment with a length (up to and including the first
    /// SOS header) must fit. Entropy-coded data after SOS has no declared sizes.
    static func jpeg(_ source: some ByteSource) -> ContainerOverrun? {
        var segments = JPEGSegments(source, limit: 100_000)
        while segments.next() != nil {}
        guard case .overrun(let marker, let offset, let declared) = segments.stop else { return nil }
        return ContainerOverrun(container: "JPEG", structure: "segment \(JPEGSegment.name(of: marker))", offset: offset,
                                declared: declared, fileSize: source.size)
    }

    /// BMP: an uncompressed (or bit-field) bitmap's rows, from the declared pixel-data offset,
    /// must fit in the file (ImageMagick allocates the declared size before reading rows).
    /// Compressed bitmaps (RLE, embedded JPEG/PNG) have no fixed size and are not checked.
    static func bmp(_ source: some ByteSource) -> ContainerOverrun? {
        guard let header = source.read(0, 34) else { return nil }
        func little(_ at: Int, _ width: Int) -> Int {
            (0..<width).reduce(0) { $0 | Int(header[at + $1]) << (8 * $1) }
        }
        let dataOffset = little(10, 4), dibSize = little(14, 4)
        let width = Int(Int32(truncatingIfNeeded: little(18, 4)))
        let rows = Int(Int32(truncatingIfNeeded: little(22, 4))).magnitude  // negative: top-down
        let bits = little(28, 2), compression = little(30, 4)
        guard dibSize >= 40, compression == 0 || compression == 3, bits > 0, width > 0 else { return nil }
        let rowBytes = (width * bits + 31) / 32 * 4  // ≤ 2^31 × 32: no overflow on 64-bit
        let (declared, overflow) = rowBytes.multipliedReportingOverflow(by: Int(rows))
        guard overflow || dataOffset > source.size || declared > source.size - dataOffset else { return nil }
        return ContainerOverrun(container: "BMP", structure: "pixel rows (\(width)×\(rows), \(bits) bits)",
                                offset: dataOffset, declared: overflow ? Int.max : declared, fileSize: source.size)
    }

    /// Netpbm and float maps: a binary raster (`P4`–`P6`, `PF`, `Pf`) must hold the rows its
    /// header declares (libvips allocates and maps them from the header). Plain-text rasters
    /// have no fixed size and are left to the loader.
    static func anymap(_ source: some ByteSource) -> ContainerOverrun? {
        guard let head = source.read(0, min(512, source.size)), let header = PortableAnymapHeader(head),
              header.isBinary else { return nil }
        let declared = header.rasterBytes ?? Int.max
        guard header.dataOffset > source.size || declared > source.size - header.dataOffset else { return nil }
        let kind = header.isFloat ? "PFM" : "PNM"
        return ContainerOverrun(container: kind, structure: "raster (\(header.width)×\(header.height))",
                                offset: header.dataOffset, declared: declared, fileSize: source.size)
    }

    /// ICO: every image the directory lists (offset + size) must lie inside the file.
    static func ico(_ source: some ByteSource) -> ContainerOverrun? {
        guard let header = source.read(0, 6) else { return nil }
        let count = Int(header[4]) | Int(header[5]) << 8
        for index in 0..<count {
            guard let entry = source.read(6 + 16 * index, 16) else {
                return ContainerOverrun(container: "ICO", structure: "directory of \(count) images", offset: 6,
                                        declared: 16 * count, fileSize: source.size)
            }
            let size = (8..<12).reduce(0) { $0 | Int(entry[$1]) << (8 * ($1 - 8)) }
            let offset = (12..<16).reduce(0) { $0 | Int(entry[$1]) << (8 * ($1 - 12)) }
            if offset > source.size || size > source.size - offset {
                return ContainerOverrun(container: "ICO", structure: "image \(index)", offset: offset, declared: size,
                                        fileSize: source.size)
            }
        }
        return nil
    }

    /// RIFF (WebP): the RIFF size and every chunk (little-endian sizes, padded to even) must fit.
    static func riff(_ source: some ByteSource) -> ContainerOverrun? {
        guard let riffSize = source.uint32LE(4) else { return nil }
        if riffSize > source.size - 8 {
            return ContainerOverrun(container: "RIFF", structure: "header", offset: 0, declared: riffSize,
                                    fileSize: source.size)
        }
        let end = 8 + riffSize
        var offset = 12
        var chunks = 0
        while chunks < 100_000, offset + 8 <= end, let type = source.fourCC(offset), let length = source.uint32LE(offset + 4) {
            chunks += 1
            let data = offset + 8
            if length > end - data {
                return ContainerOverrun(container: "RIFF", structure: "chunk \(printable(type))", offset: offset,
                                        declared: length, fileSize: source.size)
            }
            offset = data + length + (length & 1)
        }
        return nil
    }

    /// ISO-BMFF (HEIF, AVIF): every top-level box, every box in `meta`, and every item extent
    /// `iloc` declares must lie inside the file. A size of 0 (to the end of the file) fits.
    /// A cut `mdat` passes when every extent fits: decoders read items through their extents,
    /// never the media data box as a whole.
    static func isoBMFF<Source: ByteSource>(_ source: Source) -> ContainerOverrun? {
        if let overrun = boxes(source, from: 0, to: source.size, limit: 4_096), overrun.structure != "box mdat" {
            return overrun
        }
        guard let meta = HEIFMeta<Source>.children(in: source, from: 0, to: source.size, limit: 64)
            .first(where: { $0.type == "meta" }) else { return nil }
        if let overrun = boxes(source, from: meta.content + 4, to: meta.end, limit: 4_096) { return overrun }
        if let extent = HEIFMeta(source)?.extentOutsideFile() {
            return ContainerOverrun(container: "ISO-BMFF", structure: "item \(extent.item) extent", offset: extent.start,
                                    declared: extent.length, fileSize: source.size)
        }
        return nil
    }

    /// The boxes between `start` and `end`: each size must fit inside `end`.
    private static func boxes(_ source: some ByteSource, from start: Int, to end: Int, limit: Int) -> ContainerOverrun? {
        var offset = start
        var count = 0
        while count < limit, offset + 8 <= end, let size32 = source.uint32BE(offset), let type = source.fourCC(offset + 4) {
            count += 1
            var size = size32
            if size32 == 1 {
                guard let size64 = source.uint64BE(offset + 8) else {
                    return ContainerOverrun(container: "ISO-BMFF", structure: "box \(printable(type))", offset: offset,
                                            declared: Int.max, fileSize: source.size)
                }
                size = size64
            } else if size32 == 0 {
                return nil  // extends to the end of its parent
            }
            if size > end - offset {
                return ContainerOverrun(container: "ISO-BMFF", structure: "box \(printable(type))", offset: offset,
                                        declared: size, fileSize: source.size)
            }
            guard size >= 8 else { return nil }  // malformed; the decoder reports it
            offset += size
        }
        return nil
    }

    /// A four-character code as text, with bytes outside printable ASCII shown as `?`.
    static func printable(_ code: String) -> String {
        String(code.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
    }
}
