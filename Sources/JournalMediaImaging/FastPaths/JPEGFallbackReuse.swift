import JournalMediaCore

/// A JPEG source as its own JPEG rendition: when the photo already fits the spec's box, is
/// upright and sRGB, and was encoded at no higher a quality than the spec asks, its coded
/// picture is copied with the metadata left out (`JPEGCodedLayout.pictureOnly`) instead of
/// being decoded and encoded again. The copy has the source's exact pixels (no second
/// generation of JPEG loss), no EXIF, XMP, IPTC, ICC, comments or trailing data, and costs a
/// walk of the file instead of an encode; the decode then only needs the other renditions'
/// size (often a DCT-scaled one).
///
/// Decided by the photo source once per JPEG, after the header and before the decode.
/// Conditions, each a reason to encode as usual when not met:
/// - the spec writes a JPEG `inside` its box, with no byte limit and no `effort` ≥ 4 (which
///   asks for optimised Huffman tables), and the source's display size is its scaled size;
/// - orientation 1 (the copy carries no EXIF to rotate it), no ICC profile or an
///   sRGB-equivalent one (renditions are sRGB without a profile), grey or YCbCr colour (not
///   CMYK/YCCK, not an Adobe "no transform" or R/G/B-labelled RGB JPEG), 8-bit, Huffman-coded
///   baseline or progressive, complete up to EOI;
/// - quality: the IJG quality the luma table corresponds to (`estimatedQuality`) is at most
///   one above the spec's; chroma subsampling as the spec asks (`on`: 4:2:0, `off`: 4:4:4,
///   unset: any of 4:2:0, 4:2:2, 4:4:4); `progressive` as the spec asks when it says.
/// The caller still decodes the source (thumbnails, colours), and drops the copy when the
/// decode finds damage the decoder had to work around.
package enum JPEGFallbackReuse {
    /// The JPEG standard's (Annex K) luminance quantisation table, in zig-zag order as DQT
    /// stores it: IJG's libjpeg scales it by the quality setting.
    static let standardLuma: [UInt8] = [
        16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51,
        61, 60, 57, 51, 56, 55, 64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77,
        113, 121, 112, 100, 120, 92, 101, 103, 99,
    ]

    /// The IJG quality (1–100) whose table `table` (64 entries, zig-zag order) is closest to,
    /// inverting libjpeg's scaling (`scale = q < 50 ? 5000 / q : 200 − 2q`, percent) from the
    /// mean ratio to the standard table. Within 0.3 of the setting for libjpeg's own tables
    /// (their entries are rounded); a measure of coarseness for other encoders' tables.
    package static func estimatedQuality(lumaTable table: [UInt8]) -> Double {
        guard table.count == 64 else { return 100 }
        var sum = 0.0
        for index in 0..<64 { sum += Double(table[index]) * 100 / Double(standardLuma[index]) }
        let scale = sum / 64
        return scale <= 100 ? (200 - scale) / 2 : 5000 / scale
    }

    /// The source as each of `specs`' renditions the conditions above allow (none for most
    /// files). The file is walked once, only when the header and at least one spec qualify,
    /// and its picture copied once for all the renditions it serves.
    package static func renditions(_ bytes: UnsafeRawBufferPointer, header: ImageHeader,
                                   specs: [RenditionSpec]) -> [Rendition] {
        guard header.format == .jpeg, !header.highBitDepth, !header.hasAlpha, header.orientation == 1,
              !header.hasProfile || header.profileIsSRGB, header.colourSpace == .rgb || header.colourSpace == .grey
        else { return [] }
        let fitting = specs.filter { spec in
            spec.outputFormat(transparent: false) == .jpeg && spec.fit == .inside && spec.byteLimit == nil
                && (spec.effort ?? 0) < 4
                && RenditionRenderer.scaledSize(for: spec, sourceWidth: header.displayWidth,
                                                sourceHeight: header.displayHeight, allowUpscale: false)
                    == (header.displayWidth, header.displayHeight)
        }
        guard !fitting.isEmpty, let layout = JPEGCodedLayout.parse(bytes),
              layout.width == header.storedWidth, layout.height == header.storedHeight,
              colourIsYCbCrOrGrey(layout, header: header), let luma = layout.lumaTable else { return [] }
        let quality = estimatedQuality(lumaTable: luma)
        let served = fitting.filter { spec in
            accepts(layout.chromaLayout, asked: spec.chromaSubsampling)
                && (spec.progressive.map { $0 == (layout.process == .progressive) } ?? true)
                && quality <= Double(spec.quality) + 1
        }
        guard !served.isEmpty else { return [] }
        let picture = layout.pictureOnly(bytes)
        return served.map { spec in
            Rendition(role: spec.role, format: .jpeg, width: header.displayWidth, height: header.displayHeight,
                      data: picture)
        }
    }

    /// Grey with one component, or three components a decoder takes for YCbCr.
    private static func colourIsYCbCrOrGrey(_ layout: JPEGCodedLayout, header: ImageHeader) -> Bool {
        switch layout.components.count {
        case 1: return header.colourSpace == .grey
        case 3:
            let labelledRGB = layout.components.map(\.identifier) == Array("RGB".utf8)
            return header.colourSpace == .rgb && layout.adobeTransform != 0 && !labelledRGB
        default: return false
        }
    }

    private static func accepts(_ layout: JPEGCodedLayout.ChromaLayout, asked: ChromaSubsampling?) -> Bool {
        switch asked {
        case nil: [.grey, .subsampled420, .subsampled422, .full444].contains(layout)
        case .on: [.grey, .subsampled420].contains(layout)
        case .off: [.grey, .full444].contains(layout)
        }
    }
}
