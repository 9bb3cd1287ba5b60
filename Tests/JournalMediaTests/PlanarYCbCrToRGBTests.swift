import Testing
@testable import JournalMediaResampling

/// The HEIC fast path's conversion (`PlanarYCbCrToRGB`): planes resampled one by one, then
/// Y'CbCr → RGB at the target size. Checked against the H.273 formulas in doubles, on a chroma
/// edge (where the chroma samples sit), and for strided planes (a decoded frame's padding).
@Suite struct PlanarYCbCrToRGBTests {
    /// `count` equal samples as one plane `width`×`height` (rows `stride` apart), kept alive by the caller.
    static func plane(_ storage: UnsafeBufferPointer<UInt8>, width: Int, height: Int, stride: Int? = nil)
        -> PlanarYCbCrToRGB.Plane {
        PlanarYCbCrToRGB.Plane(base: storage.baseAddress!, width: width, height: height, stride: stride ?? width)
    }

    /// The R'G'B' of one Y'CbCr triple in doubles, rounded and clipped.
    static func expected(_ y: Int, _ cb: Int, _ cr: Int, kr: Double, kb: Double, fullRange: Bool) -> [Int] {
        let kg = 1 - kr - kb
        let luma = fullRange ? Double(y) : (Double(y) - 16) * 255 / 219
        let scale = fullRange ? 1 : 255.0 / 224
        let u = (Double(cb) - 128) * scale, v = (Double(cr) - 128) * scale
        let rgb = [luma + 2 * (1 - kr) * v, luma - 2 * (1 - kb) * kb / kg * u - 2 * (1 - kr) * kr / kg * v,
                   luma + 2 * (1 - kb) * u]
        return rgb.map { Int(min(255, max(0, $0.rounded()))) }
    }

    /// Flat 4:4:4 planes of one colour converted at their own size: every pixel within one level
    /// of the formula, for BT.601, BT.709 and BT.2020 in both ranges.
    @Test(arguments: [1, 6, 9], [false, true])
    func flatColoursMatchTheMatrix(_ code: Int, _ fullRange: Bool) throws {
        let matrix = try #require(PlanarYCbCrToRGB.Matrix.h273(code))
        for (y, cb, cr) in [(81, 90, 240), (145, 54, 34), (41, 240, 110), (235, 128, 128), (16, 128, 128),
                            (128, 16, 240), (200, 100, 160), (60, 180, 90)] {
            let side = 9
            let planes = [y, cb, cr].map { [UInt8](repeating: UInt8($0), count: side * side) }
            let rgb = planes[0].withUnsafeBufferPointer { yp in
                planes[1].withUnsafeBufferPointer { cbp in
                    planes[2].withUnsafeBufferPointer { crp in
                        PlanarYCbCrToRGB.rgb(luma: Self.plane(yp, width: side, height: side),
                                             chroma: (Self.plane(cbp, width: side, height: side),
                                                      Self.plane(crp, width: side, height: side)),
                                             chromaShift: (0, 0), outWidth: side,
                                             outHeight: side, matrix: matrix, fullRange: fullRange)
                    }
                }
            }
            let want = Self.expected(y, cb, cr, kr: matrix.kr, kb: matrix.kb, fullRange: fullRange)
            #expect(rgb.count == side * side * 3)
            for pixel in stride(from: 0, to: rgb.count, by: 3) {
                let got = rgb[pixel..<pixel + 3].map(Int.init)
                #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "matrix \(code) full \(fullRange) YCbCr (\(y), \(cb), \(cr)): \(got) vs \(want)")
            }
        }
    }

