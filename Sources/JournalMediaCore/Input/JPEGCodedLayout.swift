/// The coded structure of a JPEG, walked from SOI through every scan to EOI: the frame
/// (process, precision, components and their sampling), the quantisation tables, the Adobe
/// colour transform, and which byte ranges carry pixels (tables, frame, scans) as opposed to
/// metadata (APP1–APP15, comments, a JFIF thumbnail) or trailing data after EOI (MPF images,
/// gain maps, motion-photo movies).
///
/// Made by the imaging layer's `JPEGFallbackReuse` for a JPEG that may serve as its own
/// fallback rendition (and by the fuzz target `fuzz-jpeg`).
/// Costs one walk of the file: the marker segments, and a `memchr` for 0xFF through the
/// entropy-coded data (no decoding). Nil when the file is not a complete, well-formed stream
/// of the kinds described here: any problem means "decode and encode as usual".
package struct JPEGCodedLayout: Equatable {
    package enum Process: Equatable { case baseline, extendedHuffman, progressive }

    /// One frame component: its identifier, sampling factors and quantisation table.
    package struct Component: Equatable {
        package var identifier: UInt8
        package var horizontal: Int
        package var vertical: Int
        package var table: Int
    }

    package enum ChromaLayout: Equatable {
        /// One component.
        case grey
        /// Chroma at half resolution both ways.
        case subsampled420
        /// Chroma at half resolution horizontally.
        case subsampled422
        /// Chroma at full resolution.
        case full444
        /// Anything else (4:1:1, 4:4:0, unusual factors).
        case other
    }

    package var process: Process
    package var width: Int
    package var height: Int
    package var components: [Component]
    /// The 8-bit quantisation tables by identifier (0–3), in zig-zag order as stored.
    package var tables: [Int: [UInt8]]
    /// The Adobe APP14 segment's transform flag (0: no transform, RGB or CMYK; 1: YCbCr;
    /// 2: YCCK), nil without such a segment.
    package var adobeTransform: UInt8?
    /// Byte ranges that make up the picture: SOI, a JFIF header without thumbnail, Adobe
    /// APP14, tables, frame, restart interval, scans with their entropy-coded data, EOI.
    package var pictureRanges: [Range<Int>]
    /// Bytes in the file after EOI.
    package var trailingBytes: Int

    /// The luma plane's quantisation table (the first component's).
    package var lumaTable: [UInt8]? { components.first.flatMap { tables[$0.table] } }

    package var chromaLayout: ChromaLayout {
        guard components.count == 3 else { return components.count == 1 ? .grey : .other }
        let luma = components[0], chroma = components[1...]
        guard chroma.allSatisfy({ $0.horizontal == 1 && $0.vertical == 1 }) else { return .other }
        switch (luma.horizontal, luma.vertical) {
        case (2, 2): return .subsampled420
        case (2, 1): return .subsampled422
        case (1, 1): return .full444
        default: return .other
        }
    }

    /// The file with everything but the picture left out: the concatenated `pictureRanges`
    /// of `bytes`, the file `parse` walked (empty for a shorter buffer).
    package func pictureOnly(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        guard let last = pictureRanges.last, last.upperBound <= bytes.count else { return [] }
        var output: [UInt8] = []
        output.reserveCapacity(pictureRanges.reduce(0) { $0 + $1.count })
        for range in pictureRanges { output.append(contentsOf: bytes[range]) }
        return output
    }

    /// Walks `bytes`. Nil for anything but a complete 8-bit Huffman-coded stream (baseline,
    /// extended or progressive) with one frame, 8-bit quantisation tables, its own Huffman
    /// tables before the first scan, at least one scan, and EOI; also nil for a DNL segment (height defined after the first scan) or hierarchical,
    /// lossless and arithmetic-coded frames.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> JPEGCodedLayout? {
        var layout = JPEGCodedLayout(process: .baseline, width: 0, height: 0, components: [], tables: [:],
                                     adobeTransform: nil, pictureRanges: [0..<2], trailingBytes: 0)
        var sawFrame = false, sawScan = false, sawHuffmanTables = false
        var segments = JPEGSegments(BorrowedBytes(bytes: bytes), limit: 65_536)
        while let segment = segments.next() {
            let code = segment.marker, whole = segment.offset..<segment.end
            let payload = UnsafeRawBufferPointer(rebasing: bytes[segment.payload])
            switch code {
            case 0xD9:
                guard sawFrame, sawScan else { return nil }
                layout.pictureRanges.append(whole)
                layout.trailingBytes = bytes.count - segment.end
                return layout
            case 0x01, 0xD0...0xD8:
                return nil  // RSTn, TEM or SOI between segments
            case 0xC0, 0xC1, 0xC2:
                guard !sawFrame, let frame = frameHeader(payload) else { return nil }
                sawFrame = true
                layout.process = code == 0xC0 ? .baseline : code == 0xC1 ? .extendedHuffman : .progressive
                (layout.width, layout.height, layout.components) = frame
                layout.pictureRanges.append(whole)
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDC, 0xDE, 0xDF:
                return nil  // lossless, hierarchical, arithmetic; DNL, DHP, EXP
            case 0xDB:
                guard readTables(payload, into: &layout.tables) else { return nil }
                layout.pictureRanges.append(whole)
            case 0xC4, 0xDD:  // Huffman tables, restart interval
                if code == 0xC4 { sawHuffmanTables = true }
                layout.pictureRanges.append(whole)
            case 0xCC:  // arithmetic conditioning: only arithmetic-coded files use it
                return nil
            case 0xE0:
                // A JFIF header without a thumbnail (16 bytes) is kept; JFXX and thumbnails are not.
                if payload.count == 14, payload.starts(with: Array("JFIF\0".utf8)) { layout.pictureRanges.append(whole) }
            case 0xEE:
                if payload.count >= 12, payload.starts(with: Array("Adobe".utf8)) {
                    layout.adobeTransform = payload[11]
                    layout.pictureRanges.append(whole)
                }
            case 0xDA:
                // A scan without Huffman tables in the file (Motion-JPEG frames lean on the
                // standard tables) is not a JPEG every viewer shows.
                guard sawFrame, sawHuffmanTables,
                      let scanEnd = JPEGSegment.entropyCodedEnd(in: bytes, from: segment.end) else { return nil }
                sawScan = true
                layout.pictureRanges.append(segment.offset..<scanEnd)
                segments.resume(at: scanEnd)
            default:
                break  // APP1–APP13, APP15, COM: metadata, left out
            }
        }
        return nil
    }

    /// Width, height and components of an SOF payload with 8-bit precision, or nil.
    private static func frameHeader(_ payload: UnsafeRawBufferPointer) -> (Int, Int, [Component])? {
        guard payload.count >= 6, payload[0] == 8 else { return nil }
        let height = Int(payload[1]) << 8 | Int(payload[2])
        let width = Int(payload[3]) << 8 | Int(payload[4])
        let componentCount = Int(payload[5])
        guard width > 0, height > 0, componentCount >= 1, payload.count >= 6 + 3 * componentCount else { return nil }
        var components: [Component] = []
        for index in 0..<componentCount {
            let at = 6 + 3 * index
            let factors = payload[at + 1]
            components.append(Component(identifier: payload[at], horizontal: Int(factors >> 4),
                                        vertical: Int(factors & 0x0F), table: Int(payload[at + 2])))
        }
        return (width, height, components)
    }

    /// Reads the tables of one DQT payload; false for 16-bit or malformed tables.
    private static func readTables(_ payload: UnsafeRawBufferPointer, into tables: inout [Int: [UInt8]]) -> Bool {
        var at = 0
        while at < payload.count {
            let precision = payload[at] >> 4, identifier = Int(payload[at] & 0x0F)
            guard precision == 0, identifier < 4, at + 65 <= payload.count else { return false }
            tables[identifier] = Array(payload[(at + 1)..<(at + 65)])
            at += 65
        }
        return true
    }
}
