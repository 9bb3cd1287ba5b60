import CVips

/// Writes a card's 8-bit RGB pixels as a PNG (colour type 2, no metadata chunk), with a
/// deflate coder made for what cards are: large runs of one colour, anti-aliased text and a
/// few pictures.
///
/// Every row gets the PNG "sub" filter, so a run of one colour becomes a run of zeros.
/// The LZ77 step looks at two distances only: 1 (the byte before: runs) and one row (the
/// pixel above: repeated rows, vertical strokes); everything else is a literal. Tokens are
/// Huffman-coded in dynamic blocks of at most 64 Ki tokens. The file is a plain PNG that
/// any decoder reads; it is a little larger than zlib level 1 makes of the same card
/// (about 80 KB instead of 70 KB for a 1200×1500 card) and several times cheaper to make,
/// since zlib's general match search dominates a card's PNG encode (Benchmarks/RESULTS.md).
///
/// Runs on the card's thread; costs one pass over the pixels (filter, Adler-32, runs
/// compared eight bytes at a time) plus the Huffman coding of the tokens, and holds two
/// filtered rows and one block of tokens besides the output.
package enum CardPNGEncoder {
    /// The PNG file of a drawn card (8-bit RGB, as `CardRenderer` makes them); nil for any
    /// other image, which the general rendition path then encodes.
    package static func encode(_ card: DecodedImage) throws(VipsError) -> [UInt8]? {
        let image = card.image
        guard image.format == VIPS_FORMAT_UCHAR, image.bands == 3 else { return nil }
        let memory = try image.materialised()
        guard let data = vips_image_get_data(memory.pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("reading the card's pixels"))
        }
        return withExtendedLifetime(memory) {
            encode(data.assumingMemoryBound(to: UInt8.self), width: image.width, height: image.height)
        }
    }

    /// The PNG file for `width`×`height` packed RGB pixels at `pixels`.
    package static func encode(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        appendBigEndian(&header, UInt32(width))
        appendBigEndian(&header, UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        appendChunk(&out, type: "IHDR", data: header)
        appendChunk(&out, type: "IDAT", data: zlibStream(pixels, width: width, height: height))
        appendChunk(&out, type: "IEND", data: [])
        return out
    }

    // MARK: zlib stream

    /// One filtered row is `1 + width × 3` bytes; matches never cross a row's end.
    static func zlibStream(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int) -> [UInt8] {
        let stride = width * 3 + 1
        var writer = DeflateBlockWriter(rowDistance: stride)
        writer.bits.bytes.reserveCapacity(width * height / 8 + 1024)
        writer.bits.bytes += [0x78, 0x01]  // deflate, 32 KiB window, no dictionary
        var adler = Adler32()
        // Previous filtered row, then the current one, contiguous: distance `stride` back
        // from the current row is the same byte of the row above.
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * stride)
        defer { rows.deallocate() }
        rows.initialize(repeating: 0, count: 2 * stride)
        let current = rows + stride
        let rowBytes = width * 3
        for y in 0..<height {
            if y > 0 { rows.update(from: current, count: stride) }
            let source = pixels + y * rowBytes
            if y > 0 && equalBytes(source, source - rowBytes, count: rowBytes) {
                // The row repeats the one above: "up" makes it all zeros, one run.
                current[0] = 2
                (current + 1).update(repeating: 0, count: rowBytes)
                adler.update(current, count: 1)
                adler.updateZeros(count: rowBytes)
            } else {
                current[0] = 1  // sub
                current[1] = source[0]; current[2] = source[1]; current[3] = source[2]
                if width > 1 {
                    for i in 3..<rowBytes { current[i + 1] = source[i] &- source[i - 3] }
                }
                adler.update(current, count: stride)
            }
            writer.tokenise(row: current, count: stride, hasRowAbove: y > 0)
        }
        writer.finish()
        var stream = writer.bits.bytes
        appendBigEndian(&stream, adler.value)
        return stream
    }

    /// Whether `count` bytes at `a` and `b` are equal, compared eight at a time.
    static func equalBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let x = UnsafeRawPointer(a), y = UnsafeRawPointer(b)
        var offset = 0
        while offset + 8 <= count {
            if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if a[offset] != b[offset] { return false }
            offset += 1
        }
        return true
    }

    // MARK: PNG chunks

    static func appendBigEndian(_ bytes: inout [UInt8], _ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func appendChunk(_ out: inout [UInt8], type: String, data: [UInt8]) {
        appendBigEndian(&out, UInt32(data.count))
        let start = out.count
        out += Array(type.utf8)
        out += data
        var crc = CRC32()
        out.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            crc.update(base + start, count: buffer.count - start)
        }
        appendBigEndian(&out, crc.value)
    }
}

