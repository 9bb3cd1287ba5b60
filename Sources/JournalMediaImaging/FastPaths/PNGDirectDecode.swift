import CLibdeflate
import CResampleKernel
import CVips
import Foundation
import JournalMediaCore

/// The decode of a whole 8-bit-or-less PNG into memory on the calling thread, without libpng:
/// the chunks walked and every CRC checked, the IDAT data inflated by libdeflate in one call
/// into a buffer of exactly the size the header implies, the rows unfiltered (CResampleKernel's
/// `jm_png_unfilter_row`) and expanded as libvips' `pngload` (through libpng) expands
/// them: palette to RGB, grey of 1, 2 or 4 bits to 8 (scaled: 1 → 255, 3 → 255, 15 → 255), a
/// `tRNS` chunk to an alpha channel; Adam7 passes put in place. An alpha channel that is 255
/// everywhere is dropped while the pixels are still in cache, and said so (`hasRealTransparency`).
///
/// Takes only files it can decode exactly as libpng would and declines (nil) everything else,
/// which the caller leaves to libvips: 16-bit samples, any CRC mismatch, a zlib stream that is
/// short, long, or followed by other bytes, an unknown critical chunk, chunks out of order,
/// palette indices past the palette, `tRNS` out of range or on a type with alpha. So a broken
/// file gets libvips' own error, as before. The inflated size is fixed by the header before any
/// byte is inflated, so a compression bomb cannot grow the buffer.
///
/// Runs inside `PNGResampledDecode`; costs the inflate (libdeflate, in one call), one unfilter
/// pass, and two buffers: the filtered rows
/// (height × (row bytes + 1)) and the pixels (width × height × bands), the first freed on return.
enum PNGDirectDecode {
    /// The pixels, stored orientation, tagged sRGB (or B_W for grey) with the file's `pHYs`
    /// resolution as libvips reads it.
    struct Picture {
        let image: VipsImageHandle
        /// Some pixel has alpha below 255 (an opaque alpha channel was dropped).
        let hasRealTransparency: Bool
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, maxPixels: Int,
                       stop: DecodeGuard? = nil) throws(VipsError) -> Picture? {
        guard let layout = PNGChunkLayout(bytes), layout.bitDepth <= 8,
              layout.width * layout.height <= maxPixels, let plan = PNGRowExpansion(layout, bytes: bytes) else { return nil }
        try VipsInterrupt.check(stop)
        let filteredCount = plan.filteredByteCount
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, filteredCount))
        defer { filtered.deallocate() }
        guard inflate(layout, bytes: bytes, into: filtered, count: filteredCount) else { return nil }
        try VipsInterrupt.check(stop)

        let width = layout.width, height = layout.height, bands = plan.outputBands
        guard let pixels = malloc(width * height * bands)?.assumingMemoryBound(to: UInt8.self) else {
            throw VipsError(message: "pngload: cannot allocate \(width)×\(height)×\(bands) pixels")
        }
        guard let alphaAnd = plan.unfilter(filtered, into: pixels) else {
            free(pixels)
            return nil
        }
        var kept = bands
        if (bands == 2 || bands == 4) && alphaAnd == 255 {
            // Opaque everywhere: the alpha channel carries nothing; packed away in place.
            jm_drop_last_band(pixels, width * height, bands)
            kept -= 1
        }
        let image = try VipsImageHandle.adopting(
            pixels, width: width, height: height, bands: kept,
            interpretation: kept <= 2 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB,
            resolution: layout.resolution)
        try VipsInterrupt.check(stop)
        return Picture(image: image, hasRealTransparency: kept == 2 || kept == 4)
    }

    /// The IDAT data (one chunk's in place, several concatenated) inflated into exactly `count`
    /// bytes; false when the stream is not exactly that (short, long, trailing bytes, bad Adler-32).
    private static func inflate(_ layout: PNGChunkLayout, bytes: UnsafeRawBufferPointer,
                                into out: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard let base = bytes.baseAddress, let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        let total = layout.dataChunks.reduce(0) { $0 + $1.count }
        var consumed = 0
        let result: libdeflate_result
        if layout.dataChunks.count == 1, let only = layout.dataChunks.first {
            result = libdeflate_zlib_decompress_ex(decompressor, base + only.lowerBound, only.count, out, count,
                                                   &consumed, nil)
        } else {
            let joined = UnsafeMutableRawPointer.allocate(byteCount: max(1, total), alignment: 16)
            defer { joined.deallocate() }
            var offset = 0
            for chunk in layout.dataChunks {
                (joined + offset).copyMemory(from: base + chunk.lowerBound, byteCount: chunk.count)
                offset += chunk.count
            }
            result = libdeflate_zlib_decompress_ex(decompressor, joined, total, out, count, &consumed, nil)
        }
        return result == LIBDEFLATE_SUCCESS && consumed == total
    }
}