    /// 4:2:0 chroma with a sharp Cr step between chroma columns 15 and 16, flat luma, converted
    /// at the luma size: chroma samples are centred on the two luma columns they cover (as
    /// libheif takes them), so the step's midpoint falls between luma columns 31 and 32, the
    /// two equally far from it; co-sited chroma (HEVC's default) would put it on column 31.
    /// Vertically nothing moves (the step is the same on every row).
    @Test func chromaIsCentredOnItsLumaPairs() {
        let width = 64, height = 16, chromaWidth = 32, chromaHeight = 8
        let luma = [UInt8](repeating: 128, count: width * height)
        let cb = [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
        let cr = (0..<(chromaWidth * chromaHeight)).map { $0 % chromaWidth < 16 ? UInt8(128) : UInt8(188) }
        let rgb = luma.withUnsafeBufferPointer { yp in
            cb.withUnsafeBufferPointer { cbp in
                cr.withUnsafeBufferPointer { crp in
                    PlanarYCbCrToRGB.rgb(luma: Self.plane(yp, width: width, height: height),
                                         chroma: (Self.plane(cbp, width: chromaWidth, height: chromaHeight),
                                                  Self.plane(crp, width: chromaWidth, height: chromaHeight)),
                                         chromaShift: (1, 1), outWidth: width,
                                         outHeight: height, matrix: PlanarYCbCrToRGB.Matrix.h273(6)!, fullRange: true)
                }
            }
        }
        for row in [0, 7, 15] {
            let red = (0..<width).map { Int(rgb[(row * width + $0) * 3]) }
            let low = red[16], high = red[48], middle = (low + high) / 2
            #expect(high - low > 80 && high < 240, "row \(row): \(red)")   // no clipping, with its ringing
            #expect(abs(red[31] + red[32] - 2 * middle) <= 2, "row \(row): midpoint between 31 and 32: \(red[28...35])")
            #expect(red[31] < middle - 10 && red[32] > middle + 10, "row \(row): \(red[28...35])")
        }
    }

    /// `PlaneRowResampler`, four rows per call: rows `stride` bytes apart (a decoded frame's
    /// padding) give the same samples as packed rows, down and up, and downscaled they round to
    /// within one level of `SeparableResampler.resize`'s bytes (the two round at different points).
    @Test(arguments: [(40, 21), (83, 47), (120, 70)])
    func planeRowsMatchTheResampler(_ outWidth: Int, _ outHeight: Int) {
        let width = 83, height = 47, stride = 96
        var random = SplitMix64(seed: 0x5943_6272)
        let packed = (0..<(width * height)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var padded = [UInt8](repeating: 0xEE, count: stride * height)
        for row in 0..<height {
            for x in 0..<width { padded[row * stride + x] = packed[row * width + x] }
        }
        func planeRows(_ bytes: [UInt8], stride: Int) -> [Int16] {
            bytes.withUnsafeBufferPointer { p in
                let resampler = PlaneRowResampler(p.baseAddress!, width: width, height: height, stride: stride,
                                                  outWidth: outWidth, outHeight: outHeight)
                var out = [Int16](repeating: 0, count: outWidth * outHeight)
                out.withUnsafeMutableBufferPointer { o in
                    for first in Swift.stride(from: 0, to: outHeight, by: 4) {
                        resampler.rows(from: first, into: o.baseAddress! + first * outWidth)
                    }
                }
                return out
            }
        }
        let wide = planeRows(packed, stride: width)
        #expect(wide == planeRows(padded, stride: stride))
        guard outWidth <= width, outHeight <= height else { return }
        let bytes = packed.withUnsafeBufferPointer { p in
            SeparableResampler.resize(p.baseAddress!, width: width, height: height, bands: 1,
                                      outWidth: outWidth, outHeight: outHeight)
        }
        let rounded = wide.map { min(255, max(0, (Int($0) + 8) >> 4)) }
        let worst = zip(rounded, bytes).map { abs($0 - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst)")
    }

    /// Luma alone (a monochrome HEIC): grey pixels, range applied.
    @Test func lumaAloneIsGrey() {
        let luma = [UInt8](repeating: 126, count: 12 * 10)
        let rgb = luma.withUnsafeBufferPointer { yp in
            PlanarYCbCrToRGB.rgb(luma: Self.plane(yp, width: 12, height: 10), chroma: nil, chromaShift: (0, 0),
                                 outWidth: 6, outHeight: 5,
                                 matrix: PlanarYCbCrToRGB.Matrix.h273(1)!, fullRange: false)
        }
        #expect(rgb == [UInt8](repeating: 128, count: 6 * 5 * 3))   // (126 − 16) × 255 / 219 = 128.08
    }
}