/// zlib's checksum of the uncompressed stream (RFC 1950), summed a block at a time: over n
/// bytes, a grows by Σx and b by n·a + n·Σx − Σi·x, two 32-bit sums the compiler
/// vectorises (n ≤ 4096 keeps them from overflowing), reduced modulo 65521 per block. A
/// run of zeros only moves b, by n·a.
struct Adler32 {
    private var a: UInt64 = 1
    private var b: UInt64 = 0

    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var offset = 0
        while offset < count {
            let n = min(4096, count - offset)
            var sum: UInt32 = 0, indexed: UInt32 = 0
            let block = bytes + offset
            for i in 0..<n {
                let x = UInt32(block[i])
                sum &+= x
                indexed &+= UInt32(truncatingIfNeeded: i) &* x
            }
            let weighted = UInt64(n) * UInt64(sum) - UInt64(indexed)
            b = (b + UInt64(n) * a + weighted) % 65521
            a = (a + UInt64(sum)) % 65521
            offset += n
        }
    }

    mutating func updateZeros(count: Int) {
        b = (b + UInt64(count % 65521) * a) % 65521
    }

    var value: UInt32 { UInt32(b << 16 | a) }
}

/// The PNG chunk checksum (CRC-32, polynomial 0xEDB88320), table-driven.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
    private var crc: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        Self.table.withUnsafeBufferPointer { table in
            for i in 0..<count { crc = table[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8) }
        }
    }

    var value: UInt32 { crc ^ 0xFFFF_FFFF }
}

/// Bits packed least-significant first, as deflate wants them.
struct DeflateBits {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    mutating func write(_ value: UInt32, _ length: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += length
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }
}

/// Turns filtered rows into deflate tokens (literals; matches at distance 1 or one row) and
/// writes them as dynamic-Huffman blocks.
struct DeflateBlockWriter {
    /// A literal byte (< 256), or a match: 1 << 31 | distance << 9 | length.
    private var tokens: [UInt32] = []
    private var literalFrequencies = [Int](repeating: 0, count: 286)
    private var distanceFrequencies = [Int](repeating: 0, count: 30)
    var bits = DeflateBits()
    let rowDistance: Int
    static let blockTokens = 1 << 16

    init(rowDistance: Int) {
        self.rowDistance = rowDistance
        tokens.reserveCapacity(Self.blockTokens + 300)
    }

