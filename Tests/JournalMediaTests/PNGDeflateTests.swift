import CStillEncode
import CVips
import CZlib
import Foundation
import Testing
@testable import JournalMediaImaging

/// The PNG fallback's own coder (`PNGDeflate.c`): the Paeth filter and the literal-and-run
/// deflate. Each stream is inflated by zlib, an independent decoder that rejects any malformed
/// block, code or length, and must give back exactly what went in.
@Suite struct PNGDeflateTests {
    /// zlib's raw inflate (no header, no checksum) of `stream`, expecting `count` bytes.
    static func inflateRaw(_ stream: [UInt8], count: Int) throws -> [UInt8] {
        var z = z_stream()
        try #require(inflateInit2_(&z, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { inflateEnd(&z) }
        var output = [UInt8](repeating: 0, count: count + 1)
        var input = stream
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                z.next_in = source.baseAddress
                z.avail_in = UInt32(source.count)
                z.next_out = target.baseAddress
                z.avail_out = UInt32(target.count)
                return inflate(&z, Z_FINISH)
            }
        }
        #expect(status == Z_STREAM_END, "zlib: \(status) \(z.msg.map { String(cString: $0) } ?? "")")
        #expect(z.avail_in == 0, "bytes left after the final block")
        return Array(output.prefix(Int(z.total_out)))
    }

    static func deflate(_ bytes: [UInt8]) throws -> [UInt8] {
        let bound = jm_deflate_runs_bound(bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let size = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { jm_deflate_runs(input.baseAddress, input.count, $0.baseAddress, bound) }
        }
        try #require(size >= 0)
        return Array(out.prefix(size))
    }

    /// The rows of an 8-bit image as packed bytes: (pixels, row bytes, bands).
    static func pixels(_ sample: String) throws -> ([UInt8], Int, Int) {
        let image = try TestImage(contentsOf: TestSupport.sample(sample)).image.materialised()
        let data = try #require(vips_image_get_data(image.pointer))
        let rowBytes = image.width * image.bands
        let bytes = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: rowBytes * image.height))
        return (bytes, rowBytes, image.bands)
    }

    static func paeth(_ pixels: [UInt8], rowBytes: Int, bpp: Int) -> [UInt8] {
        let height = pixels.count / rowBytes
        var out = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
        let status = pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { jm_png_filter_paeth(source.baseAddress, rowBytes, height, bpp, $0.baseAddress) }
        }
        #expect(status == 0)
        return out
    }

    /// The PNG specification's Paeth filter, written out byte by byte (section 9.4).
    static func referencePaeth(_ pixels: [UInt8], rowBytes: Int, bpp: Int) -> [UInt8] {
        let height = pixels.count / rowBytes
        var out: [UInt8] = []
        for y in 0..<height {
            out.append(4)
            for x in 0..<rowBytes {
                let a = x >= bpp ? Int(pixels[y * rowBytes + x - bpp]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + x]) : 0
                let c = x >= bpp && y > 0 ? Int(pixels[(y - 1) * rowBytes + x - bpp]) : 0
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                out.append(pixels[y * rowBytes + x] &- UInt8(predictor))
            }
        }
        return out
    }

    @Test(arguments: [("png/sticker.png", 4), ("png/grey-sticker.png", 2), ("orientation-8-srgb.jpg", 3), ("png/opaque-alpha.png", 4)])
    func thePaethFilterIsTheSpecificationsAndItsStreamInflates(sample: String, bands: Int) throws {
        let (pixels, rowBytes, found) = try Self.pixels(sample)
        #expect(found == bands)
        let filtered = Self.paeth(pixels, rowBytes: rowBytes, bpp: bands)
        let same = filtered == Self.referencePaeth(pixels, rowBytes: rowBytes, bpp: bands)
        #expect(same, "Paeth filter of \(sample)")
        let stream = try Self.deflate(filtered)
        let back = try Self.inflateRaw(stream, count: filtered.count)
        #expect(back == filtered, "\(sample): \(stream.count) bytes")
        #expect(stream.count < filtered.count, "\(sample) compressed to \(stream.count) of \(filtered.count)")
    }

    /// One grey pixel per row and a one-pixel image: the filter's left edge is every byte.
    @Test func narrowImagesFilterAsTheSpecificationSays() throws {
        for (bytes, rowBytes, bpp) in [([UInt8]([9, 200, 3, 3, 250, 0, 17]), 1, 1), ([7, 8, 9, 10], 4, 4), ([1, 2, 3, 4, 5, 6], 3, 3)] {
            #expect(Self.paeth(bytes, rowBytes: rowBytes, bpp: bpp) == Self.referencePaeth(bytes, rowBytes: rowBytes, bpp: bpp))
        }
    }

    /// Inputs that reach every path of the coder: runs of every length 1–300 (every length
    /// code and extra-bit count, runs split at 258), zeros across several 65,535-byte blocks,
    /// an already-compressed file (stored blocks), an empty input and one byte.
    @Test func everyKindOfInputInflatesToItself() throws {
        var runs: [UInt8] = []
        for length in 1...300 { runs += [UInt8](repeating: UInt8(length % 251), count: length) }
        let jpeg = Array(try Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg")))
        let zeros = [UInt8](repeating: 0, count: 200_000)
        var mixed: [UInt8] = []
        for block in 0..<6 { mixed += block % 2 == 0 ? Array(jpeg.prefix(70_000)) : [UInt8](repeating: 0, count: 70_001) }
        let cases: [(String, [UInt8])] = [("runs", runs), ("jpeg", jpeg), ("zeros", zeros), ("mixed", mixed), ("empty", []), ("one", [42])]
        for (name, bytes) in cases {
            let stream = try Self.deflate(bytes)
            #expect(try Self.inflateRaw(stream, count: bytes.count) == bytes, "\(name)")
            #expect(stream.count <= jm_deflate_runs_bound(bytes.count), "\(name)")
            switch name {
            case "zeros": #expect(stream.count < 1_000, "200,000 zeros took \(stream.count) bytes")
            case "jpeg": #expect(stream.count <= bytes.count + (bytes.count / 65_535 + 1) * 6, "stored, not expanded: \(stream.count)")
            case "runs": #expect(stream.count < bytes.count / 10, "runs took \(stream.count) of \(bytes.count)")
            default: break
            }
        }
    }

    @Test func aCapacityBelowTheBoundIsRefused() {
        var out = [UInt8](repeating: 0, count: 10)
        let input = [UInt8](repeating: 1, count: 100)
        let size = input.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { jm_deflate_runs(source.baseAddress, source.count, $0.baseAddress, 10) }
        }
        #expect(size == -1)
    }
}
