import CVips
import JournalMediaCore

/// The decoded image box-averaged down to fit 100×100 and unpacked to RGBA bytes: the input
/// of the colour analysis and the ThumbHash placeholder, so neither needs a second decode.
///
/// Made once per asset from the in-memory decode (8-bit grey, grey + alpha, RGB or RGBA),
/// in one pass over its pixels: each analysis pixel is the mean of the source pixels that
/// fall in it, colour weighted by alpha. An area mean is what colour statistics want, and
/// one pass costs less than libvips' shrink + resize (whose vertical shrink is scalar code).
/// Output at most 40 kB.
package struct AnalysisPixels {
    package static let maxSide = 100

    package let width: Int
    package let height: Int
    /// Row-major RGBA, 8 bits per channel.
    package let rgba: [UInt8]

    package init(_ decoded: DecodedImage) throws(VipsError) {
        var image = decoded.image
        // Decoded images are held in memory already; nothing long is left to stop.
        if image.pointer.pointee.data == nil { image = try image.materialised(stop: nil) }
        let bands = image.bands
        guard image.format == VIPS_FORMAT_UCHAR, (1...4).contains(bands), let data = image.pointer.pointee.data else {
            throw VipsError(message: "analysis needs an 8-bit image in memory")
        }
        let sourceWidth = image.width, sourceHeight = image.height
        let scale = min(Double(Self.maxSide) / Double(sourceWidth), Double(Self.maxSide) / Double(sourceHeight), 1)
        let width = max(1, min(Self.maxSide, Int((Double(sourceWidth) * scale).rounded())))
        let height = max(1, min(Self.maxSide, Int((Double(sourceHeight) * scale).rounded())))
        self.width = width
        self.height = height
        rgba = switch bands {
        case 3: Self.opaqueBoxAverage(data, width: sourceWidth, height: sourceHeight, to: width, height)
        case 4: Self.rgbaBoxAverage(data, width: sourceWidth, height: sourceHeight, to: width, height)
        default: Self.boxAverage(data, width: sourceWidth, height: sourceHeight, bands: bands, to: width, height)
        }
    }

    /// `boxAverage` for RGB without alpha, with the same cells and the same rounding (alpha
    /// 255 everywhere cancels out), summing each row's run of pixels per cell in registers:
    /// about a third of the general loop's time, which was ~6 % of a small JPEG's CPU.
    static func opaqueBoxAverage(_ data: UnsafeMutablePointer<VipsPel>, width: Int, height: Int,
                                         to outWidth: Int, _ outHeight: Int) -> [UInt8] {
        // Per output cell: R, G and B sums, pixel count.
        var sums = [Int](repeating: 0, count: outWidth * outHeight * 4)
        sums.withUnsafeMutableBufferPointer { cells in
            forEachCellRun(width: width, height: height, bands: 3, to: outWidth, outHeight, in: data) { pixel, end, cell, count in
                var r = 0, g = 0, b = 0
                var pixel = pixel
                while pixel < end {
                    r &+= Int(pixel[0]); g &+= Int(pixel[1]); b &+= Int(pixel[2])
                    pixel += 3
                }
                cells[cell * 4] &+= r
                cells[cell * 4 + 1] &+= g
                cells[cell * 4 + 2] &+= b
                cells[cell * 4 + 3] &+= count
            }
        }
        var rgba = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        for cell in 0..<(outWidth * outHeight) {
            let count = sums[cell * 4 + 3]
            guard count > 0 else { continue }
            for band in 0..<3 { rgba[cell * 4 + band] = UInt8(min(255, (sums[cell * 4 + band] + count / 2) / count)) }
            rgba[cell * 4 + 3] = 255
        }
        return rgba
    }

    /// Sums every source pixel into its output cell (columns and rows mapped by integer
    /// division), then divides, rounding to nearest: colour sums are weighted by alpha so
    /// transparent pixels do not tint their neighbours; grey is spread to R, G and B. Integer
    /// sums (64-bit: a cell of a 40,000-pixel-wide image holds at most ~10^10).
    static func boxAverage(_ data: UnsafeMutablePointer<VipsPel>, width: Int, height: Int, bands: Int,
                                   to outWidth: Int, _ outHeight: Int) -> [UInt8] {
        let hasAlpha = bands == 2 || bands == 4
        let colourBands = hasAlpha ? bands - 1 : bands
        let column = (0..<width).map { $0 * outWidth / width }
        // Per output cell: colour sums (weighted by alpha), alpha sum, pixel count.
        var sums = [Int](repeating: 0, count: outWidth * outHeight * 5)
        let rowBytes = width * bands
        sums.withUnsafeMutableBufferPointer { cells in
            column.withUnsafeBufferPointer { column in
                for y in 0..<height {
                    let row = data + y * rowBytes
                    let cellRow = (y * outHeight / height) * outWidth
                    for x in 0..<width {
                        let pixel = row + x * bands
                        let alpha = hasAlpha ? Int(pixel[bands - 1]) : 255
                        let cell = (cellRow + column[x]) * 5
                        if colourBands == 1 {
                            let grey = Int(pixel[0]) &* alpha
                            cells[cell] &+= grey
                            cells[cell + 1] &+= grey
                            cells[cell + 2] &+= grey
                        } else {
                            cells[cell] &+= Int(pixel[0]) &* alpha
                            cells[cell + 1] &+= Int(pixel[1]) &* alpha
                            cells[cell + 2] &+= Int(pixel[2]) &* alpha
                        }
                        cells[cell + 3] &+= alpha
                        cells[cell + 4] &+= 1
                    }
                }
            }
        }
        return averaged(sums, cells: outWidth * outHeight)
    }

    /// RGBA pixels from `boxAverage`'s per-cell sums (colour weighted by alpha, alpha, count),
    /// each rounded to nearest.
    private static func averaged(_ sums: [Int], cells: Int) -> [UInt8] {
        var rgba = [UInt8](repeating: 0, count: cells * 4)
        for cell in 0..<cells {
            let alphaSum = sums[cell * 5 + 3], count = sums[cell * 5 + 4]
            guard count > 0 else { continue }
            if alphaSum > 0 {
                for band in 0..<3 {
                    rgba[cell * 4 + band] = UInt8(min(255, (sums[cell * 5 + band] + alphaSum / 2) / alphaSum))
                }
            }
            rgba[cell * 4 + 3] = UInt8(min(255, (alphaSum + count / 2) / count))
        }
        return rgba
    }

    /// `boxAverage` for RGBA, with the same cells, sums and rounding: each row's run of pixels
    /// per cell (the columns x with x × outWidth / width == c, found as `opaqueBoxAverage`
    /// finds them) summed in registers before it is added to its cell.
    static func rgbaBoxAverage(_ data: UnsafeMutablePointer<VipsPel>, width: Int, height: Int,
                               to outWidth: Int, _ outHeight: Int) -> [UInt8] {
        var sums = [Int](repeating: 0, count: outWidth * outHeight * 5)
        sums.withUnsafeMutableBufferPointer { cells in
            forEachCellRun(width: width, height: height, bands: 4, to: outWidth, outHeight, in: data) { pixel, end, cell, count in
                var r = 0, g = 0, b = 0, a = 0
                var pixel = pixel
                while pixel < end {
                    let alpha = Int(pixel[3])
                    r &+= Int(pixel[0]) &* alpha; g &+= Int(pixel[1]) &* alpha; b &+= Int(pixel[2]) &* alpha
                    a &+= alpha
                    pixel += 4
                }
                cells[cell * 5] &+= r
                cells[cell * 5 + 1] &+= g
                cells[cell * 5 + 2] &+= b
                cells[cell * 5 + 3] &+= a
                cells[cell * 5 + 4] &+= count
            }
        }
        return averaged(sums, cells: outWidth * outHeight)
    }

    /// For each source row and output cell, the row's run of pixels that falls in the cell:
    /// `body(first pixel, end, cell index, pixel count)`. Cell c holds the columns x with
    /// x × outWidth / width == c, from ⌈c × width / outWidth⌉; rows map by integer division.
    @inline(__always)
    private static func forEachCellRun(width: Int, height: Int, bands: Int, to outWidth: Int, _ outHeight: Int,
                                       in data: UnsafeMutablePointer<VipsPel>,
                                       _ body: (UnsafeMutablePointer<VipsPel>, UnsafeMutablePointer<VipsPel>, Int, Int) -> Void) {
        let starts = (0...outWidth).map { ($0 * width + outWidth - 1) / outWidth }
        starts.withUnsafeBufferPointer { starts in
            for y in 0..<height {
                let row = data + y * width * bands
                let cellRow = (y * outHeight / height) * outWidth
                for c in 0..<outWidth {
                    body(row + starts[c] * bands, row + starts[c + 1] * bands, cellRow + c, starts[c + 1] - starts[c])
                }
            }
        }
    }
}
