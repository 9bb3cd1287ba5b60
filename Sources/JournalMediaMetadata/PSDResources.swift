import JournalMediaCore

/// Photoshop documents (PSD, and PSB, the large-document variant): after the 26-byte header
/// and the colour-mode data come the image resources, `8BIM` blocks each with an ID, a
/// padded Pascal name and a length. Resource 0x0422 is EXIF (a TIFF structure) and 0x0424
/// is XMP. Layers and pixel data follow and are never read.
///
/// Runs once per PSD during the probe; costs one read of the resources section's block
/// headers and of the two blocks (bounded by `MetadataBlocks.maximumBlockSize`).
enum PSDResources {
    static let exifResource = 0x0422
    static let xmpResource = 0x0424
    /// Signatures a resource block may carry (Photoshop writes `8BIM`; the others come from
    /// older or foreign writers and are skipped the same way).
    private static let signatures: Set<String> = ["8BIM", "MeSa", "PHUT", "AgHg", "DCSR"]

    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        guard source.fourCC(0) == "8BPS", let version = source.uint16BE(4), version == 1 || version == 2,
              let colourModeLength = source.uint32BE(26) else { return blocks }
        let sectionStart = 30 + colourModeLength
        guard let sectionLength = source.uint32BE(sectionStart) else { return blocks }
        var offset = sectionStart + 4
        let end = min(source.size, offset + sectionLength)
        var count = 0
        while count < 10_000, offset + 12 <= end, let signature = source.fourCC(offset), signatures.contains(signature),
              let id = source.uint16BE(offset + 4), let nameLength = source.read(offset + 6, 1)?.first.map(Int.init) {
            count += 1
            // The name's length byte and characters, padded to an even count.
            let nameField = (1 + nameLength + 1) & ~1
            let sizeOffset = offset + 6 + nameField
            guard let size = source.uint32BE(sizeOffset) else { break }
            let data = sizeOffset + 4
            guard size <= end - data else { break }
            if size <= MetadataBlocks.maximumBlockSize {
                if id == exifResource, blocks.exif == nil, let payload = source.read(data, size) {
                    blocks.exif = MetadataBlocks.tiff(fromExifPayload: payload)
                } else if id == xmpResource, blocks.xmp == nil {
                    blocks.xmp = source.read(data, size)
                }
            }
            offset = data + size + (size & 1)
        }
        return blocks
    }
}
