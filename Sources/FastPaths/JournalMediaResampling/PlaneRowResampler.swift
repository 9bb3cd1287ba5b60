import CResampleKernel

/// One 8-bit plane (one band, rows `stride` bytes apart) resampled with `SeparableResampler`'s
/// Lanczos-3 taps and kernels, four output rows per call, into int16 samples keeping
/// `JM_WIDE_BITS` fractional bits, not clamped: for planes converted after resampling
/// (`PlanarYCbCrToRGB`), so the matrix's gains do not amplify an 8-bit rounding. The four rows
/// share one horizontal pass (each in one lane of `jm_resample_horizontal_rows_wide`), a
/// quarter of the horizontal work of resampling one band at a time. Enlarges too (a chroma
/// plane smaller than the target), with the same Lanczos-3, unwidened.
///
/// Made per plane per HEIC on the fast path; costs the taps (one set per output row and
/// column, shareable between planes of one size), two work rows, and per call the vertical
/// pass of four rows over the plane's width plus one horizontal pass.
final class PlaneRowResampler {
    private let source: UnsafePointer<UInt8>
    private let width: Int
    private let stride: Int
    let outWidth: Int
    let outHeight: Int
    /// The taps (vertical, horizontal), for another plane of the same size and extent.
    let taps: (vertical: SeparableResampler.Taps, horizontal: SeparableResampler.Taps)
    /// Four rows of vertical sums, `sumStride` apart, then the same interleaved as 4-lane
    /// pixels (with four zero pixels after the row: the kernel reads up to three past a tap
    /// count that is not a multiple of 4).
    private let sums: UnsafeMutablePointer<Int16>
    private let sumStride: Int
    private let lanes: UnsafeMutablePointer<Int16>

    /// `source` (`width`×`height`, rows `stride` bytes apart, alive while this is used) to be
    /// resampled to `outWidth`×`outHeight`. `extent`: the picture's size in samples when it is
    /// not exactly `width`×`height` (a chroma plane of an odd-sized image), within one sample.
    /// `taps`: another resampler's, when its plane has the same size, extent and output.
    init(_ source: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, outWidth: Int, outHeight: Int,
                 extent: (width: Double, height: Double)? = nil,
                 taps shared: (vertical: SeparableResampler.Taps, horizontal: SeparableResampler.Taps)? = nil) {
        precondition(width >= 1 && height >= 1 && outWidth >= 1 && outHeight >= 1 && stride >= width)
        self.source = source
        self.width = width
        self.stride = stride
        self.outWidth = outWidth
        self.outHeight = outHeight
        if let shared {
            taps = shared
        } else {
            let usable = SeparableResampler.usableExtent(extent, width: width, height: height)
            taps = (SeparableResampler.taps(inSize: height, outSize: outHeight, extent: usable?.height),
                    SeparableResampler.taps(inSize: width, outSize: outWidth, extent: usable?.width))
        }
        sumStride = (width + 15) & ~7
        sums = .allocate(capacity: 4 * sumStride)
        sums.initialize(repeating: 0, count: 4 * sumStride)
        lanes = .allocate(capacity: (width + 4) * 4)
        lanes.initialize(repeating: 0, count: (width + 4) * 4)
    }

    deinit {
        sums.deallocate()
        lanes.deallocate()
    }

    /// Output rows `first` ..< min(`first` + 4, outHeight) into `output` (rows `outWidth` apart).
    func rows(from first: Int, into output: UnsafeMutablePointer<Int16>) {
        rows(from: first, into: output, window: (source, stride, 0))
    }

    /// The source rows output rows `first` ..< `first` + 4 read (clipped to the output),
    /// an empty range past the end. The first rows of later groups never decrease.
    func sourceRows(forGroup first: Int) -> Range<Int> {
        let last = min(first + 4, outHeight)
        guard first >= 0, first < last else { return 0..<0 }
        var lower = Int.max, upper = 0
        for y in first..<last {
            let start = Int(taps.vertical.first[y])
            lower = min(lower, start)
            upper = max(upper, start + Int(taps.vertical.count[y]))
        }
        return lower..<upper
    }

    /// Like `rows(from:into:)`, reading the plane from `window`: rows from `top` on, `stride`
    /// bytes apart from `base` (the plane's row `top`), which must hold `sourceRows(forGroup:)`.
    /// For a plane that arrives a strip at a time (`PlanarYCbCrStream`).
    func rows(from first: Int, into output: UnsafeMutablePointer<Int16>,
              window: (base: UnsafePointer<UInt8>, stride: Int, top: Int)) {
        let count = min(4, outHeight - first)
        guard first >= 0, count > 0 else { return }
        let vertical = taps.vertical, horizontal = taps.horizontal
        vertical.weights.withUnsafeBufferPointer { vw in
            guard let vWeights = vw.baseAddress else { return }
            for row in 0..<count {
                let y = first + row
                jm_resample_vertical_row(window.base, width, window.stride, Int(vertical.first[y]) - window.top,
                                         Int(vertical.count[y]), vWeights + y * vertical.stride, sums + row * sumStride)
            }
        }
        jm_interleave_rows4(sums, sums + sumStride, sums + 2 * sumStride, sums + 3 * sumStride, width, lanes)
        horizontal.weights.withUnsafeBufferPointer { hw in
            horizontal.first.withUnsafeBufferPointer { hf in
                horizontal.count.withUnsafeBufferPointer { hc in
                    guard let hWeights = hw.baseAddress, let hFirst = hf.baseAddress, let hCount = hc.baseAddress else { return }
                    jm_resample_horizontal_rows_wide(lanes, outWidth, hFirst, hCount, hWeights, horizontal.stride,
                                                     count, outWidth, output)
                }
            }
        }
    }
}
