import CVips
import JournalMediaCore
import Foundation

/// Writes a card's 8-bit RGB pixels as a PNG (colour type 2, no metadata chunk), with a
/// deflate coder made for what cards are: large runs of one colour, rows that repeat the
/// row above, anti-aliased text and a few pictures.
///
/// Every row gets the PNG "sub" filter, so a run of one colour becomes a run of zeros. A
/// row equal to the row above (found with one `memcmp`) is one match of a row's length,
/// emitted without looking at its bytes. Otherwise the LZ77 step looks at two distances
/// only: 1 (the byte before: runs, found eight bytes at a time against the repeated byte)
/// and one row (the pixel above: vertical strokes), the latter only where the run is short;
/// everything else is a literal. The Adler-32 follows the tokens (a run moves it in one
/// step). Tokens are Huffman-coded in dynamic blocks of at most 64 Ki tokens, written
/// 32 bits at a time. The file is a plain PNG that any decoder reads; it is a little larger
/// than zlib level 1 makes of the same card and several times cheaper to make, since
/// zlib's general match search dominates a card's PNG encode.
///
/// Runs on the card's thread; costs one `memcmp` per row, plus for the rows that differ
/// from the row above one pass (filter, runs compared eight bytes at a time) and the
/// Huffman coding of their tokens. Holds two filtered rows and one block of tokens besides
/// the output.
package enum CardPNGEncoder {
    /// The PNG file of a drawn card (8-bit RGB, as `CardRenderer` makes them); nil for any
    /// other image, which the general rendition path then encodes.
    package static func encode(_ card: DecodedImage, stop: DecodeGuard? = nil) throws(VipsError) -> [UInt8]? {
        let image = card.image
        guard image.format == VIPS_FORMAT_UCHAR, image.bands == 3 else { return nil }
        let memory = try image.materialised(stop: stop)
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
        var writer = DeflateBlockWriter(rowDistance: stride, capacity: width * height / 8 + 1024)
        defer { writer.bits.deallocate() }
        writer.bits.append(0x78, 0x01)  // deflate, 32 KiB window, no dictionary
        var adler = Adler32()
        // Previous filtered row, then the current one, contiguous: distance `stride` back
        // from the current row is the same byte of the row above.
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * stride)
        defer { rows.deallocate() }
        rows.initialize(repeating: 0, count: 2 * stride)
        let current = rows + stride
        let rowBytes = width * 3
        // The Adler-32 sums of the current filtered row, once a row repeats.
        var rowSums: (sum: UInt64, weighted: UInt64)? = nil
        // Deflate reaches 32 KiB back: wider rows (over 10,922 px) use runs only.
        let rowsReachable = stride <= 32768
        for y in 0..<height {
            let source = pixels + y * rowBytes
            if y > 0 && rowsReachable && memcmp(source, source - rowBytes, rowBytes) == 0 {
                // The row repeats the one above: filtered alike, it repeats the filtered row
                // above, one match of the row's length.
                let sums = rowSums ?? Adler32.sums(current, count: stride)
                rowSums = sums
                adler.repeatRow(count: stride, sum: sums.sum, weighted: sums.weighted)
                writer.repeatRow(count: stride)
                continue
            }
            rowSums = nil
            if y > 0 { rows.update(from: current, count: stride) }
            current[0] = 1  // sub
            current[1] = source[0]; current[2] = source[1]; current[3] = source[2]
            if width > 1 {
                for i in 3..<rowBytes { current[i + 1] = source[i] &- source[i - 3] }
            }
            writer.tokenise(row: current, count: stride, hasRowAbove: y > 0 && rowsReachable, adler: &adler)
        }
        writer.finish()
        writer.bits.appendBigEndian(adler.value)
        return writer.bits.bytes
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

/// zlib's checksum of the uncompressed stream (RFC 1950), kept as two unreduced 64-bit sums
/// that the encoder reduces modulo 65521 once per row (a row is far too short to overflow
/// them). A byte adds x to a and the new a to b; a run of n bytes v moves them in one step
/// (a by n·v, b by n·a + v·n(n+1)/2); a stretch of bytes is summed a block at a time: a
/// grows by Σx and b by n·a + n·Σx − Σi·x, two 32-bit sums the compiler vectorises (n ≤
/// 4096 keeps them from overflowing).
struct Adler32 {
    private var a: UInt64 = 1
    private var b: UInt64 = 0
    static let modulus: UInt64 = 65521

    @inline(__always)
    mutating func add(_ byte: UInt8) {
        a &+= UInt64(byte)
        b &+= a
    }

    @inline(__always)
    mutating func addRun(_ value: UInt8, count: Int) {
        let n = UInt64(count), v = UInt64(value)
        b &+= n &* a &+ v &* (n &* (n &+ 1) / 2)
        a &+= n &* v
    }

    mutating func add(_ bytes: UnsafePointer<UInt8>, count: Int) {
        let (sum, weighted) = Self.sums(bytes, count: count)
        b &+= UInt64(count) &* a &+ UInt64(count) &* sum &- weighted
        a &+= sum
    }

    /// Σx and Σi·x (i from 0) over `count` bytes, summed in blocks of 4096.
    static func sums(_ bytes: UnsafePointer<UInt8>, count: Int) -> (sum: UInt64, weighted: UInt64) {
        var total: UInt64 = 0, weightedTotal: UInt64 = 0
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
            weightedTotal &+= UInt64(indexed) &+ UInt64(offset) &* UInt64(sum)
            total &+= UInt64(sum)
            offset += n
        }
        return (total, weightedTotal)
    }

    /// A row of `count` bytes whose sums are known (a row repeating the one before).
    mutating func repeatRow(count: Int, sum: UInt64, weighted: UInt64) {
        b = (b % Self.modulus &+ UInt64(count) % Self.modulus &* (a % Self.modulus)
             &+ (UInt64(count) &* sum &- weighted) % Self.modulus) % Self.modulus
        a = (a &+ sum) % Self.modulus
    }

    mutating func reduce() {
        a %= Self.modulus
        b %= Self.modulus
    }

    var value: UInt32 { UInt32((b % Self.modulus) << 16 | (a % Self.modulus)) }
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

/// Bits packed least-significant first, as deflate wants them, into a buffer that grows
/// as needed; 32 bits are stored at a time.
struct DeflateBits {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0
    private var buffer: UInt64 = 0
    private var bitCount = 0

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        storage = UnsafeMutableRawPointer.allocate(byteCount: self.capacity, alignment: 8)
    }

    func deallocate() { storage.deallocate() }

    /// Room for at least `bytes` more bytes.
    mutating func reserve(_ bytes: Int) {
        guard count + bytes + 8 > capacity else { return }
        let grown = max(2 * capacity, count + bytes + 8)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    /// Writes the low `length` (≤ 32) bits of `value`; needs 4 bytes reserved.
    @inline(__always)
    mutating func write(_ value: UInt32, _ length: Int) {
        buffer |= UInt64(value) << UInt64(bitCount)
        bitCount += length
        if bitCount >= 32 {
            storage.storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, toByteOffset: count, as: UInt32.self)
            count += 4
            buffer >>= 32
            bitCount -= 32
        }
    }

    /// Pads the last byte with zero bits.
    mutating func flush() {
        reserve(8)
        while bitCount > 0 {
            storage.storeBytes(of: UInt8(truncatingIfNeeded: buffer), toByteOffset: count, as: UInt8.self)
            count += 1
            buffer >>= 8
            bitCount = max(0, bitCount - 8)
        }
        buffer = 0
    }

    /// Whole bytes, after `flush`.
    mutating func append(_ bytes: UInt8...) {
        reserve(bytes.count)
        for byte in bytes {
            storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
            count += 1
        }
    }

    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }

    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage, count: count)) }
}

