import JournalMediaCore

/// HEIF/AVIF (ISO base media file format): the `meta` box lists items (`iinf`) and where
/// their bytes are (`iloc`). The item of type `Exif` holds a 4-byte offset then the TIFF
/// structure; a `mime` item of type `application/rdf+xml` holds XMP.
///
/// Reads the `meta` box (through `HEIFMeta`) and the two items' extents only; the coded image
/// data is never read.
enum HEIFItems {
    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        guard let meta = HEIFMeta(source) else { return blocks }
        let exifItem = meta.items.first { $0.type == "Exif" }?.id
        let xmpItem = meta.items.first { $0.type == "mime" && $0.contentType == "application/rdf+xml" }?.id
        if let exifItem, let payload = meta.bytes(of: exifItem, limit: MetadataBlocks.maximumBlockSize),
           payload.count > 4 {
            let skip = Int(payload[0]) << 24 | Int(payload[1]) << 16 | Int(payload[2]) << 8 | Int(payload[3])
            if skip >= 0, skip < payload.count - 4 {
                blocks.exif = MetadataBlocks.tiff(fromExifPayload: Array(payload[(4 + skip)...]))
            }
        }
        if let xmpItem {
            blocks.xmp = meta.bytes(of: xmpItem, limit: MetadataBlocks.maximumBlockSize)
        }
        return blocks
    }
}
