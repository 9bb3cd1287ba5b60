import CResampleKernel
import Foundation

/// A Lanczos-3 downscaler for 8-bit interleaved pixels (1–4 bands) in memory: separable,
/// in 16-bit fixed point (weights × 2^14, an intermediate row with 6 fractional bits),
/// vertical pass first over whole rows, then a horizontal pass over 4-lane pixels. The inner
/// loops are `CResampleKernel`'s SSE2 `pmaddwd` multiply-adds (two products per 32-bit lane),
/// AVX2 when the CPU has it (four taps per step horizontally, 32 bytes per step vertically).
///
/// Used instead of libvips' `reduce` (scalar C) for every rendition resize and the
/// JPEG decode's remaining 0.5–1× reduction after DCT scaling, and for each plane of the HEIC
/// fast path (`PlaneRowResampler`, which shares the taps and kernels). Runs on the calling thread;
/// costs about 6 / scale multiply-adds per source sample per pass, one intermediate row
/// (width × 4 × 2 bytes twice) and the output `outWidth × outHeight × bands` bytes. Quality:
/// the windowed sinc with its support widened by 1/scale (no box pre-shrink), taps
/// renormalised at the edges to sum to exactly 1 (flat colour stays flat), within one level of
/// the same filter in doubles.
package enum SeparableResampler {
    /// Taps of one output position: the first source index and one fixed-point weight per tap.
    struct Taps {
        var first: [Int32] = []
        var count: [Int32] = []
        /// Weights × 2^14, `stride` (a multiple of 4, as the AVX2 kernel reads four) per output
        /// position, zero-padded, summing to 16384.
        var weights: [Int16] = []
        var stride = 0
    }

    static let one = 1 << Int(JM_WEIGHT_BITS)

    static func lanczos3(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-9 { return 1 }
        if x >= 3 { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// The real-valued weights of output position `o`: first source index and weights summing to 1.
    /// Centres at (o + 0.5) × extent / outSize, support 3 × extent / outSize either side, where
    /// `extent` is the length of the picture the `inSize` samples show (nil: `inSize`). A DCT-
    /// scaled JPEG decode is shorter than the picture it shows by a fraction of a sample (libvips
    /// drops the last partial one: 4217 px at 1/2 is 2108 samples of a 2108.5-long picture);
    /// scaling by `inSize` instead would stretch the result by up to one source pixel across the
    /// width, a drift that costs fine detail (text) several dB.
    static func realTaps(inSize: Int, outSize: Int, position o: Int, extent: Double? = nil) -> (first: Int, weights: [Double]) {
        let scale = (extent ?? Double(inSize)) / Double(outSize)
        let filterScale = max(scale, 1)
        let support = 3 * filterScale
        let centre = (Double(o) + 0.5) * scale
        let first = max(0, Int((centre - support).rounded(.down)))
        let last = min(inSize, Int((centre + support).rounded(.up)))
        var weights = (first..<max(first, last)).map { lanczos3((Double($0) + 0.5 - centre) / filterScale) }
        let sum = weights.reduce(0, +)
        if sum != 0 { weights = weights.map { $0 / sum } }
        return (first, weights)
    }

    /// The fixed-point taps for resampling `inSize` source positions (showing a picture
    /// `extent` long, see `realTaps`) to `outSize` (larger than `inSize` only for a chroma
    /// plane enlarged by `PlaneRowResampler`: the same Lanczos-3, not widened).
    static func taps(inSize: Int, outSize: Int, extent: Double? = nil) -> Taps {
        let positions = (0..<outSize).map { realTaps(inSize: inSize, outSize: outSize, position: $0, extent: extent) }
        // A closure, not the key path `\.weights.count`: swift_getAtKeyPath per position was a
        // quarter of this function's instructions (14 M of 54 M converting a 12 MP HEIC).
        let widest = positions.reduce(0) { max($0, $1.weights.count) }
        var taps = Taps()
        taps.stride = (widest + 3) & ~3
        taps.weights = [Int16](repeating: 0, count: outSize * taps.stride)
        taps.first.reserveCapacity(outSize)
        taps.count.reserveCapacity(outSize)
        for (o, position) in positions.enumerated() {
            var fixed = position.weights.map { Int(($0 * Double(one)).rounded()) }
            // Rounding leaves the sum a few units off 2^14: the largest tap takes the difference,
            // so a flat area stays exactly flat.
            if let largest = fixed.indices.max(by: { fixed[$0] < fixed[$1] }) {
                fixed[largest] += one - fixed.reduce(0, +)
            }
            for (k, weight) in fixed.enumerated() { taps.weights[o * taps.stride + k] = Int16(weight) }
            taps.first.append(Int32(position.first))
            taps.count.append(Int32(fixed.count))
        }
        return taps
    }

    /// Resamples `source` (`width × height × bands` bytes, rows packed) to
    /// `outWidth × outHeight` and returns the packed pixels. Each output side must be ≥ 1 and
    /// not larger than its source side; bands 1–4.
    package static func resize(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, outWidth: Int, outHeight: Int
    ) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * bands) { buffer, initialised in
            if let base = buffer.baseAddress {
                resize(source, width: width, height: height, bands: bands,
                       outWidth: outWidth, outHeight: outHeight, into: base)
            }
            initialised = outWidth * outHeight * bands
        }
    }

    /// Resamples into `output` (`outWidth × outHeight × bands` bytes, rows packed): the same
    /// as `resize(_:width:height:bands:outWidth:outHeight:)` without allocating the output.
    /// `extent`: the picture's size in source samples when it is not exactly `width × height`
    /// (a DCT-scaled decode, see `realTaps`); each must be within one sample of its side.
    package static func resize(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, outWidth: Int, outHeight: Int,
        extent: (width: Double, height: Double)? = nil, into output: UnsafeMutablePointer<UInt8>
    ) {
        precondition((1...4).contains(bands) && outWidth >= 1 && outHeight >= 1
                     && outWidth <= width && outHeight <= height)
        let usable = usableExtent(extent, width: width, height: height)
        let vertical = taps(inSize: height, outSize: outHeight, extent: usable?.height)
        let horizontal = taps(inSize: width, outSize: outWidth, extent: usable?.width)
        let rowLength = width * bands
        // One row of vertical sums (interleaved as the source), and the same row as 4 lanes per
        // pixel; both with four zero pixels after the row (the horizontal kernel reads up to
        // three past a tap count that is not a multiple of 4; with 4 bands the sums are its input).
        var sums = [Int16](repeating: 0, count: rowLength + 16)
        var lanes = [Int16](repeating: 0, count: (width + 4) * 4)
        sums.withUnsafeMutableBufferPointer { sumBuffer in
            lanes.withUnsafeMutableBufferPointer { laneBuffer in
                vertical.weights.withUnsafeBufferPointer { vw in
                    horizontal.weights.withUnsafeBufferPointer { hw in
                        horizontal.first.withUnsafeBufferPointer { hf in
                            horizontal.count.withUnsafeBufferPointer { hc in
                                guard let sum = sumBuffer.baseAddress, let lane = laneBuffer.baseAddress,
                                      let vWeights = vw.baseAddress, let hWeights = hw.baseAddress,
                                      let hFirst = hf.baseAddress, let hCount = hc.baseAddress else { return }
                                let pixels = bands == 4 ? UnsafePointer(sum) : UnsafePointer(lane)
                                for y in 0..<outHeight {
                                    jm_resample_vertical_row(source, rowLength, rowLength, Int(vertical.first[y]),
                                                             Int(vertical.count[y]), vWeights + y * vertical.stride, sum)
                                    if bands != 4 { jm_spread_lanes(sum, width, bands, lane) }
                                    jm_resample_horizontal_row(pixels, outWidth, hFirst, hCount, hWeights,
                                                               horizontal.stride, bands, output + y * outWidth * bands)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `extent` when it is within one sample of `width`×`height` (see `resize`), else nil.
    static func usableExtent(_ extent: (width: Double, height: Double)?, width: Int, height: Int)
        -> (width: Double, height: Double)? {
        extent.flatMap { abs($0.width - Double(width)) < 1 && abs($0.height - Double(height)) < 1 ? $0 : nil }
    }
}
