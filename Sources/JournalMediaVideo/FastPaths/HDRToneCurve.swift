import Foundation
import JournalMediaCore

/// The per-pixel arithmetic of the HDR poster tone-map, table-driven: 16-bit non-linear RGB
/// (BT.2020 or BT.709 primaries, three planes as swscale writes `gbrp16le`) in, packed 8-bit
/// BT.709 RGB out.
///
/// Per pixel, the same steps and constants as the libavfilter graph it replaces
/// (`HDRFilterGraphToneMapper`: zscale → tonemap=mobius:desat=0 → zscale), so posters match it:
///
/// 1. linearise each channel (table of 4,096 entries, nominal peak 100 cd/m² = 1.0):
///    HLG: inverse OETF, then the display OOTF (system gamma 1.2 on scene luminance, 1,000 cd/m²
///    display, so reference white ≈ 2.0 and peak 10); PQ: EOTF (10,000 cd/m² = 100);
///    BT.709-style gamma (BT.2020 SDR): inverse OETF, peak 1;
/// 2. BT.2020 or Display P3 → BT.709 primaries (3 × 3 matrix in linear light, derived from the
///    primaries' chromaticities: `Gamut`) when the source is not BT.709;
/// 3. Möbius roll-off of the brightest channel (linear below 0.3, `peak` → 1.0), all three
///    channels scaled by the same factor so hues keep their saturation;
/// 4. to 8 bits, clipped to 0…255 (table of 16,384 entries), by the BT.709 camera OETF for
///    posters (`Encoding.cameraOETF`), or by the inverse of the BT.1886 display EOTF (a 2.4
///    power, `Encoding.display`) for HDR stills, whose reference is libheif's decode through
///    zscale (zimg encodes `bt709` display-referred).
///
/// Four pixels at a time in `SIMD4<Float>` (SSE2, the baseline x86-64 target), without branches
/// on the pixel values, one loop per (HLG or not, BT.2020 or not) so the per-pixel code has no
/// branches on them either.
///
/// Runs once per HDR poster candidate, on one core. The tables are built once per process and
/// shared. Costs a few nanoseconds per pixel, and no memory besides the
/// output and a 64-byte scratch buffer.
package struct HDRToneCurve: Sendable {
    package enum Transfer: Sendable {
        case hlg
        case pq
        /// BT.709 / BT.2020 10- and 12-bit camera gamma (wide gamut, not HDR).
        case gamma
    }

    package let transfer: Transfer
    /// The source's primaries (converted to BT.709 in linear light unless already BT.709).
    package let gamut: Gamut
    /// Linear light that maps to output 1.0 (Möbius `peak`), in units of 100 cd/m².
    let peak: Float

    /// Source primaries other than BT.709: the matrix step runs.
    var wideGamut: Bool { gamut != .bt709 }

    /// Möbius knee: below it the curve is the identity.
    static let knee: Float = 0.3

    /// How linear light becomes 8-bit codes.
    package let encoding: Encoding

    package enum Encoding: Sendable {
        /// BT.709 OETF (linear segment near black, 0.45 power): video posters, as before.
        case cameraOETF
        /// Inverse BT.1886 EOTF, V = L^(1/2.4): display-referred, for HDR stills.
        case display
    }

    package init(transfer: Transfer, gamut: Gamut, peak: Float, encoding: Encoding = .cameraOETF) {
        self.transfer = transfer
        self.gamut = gamut
        self.peak = max(peak, 1.0001)
        self.encoding = encoding
    }

    /// The step-4 table for `encoding`.
    var encodeTable: [UInt8] {
        switch encoding {
        case .cameraOETF: Self.bt709Encode
        case .display: Self.displayEncode
        }
    }

    /// BT.2020 (`wideGamut`) or BT.709 primaries.
    package init(transfer: Transfer, wideGamut: Bool, peak: Float) {
        self.init(transfer: transfer, gamut: wideGamut ? .bt2020 : .bt709, peak: peak)
    }

    /// One plane of 16-bit samples: row `y` starts at `samples[y * stride]`.
    struct Plane {
        let samples: UnsafeBufferPointer<UInt16>
        let stride: Int

        func holds(width: Int, height: Int) -> Bool {
            stride >= width && samples.count >= stride * (height - 1) + width
        }
    }

    /// Maps `height` rows of `width` pixels given as three 16-bit planes (as swscale's `gbrp16le`
    /// writes them) to packed RGB24; empty when a plane is smaller than that.
    func map(red: Plane, green: Plane, blue: Plane, width: Int, height: Int) -> [UInt8] {
        guard width > 0, height > 0, red.holds(width: width, height: height), green.holds(width: width, height: height),
              blue.holds(width: width, height: height), let r = red.samples.baseAddress,
              let g = green.samples.baseAddress, let b = blue.samples.baseAddress else { return [] }
        let planes = Planes(red: r, green: g, blue: b, redStride: red.stride, greenStride: green.stride,
                            blueStride: blue.stride, width: width, height: height)
        let linear: [Float] = switch transfer {
        case .hlg: Self.hlgSceneLinear
        case .pq: Self.pqLinear
        case .gamma: Self.gammaLinear
        }
        let rollOff = RollOff(peak: peak)
        let matrix = gamut.matrix
        return linear.withUnsafeBufferPointer { lin in
            Self.hlgOOTF.withUnsafeBufferPointer { ootf in
                encodeTable.withUnsafeBufferPointer { encode in
                    guard lin.count == Self.linearSize, ootf.count == Self.ootfSize, encode.count == Self.encodeSize,
                          let l = lin.baseAddress, let o = ootf.baseAddress, let e = encode.baseAddress else { return [] }
                    let tables = Tables(linear: l, ootf: o, encode: e)
                    return switch (transfer == .hlg, wideGamut) {
                    case (true, true): Self.run(HLGWide.self, planes, tables, rollOff, matrix)
                    case (true, false): Self.run(HLGNarrow.self, planes, tables, rollOff, matrix)
                    case (false, true): Self.run(DisplayWide.self, planes, tables, rollOff, matrix)
                    case (false, false): Self.run(DisplayNarrow.self, planes, tables, rollOff, matrix)
                    }
                }
            }
        }
    }

    // MARK: Vector loop

    private typealias Floats = SIMD4<Float>
    private typealias Indices = SIMD4<UInt32>
    private typealias Samples = SIMD4<UInt16>

    /// Base addresses and strides (in samples) of the three input planes.
    private struct Planes {
        let red, green, blue: UnsafePointer<UInt16>
        let redStride, greenStride, blueStride, width, height: Int
    }

    /// The tables' base addresses (sizes checked by `map`).
    private struct Tables {
        let linear: UnsafePointer<Float>
        let ootf: UnsafePointer<Float>
        let encode: UnsafePointer<UInt8>
    }

    /// Möbius constants (libavfilter tonemap's formula): above the knee,
    /// y = c · (x + a) / (x + b), i.e. every channel is scaled by c · (x + a) / ((x + b) · x).
    private struct RollOff {
        let a, b, c: Float

        package init(peak p: Float) {
            let j = HDRToneCurve.knee
            a = -j * j * (p - 1) / (j * j - 2 * j + p)
            b = (j * j - 2 * j * p + p) / max(p - 1, 1e-6)
            c = (b * b + 2 * b * j + j * j) / (b - a)
        }
    }

    /// Which steps a loop does; one specialised loop per combination.
    private protocol Variant {
        /// HLG: scene light, so the display OOTF applies.
        static var hlg: Bool { get }
        /// BT.2020 primaries: the 2020 → 709 matrix applies.
        static var wide: Bool { get }
    }
    private enum HLGWide: Variant { static var hlg: Bool { true }; static var wide: Bool { true } }
    private enum HLGNarrow: Variant { static var hlg: Bool { true }; static var wide: Bool { false } }
    private enum DisplayWide: Variant { static var hlg: Bool { false }; static var wide: Bool { true } }
    private enum DisplayNarrow: Variant { static var hlg: Bool { false }; static var wide: Bool { false } }

    /// Byte offsets in the scratch buffer: red, green, blue encode indices, OOTF indices.
    private static let scratchBytes = 64
    private static let ootfSlot = 48

    private static func run<V: Variant>(_: V.Type, _ planes: Planes, _ tables: Tables, _ rollOff: RollOff,
                                        _ matrix: Gamut.Matrix) -> [UInt8] {
        let width = planes.width, height = planes.height
        // Table indices are handed from the vector registers to the scalar loads through memory:
        // reading them out lane by lane let LLVM rearrange the vector maths into the order of
        // the byte stores, which made the loop ~1.7× slower.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchBytes, alignment: 16)
        scratch.initializeMemory(as: UInt32.self, repeating: 0, count: scratchBytes / 4)
        defer { scratch.deallocate() }
        let enc = tables.encode
        return [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
            guard let base = out.baseAddress else { return }
            for y in 0..<height {
                let r = planes.red + y * planes.redStride
                let g = planes.green + y * planes.greenStride
                let b = planes.blue + y * planes.blueStride
                var t = base + y * width * 3
                var x = 0
                while x &+ 4 <= width {
                    let (ri, gi, bi) = pixels(UnsafeRawPointer(r + x).loadUnaligned(as: Samples.self),
                                              UnsafeRawPointer(g + x).loadUnaligned(as: Samples.self),
                                              UnsafeRawPointer(b + x).loadUnaligned(as: Samples.self),
                                              V.self, tables, rollOff, matrix, scratch)
                    scratch.storeBytes(of: ri, toByteOffset: 0, as: Indices.self)
                    scratch.storeBytes(of: gi, toByteOffset: 16, as: Indices.self)
                    scratch.storeBytes(of: bi, toByteOffset: 32, as: Indices.self)
                    @inline(__always) func code(_ i: Int) -> UInt8 {
                        enc[Int(scratch.load(fromByteOffset: 4 * i, as: UInt32.self))]
                    }
                    t[0] = code(0); t[1] = code(4); t[2] = code(8)
                    t[3] = code(1); t[4] = code(5); t[5] = code(9)
                    t[6] = code(2); t[7] = code(6); t[8] = code(10)
                    t[9] = code(3); t[10] = code(7); t[11] = code(11)
                    t += 12
                    x &+= 4
                }
                // The last 1…3 pixels of a row: the same arithmetic on zero-padded lanes.
                if x < width {
                    var rs = Samples(), gs = Samples(), bs = Samples()
                    for lane in 0..<(width - x) {
                        rs[lane] = r[x + lane]
                        gs[lane] = g[x + lane]
                        bs[lane] = b[x + lane]
                    }
                    let (ri, gi, bi) = pixels(rs, gs, bs, V.self, tables, rollOff, matrix, scratch)
                    for lane in 0..<(width - x) {
                        t[3 * lane] = enc[Int(ri[lane])]
                        t[3 * lane + 1] = enc[Int(gi[lane])]
                        t[3 * lane + 2] = enc[Int(bi[lane])]
                    }
                }
            }
            initialized = width * height * 3
        }
    }

    /// Four pixels through steps 1–3: their BT.709 encode table indices (each below
    /// `encodeSize` whatever the input, by masking).
    @inline(__always)
    private static func pixels<V: Variant>(_ red: Samples, _ green: Samples, _ blue: Samples, _: V.Type, _ tables: Tables,
                                           _ rollOff: RollOff, _ m: Gamut.Matrix,
                                           _ scratch: UnsafeMutableRawPointer) -> (Indices, Indices, Indices) {
        // 12 most significant bits: always below linearSize (4,096).
        @inline(__always) func linear(_ s: Samples) -> Floats {
            let i = s &>> 4
            return Floats(tables.linear[Int(i[0])], tables.linear[Int(i[1])], tables.linear[Int(i[2])], tables.linear[Int(i[3])])
        }
        var r = linear(red), g = linear(green), b = linear(blue)
        // HLG display OOTF: a gain per pixel. It scales all three channels, so it is applied
        // (after the matrix, which it commutes with) to the brightest channel and the final scale.
        var gains = Floats(repeating: 1)
        if V.hlg {
            // Gain for BT.2020 scene luminance Ys (0…1): table entry ⌊Ys · 16,383⌋, taken as
            // the nearest integer to Ys · 16,383 − 0.5 (ties to even: an exact integer may give
            // the entry below).
            let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
            let slot = clamped(ys * Float(ootfSize - 1) - 0.5, top: Float(ootfSize - 1))
            scratch.storeBytes(of: nearest(slot, mask: UInt32(ootfSize - 1)), toByteOffset: ootfSlot, as: Indices.self)
            @inline(__always) func gain(_ lane: Int) -> Float {
                tables.ootf[Int(scratch.load(fromByteOffset: ootfSlot + 4 * lane, as: UInt32.self))]
            }
            gains = Floats(gain(0), gain(1), gain(2), gain(3))
        }
        if V.wide {
            let r2 = m.rr * r + m.rg * g + m.rb * b
            let g2 = m.gr * r + m.gg * g + m.gb * b
            let b2 = m.br * r + m.bg * g + m.bb * b
            r = r2; g = g2; b = b2
        }
        // Möbius on the brightest channel; below the knee the scale is 1. Both sides are
        // computed and one is selected (the rejected side may divide by ~0: never used).
        var signal = maximum(maximum(r, g), maximum(b, Floats(repeating: 1e-6)))
        if V.hlg { signal *= gains }
        let rolled = rollOff.c * (signal + rollOff.a) / ((signal + rollOff.b) * signal)
        let top = Float(encodeSize - 1)
        var scale = Floats(repeating: 1).replacing(with: rolled, where: signal .> knee)
        scale = V.hlg ? scale * (gains * top) : scale * top
        let mask = UInt32(encodeSize - 1)
        return (nearest(clamped(r * scale, top: top), mask: mask),
                nearest(clamped(g * scale, top: top), mask: mask),
                nearest(clamped(b * scale, top: top), mask: mask))
    }

    /// Lane-wise maximum (maxps; `pointwiseMax` is a call with NaN handling per lane).
    @inline(__always)
    private static func maximum(_ a: Floats, _ b: Floats) -> Floats { a.replacing(with: b, where: b .> a) }

    /// `x` limited to 0…`top` (maxps, minps).
    @inline(__always)
    private static func clamped(_ x: Floats, top: Float) -> Floats {
        let low = x.replacing(with: 0, where: x .< 0)
        return low.replacing(with: top, where: low .> top)
    }

    /// The nearest integers to `x` (0 ≤ x < 2²², ties to even) by adding 2²³ and reading the
    /// mantissa, then masked: two instructions where `SIMD4<Int32>(x, rounding:)` is a loop
    /// of library calls. The mask keeps any input (even NaN) inside a table of `mask + 1` entries.
    @inline(__always)
    private static func nearest(_ x: Floats, mask: UInt32) -> Indices {
        unsafeBitCast(x + 8_388_608, to: Indices.self) & mask
    }

    // MARK: Tables

    // The OOTF and encode sizes are powers of two: the vector loop masks indices with size − 1.
    static let linearSize = 4_096
    static let ootfSize = 16_384
    static let encodeSize = 16_384

    /// Signal value (0…1) at the centre of table entry `i` of a 16-bit input shifted right by 4.
    private static func signal(_ i: Int) -> Double { (Double(i) * 16 + 8) / 65_535 }

    /// HLG inverse OETF (BT.2100): signal → scene linear 0…1.
    static let hlgSceneLinear: [Float] = (0..<linearSize).map { i in
        let e = min(signal(i), 1)
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let scene = e <= 0.5 ? e * e / 3 : (exp((e - c) / a) + b) / 12
        return Float(scene)
    }

    /// HLG display OOTF gain for scene luminance `Ys` (0…1): 10 · Ys^(1.2 − 1), i.e. a
    /// 1,000 cd/m² display in units of 100 cd/m².
    static let hlgOOTF: [Float] = (0..<ootfSize).map { i in
        let ys = Double(i) / Double(ootfSize - 1)
        return Float(10 * pow(ys, 0.2))
    }

    /// PQ EOTF (SMPTE ST 2084): signal → linear, 10,000 cd/m² = 100.
    static let pqLinear: [Float] = (0..<linearSize).map { i in
        let e = pow(min(signal(i), 1), 1 / 78.84375)
        let c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875
        let y = pow(max(e - c1, 0) / (c2 - c3 * e), 1 / 0.1593017578125)
        return Float(100 * y)
    }

    /// BT.709 inverse OETF (also BT.2020 10/12-bit): signal → linear 0…1.
    static let gammaLinear: [Float] = (0..<linearSize).map { i in
        let e = min(signal(i), 1)
        let beta = 0.018053968510807, alpha = 1.09929682680944
        return Float(e < 4.5 * beta ? e / 4.5 : pow((e + alpha - 1) / alpha, 1 / 0.45))
    }

    /// BT.709 OETF: linear 0…1 (table index / (size − 1)) → 8-bit code.
    /// Inverse BT.1886 EOTF (black level 0): linear 0…1 → 8-bit code, V = L^(1/2.4).
    static let displayEncode: [UInt8] = (0..<encodeSize).map { i in
        let l = Double(i) / Double(encodeSize - 1)
        return UInt8(min(max(pow(l, 1 / 2.4) * 255 + 0.5, 0), 255))
    }

    static let bt709Encode: [UInt8] = (0..<encodeSize).map { i in
        let l = Double(i) / Double(encodeSize - 1)
        let beta = 0.018053968510807, alpha = 1.09929682680944
        let v = l < beta ? 4.5 * l : alpha * pow(l, 0.45) - (alpha - 1)
        return UInt8(min(max(v * 255 + 0.5, 0), 255))
    }
}
