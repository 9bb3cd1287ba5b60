import CResampleKernel

/// `PlanarYCbCrToRGB`'s resample-then-convert, fed a strip of source rows at a time: the
/// caller hands over the rows it has (`Window`s into its planes), the stream emits every
/// group of four output rows whose Lanczos taps those rows cover, and says from which source
/// row on it still needs the pixels (`firstNeededRows`), so the caller can drop the rest.
/// The output equals the whole-plane conversion's byte for byte (the same taps, the same
/// arithmetic), whatever the strips.
///
/// Made once per HEIC by the HEVC still path, which feeds it a grid's tiles row by row so
/// that a picture is never held whole; costs what `PlanarYCbCrToRGB.rgb` costs plus, per
/// strip, a check of which groups are ready; holds the RGB output and a few work rows.
package final class PlanarYCbCrStream {
    /// Rows `top` ..< `top` + `plane.height` of one plane (in the picture's sample rows: luma
    /// rows for plane 0, chroma rows for the others); `plane.base` points at row `top`.
    package struct Window {
        package var plane: PlanarYCbCrToRGB.Plane
        package var top: Int

        package init(_ plane: PlanarYCbCrToRGB.Plane, top: Int) {
            self.plane = plane
            self.top = top
        }

        var bottom: Int { top + plane.height }

        func holds(_ rows: Range<Int>) -> Bool { rows.isEmpty || (rows.lowerBound >= top && rows.upperBound <= bottom) }
    }

    package let outWidth: Int
    package let outHeight: Int
    private let luma: PlaneRowResampler
    private let chroma: (cb: PlaneRowResampler, cr: PlaneRowResampler)?
    private var coefficients: jm_ycbcr_coefficients
    private let work: UnsafeMutablePointer<Int16>
    private var output: [UInt8]
    /// The first output row not yet emitted (a multiple of 4 until the end).
    package private(set) var nextRow = 0

    /// A picture of `width`×`height` luma samples (chroma subsampled by 2^`chromaShift`,
    /// `hasChroma` false for luma alone) to be converted to `outWidth`×`outHeight` RGB24.
    package init(width: Int, height: Int, chromaShift: (x: Int, y: Int), hasChroma: Bool, outWidth: Int, outHeight: Int,
                 matrix: PlanarYCbCrToRGB.Matrix, fullRange: Bool) {
        self.outWidth = outWidth
        self.outHeight = outHeight
        // The resamplers read their plane through the windows handed to `emit`; the pointer
        // given here is only a placeholder for the whole-plane entry, never read.
        let placeholder = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        defer { placeholder.deallocate() }
        let chromaWidth = (width + (1 << chromaShift.x) - 1) >> chromaShift.x
        let chromaHeight = (height + (1 << chromaShift.y) - 1) >> chromaShift.y
        luma = PlaneRowResampler(placeholder, width: width, height: height, stride: width, outWidth: outWidth,
                                 outHeight: outHeight)
        if hasChroma {
            let extent = (width: Double(width) / Double(1 << chromaShift.x), height: Double(height) / Double(1 << chromaShift.y))
            let cb = PlaneRowResampler(placeholder, width: chromaWidth, height: chromaHeight, stride: chromaWidth,
                                       outWidth: outWidth, outHeight: outHeight, extent: extent)
            let cr = PlaneRowResampler(placeholder, width: chromaWidth, height: chromaHeight, stride: chromaWidth,
                                       outWidth: outWidth, outHeight: outHeight, extent: extent, taps: cb.taps)
            chroma = (cb, cr)
        } else {
            chroma = nil
        }
        coefficients = matrix.coefficients(fullRange: fullRange)
        work = .allocate(capacity: 3 * 4 * outWidth)
        output = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
    }

    deinit { work.deallocate() }

    /// All output rows emitted.
    package var isComplete: Bool { nextRow >= outHeight }

    /// The first luma and chroma rows the rows not yet emitted read (rows above them can be
    /// dropped); the plane heights once complete.
    package var firstNeededRows: (luma: Int, chroma: Int) {
        guard !isComplete else { return (Int.max, Int.max) }
        return (luma.sourceRows(forGroup: nextRow).lowerBound, chroma?.cb.sourceRows(forGroup: nextRow).lowerBound ?? Int.max)
    }

    /// The most source rows one group of four output rows reads, luma and chroma: a strip
    /// holder keeps at least this many rows beside the strip it adds.
    package var largestGroupSpan: (luma: Int, chroma: Int) {
        var spans = (luma: 0, chroma: 0)
        for first in stride(from: 0, to: outHeight, by: 4) {
            spans.luma = max(spans.luma, luma.sourceRows(forGroup: first).count)
            spans.chroma = max(spans.chroma, chroma?.cb.sourceRows(forGroup: first).count ?? 0)
        }
        return spans
    }

    /// Emits every next group of four output rows the windows hold (`cb`/`cr` ignored for
    /// luma alone). Returns how many output rows were emitted.
    @discardableResult
    package func emit(luma lumaWindow: Window, cb: Window?, cr: Window?) -> Int {
        let started = nextRow
        let rows = 4 * outWidth
        while nextRow < outHeight, lumaWindow.holds(luma.sourceRows(forGroup: nextRow)) {
            let count = min(4, outHeight - nextRow) * outWidth
            let rgbOffset = nextRow * outWidth * 3
            if let (cbResampler, crResampler) = chroma {
                guard let cb, let cr, cb.holds(cbResampler.sourceRows(forGroup: nextRow)),
                      cr.holds(crResampler.sourceRows(forGroup: nextRow)) else { break }
                luma.rows(from: nextRow, into: work, window: (lumaWindow.plane.base, lumaWindow.plane.stride, lumaWindow.top))
                cbResampler.rows(from: nextRow, into: work + rows, window: (cb.plane.base, cb.plane.stride, cb.top))
                crResampler.rows(from: nextRow, into: work + 2 * rows, window: (cr.plane.base, cr.plane.stride, cr.top))
                output.withUnsafeMutableBufferPointer { out in
                    guard let base = out.baseAddress else { return }
                    jm_ycbcr_to_rgb_row(work, work + rows, work + 2 * rows, count, &coefficients, base + rgbOffset)
                }
            } else {
                luma.rows(from: nextRow, into: work, window: (lumaWindow.plane.base, lumaWindow.plane.stride, lumaWindow.top))
                output.withUnsafeMutableBufferPointer { out in
                    guard let base = out.baseAddress else { return }
                    jm_ycbcr_to_rgb_row(work, nil, nil, count, &coefficients, base + rgbOffset)
                }
            }
            nextRow += 4
        }
        nextRow = min(nextRow, outHeight)
        return nextRow - started
    }

    /// The RGB24 output (`outWidth`×`outHeight`); complete once `isComplete`.
    package func takeOutput() -> [UInt8] {
        let taken = output
        output = []
        return taken
    }
}
