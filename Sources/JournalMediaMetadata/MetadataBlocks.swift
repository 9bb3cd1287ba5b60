import JournalMediaCore

/// The metadata blocks of one image file, found by walking its container (JPEG segments,
/// PNG chunks, RIFF chunks, HEIF items, the TIFF file itself) without decoding pixels.
///
/// Made once per asset by `MetadataBlocks.find`; costs reading the container's headers and
/// the blocks themselves (a few kilobytes for a camera JPEG).
package struct MetadataBlocks {
    /// The EXIF block as a TIFF structure (starting `II*\0` or `MM\0*`), without the
    /// `Exif\0\0` prefix JPEG puts before it.
    package var exif: [UInt8]?
    /// The XMP packet's bytes (UTF-8 XML).
    package var xmp: [UInt8]?
    /// PNG text chunks (`tEXt`, `zTXt`, `iTXt`): keyword and text.
    package var texts: [(keyword: String, text: String)] = []

    /// A HEIF image sequence's `moov/mvhd` creation time (UTC), when it has one.
    package var movieCreated: LocalDateTime?

    /// Largest block kept (EXIF, XMP): bigger ones are treated as absent.
    static let maximumBlockSize = 16 * 1024 * 1024

    /// Walks `source` as `format`'s handler says (`MetadataLayout`). Malformed containers give whatever was found before the
    /// damage; nothing here throws.
    package static func find(in source: some ByteSource, format: SourceFormat) -> MetadataBlocks {
        switch format.handling.metadata {
        case .jpegSegments: JPEGMetadataSegments.blocks(in: source)
        case .pngChunks: PNGChunks.blocks(in: source)
        case .riffChunks: RIFFChunks.blocks(in: source)
        case .heifItems: HEIFItems.blocks(in: source)
        case .tiffDirectories: TIFFMetadata.blocks(in: source)
        // Raw files: their own TIFF directories (any magic number: ORF and RW2 change it);
        // a RAF's EXIF is in the JPEG it embeds.
        case .rawTIFFDirectories: TIFFMetadata.blocks(in: source, anyMagic: true)
        case .rafEmbeddedJPEG:
            if let offset = source.uint32BE(84), let length = source.uint32BE(88) {
                JPEGMetadataSegments.blocks(in: WindowBytes(source, start: offset, length: length))
            } else {
                MetadataBlocks()
            }
        case .photoshopResources: PSDResources.blocks(in: source)
        case nil: MetadataBlocks()
        }
    }

    /// Whether `bytes` start with a TIFF header.
    package static func isTIFFHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// An EXIF payload as writers store it: optionally `Exif\0\0` (some add it where the
    /// format does not ask for it), then the TIFF structure.
    static func tiff(fromExifPayload payload: [UInt8]) -> [UInt8]? {
        let slice = payload[...]
        if isTIFFHeader(slice) { return payload }
        if slice.starts(with: Array("Exif\0\0".utf8)), isTIFFHeader(slice.dropFirst(6)) { return Array(slice.dropFirst(6)) }
        return nil
    }
}

/// JPEG: markers from SOI to the first SOS; APP1 segments carry EXIF (`Exif\0\0`) and XMP
/// (`http://ns.adobe.com/xap/1.0/\0`). Stray bytes between segments are skipped up to 8
/// times. Costs the segment walk (`JPEGSegments`) and reading the two payloads.
enum JPEGMetadataSegments {
    private static let exifSignature = Array("Exif\0\0".utf8)
    private static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        var segments = JPEGSegments(source)
        var resyncs = 0
        while true {
            while let segment = segments.next() {
                guard segment.marker == 0xE1 else { continue }
                let data = segment.payload
                if blocks.exif == nil, source.read(data.lowerBound, min(6, data.count)) == exifSignature,
                   let payload = source.read(data.lowerBound + 6, data.count - 6) {
                    blocks.exif = MetadataBlocks.isTIFFHeader(payload[...]) ? payload : nil
                } else if blocks.xmp == nil, data.count > xmpSignature.count,
                          source.read(data.lowerBound, xmpSignature.count) == xmpSignature {
                    blocks.xmp = source.read(data.lowerBound + xmpSignature.count, data.count - xmpSignature.count)
                }
            }
            // Some writers leave stray bytes between segments; find the next marker.
            guard case .notAMarker(let offset) = segments.stop, resyncs < 8,
                  let next = nextMarker(in: source, after: offset) else { return blocks }
            resyncs += 1
            segments.resume(at: next)
        }
    }

    /// The offset of the next plausible segment marker within 4 KiB of `start`.
    private static func nextMarker(in source: some ByteSource, after start: Int) -> Int? {
        guard let window = source.read(start, min(4_096, source.size - start)), window.count >= 2 else { return nil }
        for index in 0..<(window.count - 1) where window[index] == 0xFF {
            let code = window[index + 1]
            if (0xE0...0xEF).contains(code) || [0xDB, 0xC4, 0xDD, 0xFE, 0xDA, 0xC0, 0xC1, 0xC2].contains(code) {
                return start + index
            }
        }
        return nil
    }
}