/// A PNG's chunks as the decode needs them, read only if every chunk's CRC matches and the
/// order is one libpng reads without complaint; nil otherwise.
struct PNGChunkLayout {
    var width = 0, height = 0, bitDepth = 0, colourType = 0
    var interlaced = false
    /// PLTE's entries (3 bytes each), and tRNS's bytes, as ranges of the file.
    var palette: Range<Int>?
    var transparency: Range<Int>?
    /// Pixels per millimetre as libvips reads `pHYs` (per metre / 1000; an unknown unit
    /// taken as is; 2834 per metre, about 72 dpi, when absent).
    var resolution: (x: Double, y: Double) = (2834.0 / 1000, 2834.0 / 1000)
    var dataChunks: [Range<Int>] = []

    init?(_ bytes: UnsafeRawBufferPointer) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8 + 25, let base = bytes.baseAddress, bytes.prefix(8).elementsEqual(signature) else { return nil }
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        var offset = 8, sawHeader = false, sawEnd = false, dataEnded = false
        while offset + 12 <= bytes.count {
            let length = word(offset)
            guard length <= Int(Int32.max), offset + 12 + length <= bytes.count else { return nil }
            let type = (bytes[offset + 4], bytes[offset + 5], bytes[offset + 6], bytes[offset + 7])
            let data = (offset + 8)..<(offset + 8 + length)
            let crc = libdeflate_crc32(0, base + offset + 4, 4 + length)
            guard Int(crc) == word(data.upperBound) else { return nil }
            let name = String(decoding: [type.0, type.1, type.2, type.3], as: UTF8.self)
            guard sawHeader || name == "IHDR" else { return nil }
            if !dataChunks.isEmpty && name != "IDAT" { dataEnded = true }
            switch name {
            case "IHDR":
                guard !sawHeader, length == 13 else { return nil }
                sawHeader = true
                width = word(data.lowerBound)
                height = word(data.lowerBound + 4)
                bitDepth = Int(bytes[data.lowerBound + 8])
                colourType = Int(bytes[data.lowerBound + 9])
                let validDepths: [Int: Set<Int>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
                guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
                      validDepths[colourType]?.contains(bitDepth) == true,
                      bytes[data.lowerBound + 10] == 0, bytes[data.lowerBound + 11] == 0,
                      bytes[data.lowerBound + 12] <= 1 else { return nil }
                interlaced = bytes[data.lowerBound + 12] == 1
            case "PLTE":
                // A suggested palette of an RGB image is allowed and unused; grey takes none.
                guard palette == nil, transparency == nil, dataChunks.isEmpty, colourType != 0, colourType != 4,
                      length > 0, length % 3 == 0, length / 3 <= 256 else { return nil }
                if colourType == 3 {
                    guard length / 3 <= 1 << bitDepth else { return nil }
                    palette = data
                }
            case "tRNS":
                guard transparency == nil, dataChunks.isEmpty else { return nil }
                switch colourType {
                case 0:
                    guard length == 2, Int(bytes[data.lowerBound]) << 8 | Int(bytes[data.lowerBound + 1]) < 1 << bitDepth
                    else { return nil }
                case 2:
                    guard length == 6 else { return nil }
                    for channel in 0..<3 where (Int(bytes[data.lowerBound + 2 * channel]) << 8
                                                | Int(bytes[data.lowerBound + 2 * channel + 1])) >= 1 << bitDepth {
                        return nil
                    }
                case 3: guard let palette, length <= palette.count / 3 else { return nil }
                default: return nil
                }
                transparency = data
            case "pHYs":
                guard length == 9, dataChunks.isEmpty else { return nil }
                let x = Double(word(data.lowerBound)), y = Double(word(data.lowerBound + 4))
                resolution = bytes[data.lowerBound + 8] == 1 ? (x / 1000, y / 1000) : (x, y)
            case "IDAT":
                guard !dataEnded, colourType != 3 || palette != nil else { return nil }
                dataChunks.append(data)
            case "IEND":
                sawEnd = true
            default:
                // An unknown critical chunk (upper-case first letter) stops libpng.
                guard type.0 & 0x20 != 0 else { return nil }
            }
            offset = data.upperBound + 4
            if sawEnd { break }
        }
        guard sawEnd, !dataChunks.isEmpty else { return nil }
    }
}
