import JournalMediaCore

/// Removes the `EXIF`, `XMP ` and `ICCP` chunks from a WebP file and clears their flags in
/// the `VP8X` header. libvips' `webpsave` writes an EXIF chunk even with `strip` set
/// and every metadata field removed from the image, so renditions pass through here.
///
/// Runs once per WebP rendition; costs one pass over the chunk headers and one copy.
/// Bytes that are not a well-formed RIFF/WebP file are returned unchanged.
enum WebPMetadataRemover {
    private static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// VP8X feature bits: ICC profile, EXIF, XMP.
    private static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    static func removingMetadata(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12, tag(bytes, 0) == "RIFF", tag(bytes, 8) == "WEBP" else { return bytes }
        var chunks: [ArraySlice<UInt8>] = []
        var offset = 12
        var removed = false
        while offset + 8 <= bytes.count {
            let length = Int(littleEndian32(bytes, offset + 4))
            let padded = length + (length & 1)
            guard offset + 8 + length <= bytes.count else { return bytes }
            let end = min(offset + 8 + padded, bytes.count)
            if metadataChunks.contains(tag(bytes, offset)) {
                removed = true
            } else {
                chunks.append(bytes[offset..<end])
            }
            offset = end
        }
        guard removed else { return bytes }
        var output: [UInt8] = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)
        for chunk in chunks {
            let start = output.count
            output.append(contentsOf: chunk)
            if tag(output, start) == "VP8X" && output.count > start + 8 {
                output[start + 8] &= ~metadataFlags
            }
        }
        let riffSize = UInt32(output.count - 8)
        for i in 0..<4 { output[4 + i] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(i))) }
        return output
    }

    private static func tag(_ bytes: [UInt8], _ offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }

    private static func littleEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
