/// TIFF (and BigTIFF) and the camera raw files built on it or beside it: Canon CR2 (TIFF with
/// "CR" 2 at byte 8), Olympus ORF ("IIRO"/"IIRS"/"MMOR"), Panasonic RW2 ("IIU\0"), Fujifilm RAF
/// ("FUJIFILMCCD-RAW "), and, among plain TIFF headers, DNG (a DNGVersion entry in IFD0), Nikon
/// NEF and Sony ARW (IFD0's Make) when IFD0 lies within the sniffed head; any other TIFF stays
/// `.tiff`. Raw files are shown through their largest embedded JPEG preview, handed to libvips
/// as a JPEG.
struct TIFFFamily: FormatHandler {
    let priority = FormatPriority.signature
    let formats: [FormatDescription] = [
        FormatDescription(.tiff, mediaType: "image/tiff", suffixes: ["tif", "tiff"], kind: .still,
                          still: StillLoading(loader: "tiffload_buffer"), container: .tiffDirectories,
                          metadata: .tiffDirectories),
        raw(.dng, "image/x-adobe-dng"), raw(.cr2, "image/x-canon-cr2"), raw(.nef, "image/x-nikon-nef"),
        raw(.arw, "image/x-sony-arw"), raw(.orf, "image/x-olympus-orf"),
        raw(.raf, "image/x-fuji-raf", metadata: .rafEmbeddedJPEG), raw(.rw2, "image/x-panasonic-rw2"),
    ]

    private static func raw(_ format: SourceFormat, _ mediaType: String,
                            metadata: MetadataLayout = .rawTIFFDirectories) -> FormatDescription {
        FormatDescription(format, mediaType: mediaType, suffixes: [format.rawValue], kind: .cameraRaw,
                          still: StillLoading(loader: "jpegload_buffer"), metadata: metadata)
    }

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        if head.starts(with: "FUJIFILMCCD-RAW ") { return .format(.raf) }
        if head.starts(with: "IIRO") || head.starts(with: "IIRS") || head.starts(with: "MMOR") { return .format(.orf) }
        if head.starts(with: [0x49, 0x49, 0x55, 0x00]) { return .format(.rw2) }
        // BigTIFF (magic 43, 64-bit offsets): libtiff reads it as a TIFF.
        if head.starts(with: [0x49, 0x49, 0x2B, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2B]) { return .format(.tiff) }
        let little = head.starts(with: [0x49, 0x49, 0x2A, 0x00])
        guard little || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) else { return nil }
        if little, head.starts(with: [0x43, 0x52, 0x02], at: 8) { return .format(.cr2) }
        func number(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= head.count else { return nil }
            let bytes = head.bytes[offset..<offset + width]
            return (little ? Array(bytes.reversed()) : Array(bytes)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let directory = number(4, 4), let count = number(directory, 2) else { return .format(.tiff) }
        for index in 0..<min(count, 512) {
            let entry = directory + 2 + index * 12
            guard let tag = number(entry, 2) else { break }
            if tag == 0xC612 { return .format(.dng) }
            guard tag == 0x010F, let length = number(entry + 4, 4), length > 0 else { continue }
            let start = length <= 4 ? entry + 8 : (number(entry + 8, 4) ?? head.count)
            guard start + length <= head.count else { continue }
            let make = String(decoding: head.bytes[start..<start + length], as: UTF8.self).uppercased()
            if make.hasPrefix("NIKON") { return .format(.nef) }
            if make.hasPrefix("SONY") { return .format(.arw) }
        }
        return .format(.tiff)
    }
}