    // RFC 1951, 3.2.5: length codes 257…285 and distance codes 0…29, their bases and extra bits.
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                    115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                      1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                       12, 12, 13, 13]
    /// Length code index (0…28) for each length 0…258.
    static let lengthCode: [Int] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        return (lengthBase.lastIndex { $0 <= length }) ?? 0
    }

    static func distanceCode(_ distance: Int) -> Int {
        (distanceBase.lastIndex { $0 <= distance }) ?? 0
    }

    /// How many bytes from `p` on equal the bytes `distance` before them, up to `limit`.
    @inline(__always)
    private static func run(_ row: UnsafePointer<UInt8>, _ p: Int, distance: Int, limit: Int) -> Int {
        var n = 0
        let raw = UnsafeRawPointer(row)
        while n + 8 <= limit {
            let a = raw.loadUnaligned(fromByteOffset: p + n, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: p + n - distance, as: UInt64.self)
            if a != b { return n + (a ^ b).trailingZeroBitCount / 8 }
            n += 8
        }
        while n < limit && row[p + n] == row[p + n - distance] { n += 1 }
        return n
    }

    mutating func tokenise(row: UnsafePointer<UInt8>, count: Int, hasRowAbove: Bool) {
        let rowCode = Self.distanceCode(rowDistance)
        var p = 0
        while p < count {
            let limit = count - p
            let byRun = p > 0 ? Self.run(row, p, distance: 1, limit: limit) : 0
            let byRow = hasRowAbove ? Self.run(row, p, distance: rowDistance, limit: limit) : 0
            // A run costs no extra bits; a row match pays ~12 for its distance.
            let (length, distance, code) = byRun >= 3 && byRun + 4 >= byRow ? (byRun, 1, 0)
                : byRow >= 6 ? (byRow, rowDistance, rowCode) : (0, 0, 0)
            if length == 0 {
                literal(row[p])
                p += 1
                continue
            }
            var left = length
            while left >= 3 {
                let piece = left > 258 && left - 258 < 3 ? left - 3 : min(258, left)
                tokens.append(1 << 31 | UInt32(distance) << 9 | UInt32(piece))
                literalFrequencies[257 + Self.lengthCode[piece]] += 1
                distanceFrequencies[code] += 1
                left -= piece
            }
            p += length - left
            if tokens.count >= Self.blockTokens { writeBlock(final: false) }
        }
        if tokens.count >= Self.blockTokens { writeBlock(final: false) }
    }

    @inline(__always)
    private mutating func literal(_ byte: UInt8) {
        tokens.append(UInt32(byte))
        literalFrequencies[Int(byte)] += 1
    }

    mutating func finish() {
        writeBlock(final: true)
        bits.flush()
    }

    /// One dynamic-Huffman block of the tokens gathered (RFC 1951, 3.2.7); code lengths are
    /// sent without run-length codes.
    private mutating func writeBlock(final: Bool) {
        literalFrequencies[256] += 1  // end of block
        let literalLengths = HuffmanLengths.make(literalFrequencies, limit: 15)
        let distanceLengths = HuffmanLengths.make(distanceFrequencies, limit: 15)
        let literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let sent = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
        var lengthFrequencies = [Int](repeating: 0, count: 19)
        for length in sent { lengthFrequencies[length] += 1 }
        let lengthLengths = HuffmanLengths.make(lengthFrequencies, limit: 7)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengthCount = 19
        while lengthCount > 4 && lengthLengths[order[lengthCount - 1]] == 0 { lengthCount -= 1 }

        bits.write(final ? 1 : 0, 1)
        bits.write(2, 2)  // dynamic Huffman
        bits.write(UInt32(literalCount - 257), 5)
        bits.write(UInt32(distanceCount - 1), 5)
        bits.write(UInt32(lengthCount - 4), 4)
        for index in 0..<lengthCount { bits.write(UInt32(lengthLengths[order[index]]), 3) }
        let lengthCodes = HuffmanLengths.codes(lengthLengths)
        for length in sent { bits.write(lengthCodes[length], lengthLengths[length]) }

        let literalCodes = HuffmanLengths.codes(literalLengths)
        let distanceCodes = HuffmanLengths.codes(distanceLengths)
        for token in tokens {
            if token & (1 << 31) == 0 {
                bits.write(literalCodes[Int(token)], literalLengths[Int(token)])
                continue
            }
            let length = Int(token & 0x1FF), distance = Int(token >> 9 & 0x3FFFFF)
            let lengthIndex = Self.lengthCode[length]
            bits.write(literalCodes[257 + lengthIndex], literalLengths[257 + lengthIndex])
            if Self.lengthExtra[lengthIndex] > 0 {
                bits.write(UInt32(length - Self.lengthBase[lengthIndex]), Self.lengthExtra[lengthIndex])
            }
            let distanceIndex = distance == 1 ? 0 : Self.distanceCode(distance)
            bits.write(distanceCodes[distanceIndex], distanceLengths[distanceIndex])
            if Self.distanceExtra[distanceIndex] > 0 {
                bits.write(UInt32(distance - Self.distanceBase[distanceIndex]), Self.distanceExtra[distanceIndex])
            }
        }
        bits.write(literalCodes[256], literalLengths[256])
        tokens.removeAll(keepingCapacity: true)
        for i in literalFrequencies.indices { literalFrequencies[i] = 0 }
        for i in distanceFrequencies.indices { distanceFrequencies[i] = 0 }
    }
}