/// Turns filtered rows into deflate tokens (literals; matches at distance 1 or one row) and
/// writes them as dynamic-Huffman blocks.
struct DeflateBlockWriter {
    /// A literal byte (< 256), or a match: 1 << 31, 1 << 30 for the row distance (else 1),
    /// and the length in the low 9 bits.
    private var tokens: UnsafeMutablePointer<UInt32>
    private var tokenCount = 0
    /// Symbol counts of the block (286 literal/length codes, then 30 distance codes).
    private let frequencies: UnsafeMutablePointer<Int>
    private var literalFrequencies: UnsafeMutablePointer<Int> { frequencies }
    private var distanceFrequencies: UnsafeMutablePointer<Int> { frequencies + 286 }
    var bits: DeflateBits
    let rowDistance: Int
    let rowCode: Int
    static let blockTokens = 1 << 16
    static let rowFlag: UInt32 = 1 << 30
    static let matchFlag: UInt32 = 1 << 31

    init(rowDistance: Int, capacity: Int) {
        self.rowDistance = rowDistance
        rowCode = Self.distanceCode(rowDistance)
        // A row adds at most one token per byte, plus the pieces of its matches.
        tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: Self.blockTokens + 2 * rowDistance + 16)
        bits = DeflateBits(capacity: capacity)
        frequencies = UnsafeMutablePointer<Int>.allocate(capacity: 316)
        frequencies.initialize(repeating: 0, count: 316)
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

