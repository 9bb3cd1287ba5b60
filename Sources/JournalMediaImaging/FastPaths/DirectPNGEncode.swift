import CLibdeflate
import CStillEncode
import CVips
import JournalMediaCore

/// PNG encode of an 8-bit image in memory on the calling thread: every row filtered with
/// PNG's Paeth filter, the filtered image deflated by the project's own coder
/// (`jm_deflate_runs`: literals and runs of the byte before, Huffman-coded per 64 KiB block),
/// Adler-32 and CRC-32 by libdeflate. The file has the chunks the linked libvips' `pngsave`
/// writes with `strip`: IHDR (8-bit grey, grey + alpha, RGB or RGBA, not interlaced), pHYs (the
/// image's resolution in pixels per metre), the IDATs, IEND; nothing else (no profile, no text).
///
/// Runs for the PNG renditions that name no `compression` and have no byte limit (the
/// fallback of a transparent source) whose image `DirectStillEncode.pixels(of:)` accepts;
/// the others go to libvips' `pngsave` as before. A photograph's filtered rows repeat almost
/// no strings, so skipping the match search of a general deflate costs nothing in size while
/// saving most of its time; what such an image does repeat, a transparent background, the
/// Paeth filter turns into runs of zeros, which the coder takes. Costs one filtered copy of
/// the image (rows + 1 byte each), the compressed output and 128 KiB of tokens; the guard is
/// checked before and after the deflate (one pass over the filtered bytes).
enum DirectPNGEncode {
    /// Bytes of compressed data per IDAT chunk (libpng writes 8 KiB; any size is valid).
    static let idatSize = 1 << 16

    /// The encoded file, or nil when `image` is not one this encoder takes.
    static func encode(_ image: VipsImageHandle, stop current: DecodeGuard? = nil) throws(VipsError) -> [UInt8]? {
        guard image.width <= Int(Int32.max), image.height <= Int(Int32.max),
              let pixels = DirectStillEncode.pixels(of: image) else { return nil }
        try VipsInterrupt.check(current)
        let width = image.width, height = image.height, rowBytes = pixels.stride
        let filteredCount = (rowBytes + 1) * height
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredCount)
        defer { filtered.deallocate() }
        guard jm_png_filter_paeth(pixels.data, rowBytes, height, pixels.bands, filtered) == 0 else {
            throw VipsError(message: "pngsave: out of memory filtering the rows")
        }
        // zlib's stream (RFC 1950): a two-byte header (deflate, 32 KiB window, fastest
        // level), the raw deflate and the Adler-32 of the filtered bytes, big-endian.
        let bound = jm_deflate_runs_bound(filteredCount)
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: bound + 6)
        defer { compressed.deallocate() }
        compressed[0] = 0x78
        compressed[1] = 0x01
        let deflated = jm_deflate_runs(filtered, filteredCount, compressed + 2, bound)
        guard deflated > 0 else { throw VipsError(message: "pngsave: out of memory compressing the pixels") }
        let adler = libdeflate_adler32(1, filtered, filteredCount)
        let size = 2 + deflated + 4
        for k in 0..<4 { compressed[2 + deflated + k] = UInt8(truncatingIfNeeded: adler >> (24 - 8 * k)) }
        try VipsInterrupt.check(current)

        let colourType: UInt8 = switch pixels.bands {
        case 1: 0
        case 2: 4
        case 3: 2
        default: 6
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file.reserveCapacity(size + size / idatSize * 12 + 100)
        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, colourType, 0, 0, 0]
        appendChunk("IHDR", header, to: &file)
        // libvips writes the resolution (pixels per millimetre) as pixels per metre, rounded.
        let xres = image.pointer.pointee.Xres, yres = image.pointer.pointee.Yres
        var physical: [UInt8] = []
        appendBigEndian(pixelsPerMetre(xres), to: &physical)
        appendBigEndian(pixelsPerMetre(yres), to: &physical)
        physical.append(1)
        appendChunk("pHYs", physical, to: &file)
        var offset = 0
        repeat {
            let count = min(idatSize, size - offset)
            appendChunk("IDAT", UnsafeBufferPointer(start: compressed + offset, count: count), to: &file)
            offset += count
        } while offset < size
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// libvips' `VIPS_RINT(res * 1000)` for pHYs, kept in range.
    static func pixelsPerMetre(_ perMillimetre: Double) -> UInt32 {
        let value = (perMillimetre * 1000).rounded()
        guard value.isFinite, value > 0 else { return 0 }
        return value >= Double(UInt32.max) ? UInt32.max : UInt32(value)
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// Appends one chunk: length, type, data, CRC-32 of type and data.
    static func appendChunk<Bytes: Collection<UInt8>>(_ type: String, _ data: Bytes, to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeBytes = Array(type.utf8)
        file += typeBytes
        file += data
        var crc = typeBytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        let start = file.count - data.count
        crc = file.withUnsafeBytes { libdeflate_crc32(crc, $0.baseAddress.map { $0 + start }, data.count) }
        appendBigEndian(crc, to: &file)
    }
}
