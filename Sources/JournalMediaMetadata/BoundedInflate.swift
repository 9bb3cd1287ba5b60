import CZlib

/// zlib-format (RFC 1950) decompression with a ceiling on the output, for compressed PNG
/// text chunks (`iTXt` with the compression flag set, `zTXt`).
///
/// Runs when the PNG walk meets such a chunk; costs one zlib inflate of the chunk, stopping
/// as soon as the output would pass `limit` (a decompression bomb yields nil, not memory).
enum BoundedInflate {
    /// The decompressed bytes, or nil when the stream is malformed, truncated, or longer
    /// than `limit` bytes.
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
        guard !input.isEmpty, limit > 0 else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(limit + 1, 64 * 1024))
        var input = Array(input)
        let finished: Bool = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                guard output.count + produced <= limit else { return false }
                output += chunk[..<produced]
                switch status {
                case Z_STREAM_END: return true
                case Z_OK where produced > 0 || stream.avail_in > 0: continue
                default: return false  // Z_BUF_ERROR with no progress (truncated), data or memory errors
                }
            }
        }
        return finished ? output : nil
    }
}