    /// How many bytes from `p` on equal `value`, up to `limit`: eight bytes at a time
    /// against the byte repeated, 32 per step while they all match.
    @inline(__always)
    private static func run(of value: UInt8, _ row: UnsafePointer<UInt8>, _ p: Int, limit: Int) -> Int {
        let pattern = UInt64(value) &* 0x0101_0101_0101_0101
        let raw = UnsafeRawPointer(row + p)
        var n = 0
        while n + 32 <= limit {
            let x0 = raw.loadUnaligned(fromByteOffset: n, as: UInt64.self) ^ pattern
            let x1 = raw.loadUnaligned(fromByteOffset: n + 8, as: UInt64.self) ^ pattern
            let x2 = raw.loadUnaligned(fromByteOffset: n + 16, as: UInt64.self) ^ pattern
            let x3 = raw.loadUnaligned(fromByteOffset: n + 24, as: UInt64.self) ^ pattern
            if x0 | x1 | x2 | x3 != 0 { break }
            n += 32
        }
        while n + 8 <= limit {
            let x = raw.loadUnaligned(fromByteOffset: n, as: UInt64.self) ^ pattern
            if x != 0 { return n + x.trailingZeroBitCount / 8 }
            n += 8
        }
        while n < limit && row[p + n] == value { n += 1 }
        return n
    }

