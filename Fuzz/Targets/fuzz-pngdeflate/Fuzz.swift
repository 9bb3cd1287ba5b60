import CPNGDeflate
import CZlib
import FuzzSupport

/// libFuzzer entry: the PNG fallback's own coder (`PNGDeflate.c`) on arbitrary pixels.
@_cdecl("fuzz_pngdeflate_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input: its first byte chooses the bytes per pixel (1–8) and the row length, the rest
/// are the pixels. They are Paeth-filtered, deflated, and inflated again by zlib, which must
/// accept the stream and give back the filtered bytes exactly; the filter is checked against
/// the PNG specification's predictor written out here. A mismatch stops the run. Inputs are cut
/// at 256 KiB: enough for several 65,535-byte deflate blocks, small enough for many runs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer?.assumingMemoryBound(to: UInt8.self), count >= 1 else { return 0 }
    let count = min(count, 1 << 18)
    let bpp = Int(data[0] & 7) + 1
    let rowBytes = max(1, (Int(data[0] >> 3) + 1) * bpp)
    let pixels = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
    let height = pixels.count / rowBytes
    guard height > 0 else { return 0 }
    var filtered = [UInt8](repeating: 0, count: (rowBytes + 1) * height)
    let status = pixels.withUnsafeBufferPointer { source in
        filtered.withUnsafeMutableBufferPointer { jm_png_filter_paeth(source.baseAddress, rowBytes, height, bpp, $0.baseAddress) }
    }
    precondition(status == 0)
    for y in 0..<height {
        precondition(filtered[y * (rowBytes + 1)] == 4)
        for x in 0..<rowBytes {
            let a = x >= bpp ? Int(pixels[y * rowBytes + x - bpp]) : 0
            let b = y > 0 ? Int(pixels[(y - 1) * rowBytes + x]) : 0
            let c = x >= bpp && y > 0 ? Int(pixels[(y - 1) * rowBytes + x - bpp]) : 0
            let p = a + b - c
            let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
            precondition(filtered[y * (rowBytes + 1) + 1 + x] == pixels[y * rowBytes + x] &- UInt8(predictor), "Paeth filter")
        }
    }
    // The deflate of the raw input too (runs of any byte, not only what a filter leaves).
    for bytes in [filtered, pixels] {
        let bound = jm_deflate_runs_bound(bytes.count)
        var stream = [UInt8](repeating: 0, count: bound)
        let size = bytes.withUnsafeBufferPointer { input in
            stream.withUnsafeMutableBufferPointer { jm_deflate_runs(input.baseAddress, input.count, $0.baseAddress, bound) }
        }
        precondition(size >= 0 && size <= bound)
        var z = z_stream()
        precondition(inflateInit2_(&z, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        var back = [UInt8](repeating: 0, count: bytes.count + 1)
        let result = stream.withUnsafeMutableBufferPointer { source in
            back.withUnsafeMutableBufferPointer { target in
                z.next_in = source.baseAddress
                z.avail_in = UInt32(size)
                z.next_out = target.baseAddress
                z.avail_out = UInt32(target.count)
                return inflate(&z, Z_FINISH)
            }
        }
        let produced = Int(z.total_out)
        inflateEnd(&z)
        precondition(result == Z_STREAM_END && produced == bytes.count && Array(back.prefix(produced)) == bytes,
                     "deflate round trip")
    }
    return 0
}
