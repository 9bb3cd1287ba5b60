import CResampleKernel
import Testing

/// `jm_premultiply_alpha`, whose RGBA path works four pixels at a time in SIMD lanes: every
/// colour value times every alpha gives (x·a + 127) / 255, alpha unchanged, the pixels past
/// the last whole group of four included, for RGBA and the per-band loop alike.
@Suite struct AlphaPremultiplyTests {
    @Test(arguments: [4, 2, 3])
    func everyValueAndAlphaRoundsAsTheFormula(bands: Int) {
        // Every (x, a) pair once, plus three pixels so the count is not a multiple of four.
        let pixels = 256 * 256 + 3
        var source = [UInt8](repeating: 0, count: pixels * bands)
        for p in 0..<pixels {
            let x = p / 256 % 256, a = p % 256
            for band in 0..<(bands - 1) { source[p * bands + band] = UInt8((x + 37 * band) % 256) }
            source[p * bands + bands - 1] = UInt8(a)
        }
        var target = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { s in
            target.withUnsafeMutableBufferPointer { jm_premultiply_alpha(s.baseAddress, $0.baseAddress, pixels, bands) }
        }
        var wrong = 0
        for p in 0..<pixels {
            let a = Int(source[p * bands + bands - 1])
            for band in 0..<(bands - 1) where Int(target[p * bands + band]) != (Int(source[p * bands + band]) * a + 127) / 255 {
                wrong += 1
            }
            if target[p * bands + bands - 1] != UInt8(a) { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) samples differ from (x·a + 127) / 255")
    }
}