    /// How many bytes from `p` on equal the bytes `distance` before them, up to `limit`.
    @inline(__always)
    private static func match(_ row: UnsafePointer<UInt8>, _ p: Int, distance: Int, limit: Int) -> Int {
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

    /// A run of at least this many bytes is taken without looking at the row above.
    static let longRun = 32

    mutating func tokenise(row: UnsafePointer<UInt8>, count: Int, hasRowAbove: Bool, adler: inout Adler32) {
        var p = 0
        while p < count {
            let limit = count - p
            // Most bytes of anti-aliased text differ from the one before and the one above:
            // checked first, before the longer comparisons.
            let byRun = p > 0 && row[p] == row[p - 1] ? Self.run(of: row[p - 1], row, p, limit: limit) : 0
            if byRun >= Self.longRun {
                emit(length: byRun, row: false)
                adler.addRun(row[p - 1], count: byRun)
                p += byRun
                continue
            }
            let byRow = hasRowAbove && row[p] == row[p - rowDistance]
                ? Self.match(row, p, distance: rowDistance, limit: limit) : 0
            // A run costs no extra bits; a row match pays ~12 for its distance.
            if byRun >= 3 && byRun + 4 >= byRow {
                emit(length: byRun, row: false)
                adler.addRun(row[p - 1], count: byRun)
                p += byRun
            } else if byRow >= 6 {
                emit(length: byRow, row: true)
                adler.add(row + p, count: byRow)
                p += byRow
            } else {
                let byte = row[p]
                tokens[tokenCount] = UInt32(byte)
                tokenCount += 1
                literalFrequencies[Int(byte)] += 1
                adler.add(byte)
                p += 1
            }
        }
        adler.reduce()
        if tokenCount >= Self.blockTokens { writeBlock(final: false) }
    }

    /// A filtered row equal to the one above: one match of its length at the row distance.
    mutating func repeatRow(count: Int) {
        emit(length: count, row: true)
        if tokenCount >= Self.blockTokens { writeBlock(final: false) }
    }

    /// A match of `length` ≥ 3, in pieces of at most 258 (none shorter than 3).
    @inline(__always)
    private mutating func emit(length: Int, row: Bool) {
        var left = length
        let flag = Self.matchFlag | (row ? Self.rowFlag : 0)
        while left >= 3 {
            let piece = left > 258 && left - 258 < 3 ? left - 3 : min(258, left)
            tokens[tokenCount] = flag | UInt32(piece)
            tokenCount += 1
            literalFrequencies[257 + Self.lengthCode[piece]] += 1
            distanceFrequencies[row ? rowCode : 0] += 1
            left -= piece
        }
    }

    mutating func finish() {
        writeBlock(final: true)
        bits.flush()
        tokens.deallocate()
        frequencies.deallocate()
    }

    /// One dynamic-Huffman block of the tokens gathered (RFC 1951, 3.2.7); code lengths are
    /// sent without run-length codes. Each length's code and extra bits, and each of the two
    /// distances', are put together once per block.
    private mutating func writeBlock(final: Bool) {
        literalFrequencies[256] += 1  // end of block
        let literalLengths = HuffmanLengths.make(Array(UnsafeBufferPointer(start: literalFrequencies, count: 286)), limit: 15)
        let distanceLengths = HuffmanLengths.make(Array(UnsafeBufferPointer(start: distanceFrequencies, count: 30)),
                                                  limit: 15)
        let literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let sent = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
        var lengthFrequencies = [Int](repeating: 0, count: 19)
        for length in sent { lengthFrequencies[length] += 1 }
        let lengthLengths = HuffmanLengths.make(lengthFrequencies, limit: 7)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengthCount = 19
        while lengthCount > 4 && lengthLengths[order[lengthCount - 1]] == 0 { lengthCount -= 1 }

        // Header and code lengths: at most ~330 writes of ≤ 7 bits; tokens: ≤ 48 bits each.
        bits.reserve(512 + tokenCount * 6)
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
        // Per match length: its code with the extra bits above it, and the bit count.
        var lengthBits = [UInt32](repeating: 0, count: 259), lengthSizes = [Int](repeating: 0, count: 259)
        for length in 3...258 {
            let index = Self.lengthCode[length]
            lengthBits[length] = literalCodes[257 + index]
                | UInt32(length - Self.lengthBase[index]) << UInt32(literalLengths[257 + index])
            lengthSizes[length] = literalLengths[257 + index] + Self.lengthExtra[index]
        }
        let oneBits = distanceCodes[0], oneSize = distanceLengths[0]
        let rowBits = distanceCodes[rowCode]
            | UInt32(rowDistance - Self.distanceBase[rowCode]) << UInt32(distanceLengths[rowCode])
        let rowSize = distanceLengths[rowCode] + Self.distanceExtra[rowCode]
        literalCodes.withUnsafeBufferPointer { literalCodes in
            literalLengths.withUnsafeBufferPointer { literalLengths in
                lengthBits.withUnsafeBufferPointer { lengthBits in
                    lengthSizes.withUnsafeBufferPointer { lengthSizes in
                        for index in 0..<tokenCount {
                            let token = tokens[index]
                            if token & Self.matchFlag == 0 {
                                bits.write(literalCodes[Int(token)], literalLengths[Int(token)])
                                continue
                            }
                            let length = Int(token & 0x1FF)
                            bits.write(lengthBits[length], lengthSizes[length])
                            if token & Self.rowFlag != 0 {
                                bits.write(rowBits, rowSize)
                            } else {
                                bits.write(oneBits, oneSize)
                            }
                        }
                    }
                }
            }
        }
        bits.write(literalCodes[256], literalLengths[256])
        tokenCount = 0
        frequencies.update(repeating: 0, count: 316)
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