/// PNG: length-type-data-CRC chunks from the signature to `IEND`. `eXIf` is EXIF (a TIFF
/// structure), `iTXt` "XML:com.adobe.xmp" is XMP (compressed or not), `tEXt`/`zTXt`/`iTXt`
/// carry "Creation Time".
/// Only chunk headers are read for pixel data (`IDAT` is skipped, not read).
enum PNGChunks {
    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        var offset = 8
        var chunks = 0
        while chunks < 100_000, let length = source.uint32BE(offset), let type = source.fourCC(offset + 4) {
            chunks += 1
            let data = offset + 8
            guard length <= source.size - data else { break }
            switch type {
            case "eXIf" where blocks.exif == nil && length <= MetadataBlocks.maximumBlockSize:
                if let payload = source.read(data, length) { blocks.exif = MetadataBlocks.tiff(fromExifPayload: payload) }
            case "tEXt" where length <= 65_536:
                if let payload = source.read(data, length), let zero = payload.firstIndex(of: 0) {
                    // tEXt is Latin-1.
                    let keyword = String(payload[..<zero].map { Character(Unicode.Scalar($0)) })
                    let text = String(payload[(zero + 1)...].map { Character(Unicode.Scalar($0)) })
                    blocks.texts.append((keyword, text))
                }
            case "zTXt" where length <= 65_536:
                // keyword\0, method 0 (zlib), Latin-1 text compressed.
                if let payload = source.read(data, length), let zero = payload.firstIndex(of: 0), zero + 1 < payload.count,
                   payload[zero + 1] == 0, let text = BoundedInflate.inflate(payload[(zero + 2)...], limit: 1 << 20) {
                    let keyword = String(payload[..<zero].map { Character(Unicode.Scalar($0)) })
                    blocks.texts.append((keyword, String(text.map { Character(Unicode.Scalar($0)) })))
                }
            case "iTXt" where length <= MetadataBlocks.maximumBlockSize:
                if let payload = source.read(data, length) { readInternationalText(payload, into: &blocks) }
            case "IEND":
                return blocks
            default:
                break
            }
            offset = data + length + 4
        }
        return blocks
    }

    /// iTXt: keyword\0, compression flag, method, language tag\0, translated keyword\0, text
    /// (zlib-compressed when the flag is 1 and the method 0; inflated up to
    /// `MetadataBlocks.maximumBlockSize`).
    private static func readInternationalText(_ payload: [UInt8], into blocks: inout MetadataBlocks) {
        guard let zero = payload.firstIndex(of: 0), zero + 2 < payload.count, payload[zero + 1] <= 1 else { return }
        let compressed = payload[zero + 1] == 1
        guard !compressed || payload[zero + 2] == 0 else { return }
        let keyword = String(decoding: payload[..<zero], as: UTF8.self)
        var index = zero + 3
        for _ in 0..<2 {
            guard index <= payload.count, let end = payload[index...].firstIndex(of: 0) else { return }
            index = end + 1
        }
        let stored = payload[index...]
        guard let text = compressed ? BoundedInflate.inflate(stored, limit: MetadataBlocks.maximumBlockSize) : Array(stored)
        else { return }
        if keyword == "XML:com.adobe.xmp" {
            if blocks.xmp == nil { blocks.xmp = text }
        } else {
            blocks.texts.append((keyword, String(decoding: text, as: UTF8.self)))
        }
    }
}

/// WebP: a RIFF file of little-endian sized chunks; `EXIF` and `XMP ` carry metadata.
enum RIFFChunks {
    static func blocks(in source: some ByteSource) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        walk(source, from: 12, limit: 10_000) { type, data, length in
            guard length <= source.size - data else { return false }
            if length <= MetadataBlocks.maximumBlockSize {
                if type == "EXIF", blocks.exif == nil, let payload = source.read(data, length) {
                    blocks.exif = MetadataBlocks.tiff(fromExifPayload: payload)
                } else if type == "XMP ", blocks.xmp == nil {
                    blocks.xmp = source.read(data, length)
                }
            }
            return true
        }
        return blocks
    }

    /// Walks RIFF-style chunks from `start` — a four-character type, a little-endian 32-bit
    /// length, the data, a pad byte after odd lengths — while a whole chunk header lies before
    /// `end` (nil: the end of the file), at most `limit` of them. `visit(type, data offset,
    /// declared length)` returns false to stop; what to do with a chunk that runs past `end`
    /// is the caller's. Shared by WebP's metadata chunks and a WAV's dates (`RIFFWaveDate`,
    /// top level and `LIST` subchunks). Costs one 8-byte read per chunk.
    static func walk(_ source: some ByteSource, from start: Int, to end: Int? = nil, limit: Int,
                     _ visit: (_ type: String, _ data: Int, _ length: Int) -> Bool) {
        let end = end ?? source.size
        var offset = start
        var chunks = 0
        while chunks < limit, offset + 8 <= end, let type = source.fourCC(offset), let length = source.uint32LE(offset + 4) {
            chunks += 1
            let data = offset + 8
            guard visit(type, data, length) else { return }
            offset = data + length + (length & 1)
        }
    }
}