/// Huffman code lengths limited to a maximum, and the canonical codes for them.
enum HuffmanLengths {
    /// Code lengths for `frequencies`. At least two symbols get a code (inflate wants a
    /// complete code); when the longest code would exceed `limit`, the frequencies are
    /// halved (rare symbols kept at 1) and the tree built again.
    static func make(_ frequencies: [Int], limit: Int) -> [Int] {
        var weights = frequencies
        var used = weights.indices.filter { weights[$0] > 0 }
        for index in weights.indices where used.count < 2 && weights[index] == 0 {
            weights[index] = 1
            used.append(index)
        }
        while true {
            let lengths = treeLengths(weights, used: used)
            if (lengths.max() ?? 0) <= limit { return lengths }
            for index in used { weights[index] = max(1, weights[index] / 2) }
        }
    }

    /// Depths of the leaves of the Huffman tree for the used symbols (ties broken by symbol
    /// order, so the result is deterministic).
    private static func treeLengths(_ weights: [Int], used: [Int]) -> [Int] {
        // Nodes: leaves first (one per used symbol), then merged nodes; parent links give depths.
        var weight = used.map { weights[$0] }
        var parent = [Int](repeating: -1, count: used.count)
        let leaves = used.indices.sorted { weight[$0] != weight[$1] ? weight[$0] < weight[$1] : $0 < $1 }
        var leafNext = 0
        var merged: [Int] = []
        var mergedNext = 0
        func takeSmallest() -> Int {
            if leafNext < leaves.count && (mergedNext >= merged.count || weight[leaves[leafNext]] <= weight[merged[mergedNext]]) {
                leafNext += 1
                return leaves[leafNext - 1]
            }
            mergedNext += 1
            return merged[mergedNext - 1]
        }
        for _ in 0..<(used.count - 1) {
            let a = takeSmallest(), b = takeSmallest()
            let node = weight.count
            weight.append(weight[a] + weight[b])
            parent.append(-1)
            parent[a] = node
            parent[b] = node
            merged.append(node)
        }
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var lengths = [Int](repeating: 0, count: weights.count)
        for (leaf, symbol) in used.enumerated() { lengths[symbol] = depth[leaf] }
        return lengths
    }

    /// Canonical codes (RFC 1951, 3.2.2), bit-reversed for least-significant-first writing.
    static func codes(_ lengths: [Int]) -> [UInt32] {
        let maxLength = lengths.max() ?? 0
        var count = [Int](repeating: 0, count: maxLength + 1)
        for length in lengths where length > 0 { count[length] += 1 }
        var next = [Int](repeating: 0, count: maxLength + 2)
        var code = 0
        if maxLength >= 1 {
            for bits in 1...maxLength {
                code = (code + count[bits - 1]) << 1
                next[bits] = code
            }
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[length]
            next[length] += 1
            var reversed: UInt32 = 0
            for bit in 0..<length where value >> bit & 1 != 0 { reversed |= 1 << UInt32(length - 1 - bit) }
            return reversed
        }
    }
}
