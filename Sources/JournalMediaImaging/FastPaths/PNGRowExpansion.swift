import CResampleKernel
import Foundation

/// How `PNGDirectDecode` turns a PNG's inflated, filtered rows into 8-bit pixels: the passes
/// (one, or Adam7's seven), each row unfiltered and then expanded as libpng's transforms
/// that libvips asks for expand it (palette → RGB, grey bits → bytes, `tRNS` → alpha).
/// Rows of 8-bit samples that need no expansion are unfiltered straight into the image.
struct PNGRowExpansion {
    /// One Adam7 pass (or the whole image): its pixel grid and where its rows start in the
    /// inflated data.
    struct Pass {
        let xStart: Int, yStart: Int, xStep: Int, yStep: Int
        let width: Int, height: Int
        let rowBytes: Int
        let offset: Int
    }

    let layout: PNGChunkLayout
    /// Samples per pixel in the file, and bytes of a whole pixel for the filters (at least 1).
    let channels: Int, filterStride: Int
    let outputBands: Int
    let passes: [Pass]
    let filteredByteCount: Int
    /// Palette entries as RGBA (alpha from `tRNS`, else 255), and how many the file defines.
    private let paletteRGBA: [UInt8]
    private let paletteCount: Int
    /// The `tRNS` sample value(s) of grey or RGB images, else nil.
    private let transparentSample: [Int]?

    init?(_ layout: PNGChunkLayout, bytes: UnsafeRawBufferPointer) {
        self.layout = layout
        channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][layout.colourType] ?? 1
        let bitsPerPixel = channels * layout.bitDepth
        filterStride = max(1, bitsPerPixel / 8)
        let hasTRNS = layout.transparency != nil
        outputBands = switch layout.colourType {
        case 0: hasTRNS ? 2 : 1
        case 4: 2
        case 6: 4
        default: hasTRNS ? 4 : 3
        }
        let grid: [(Int, Int, Int, Int)] = layout.interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var passes: [Pass] = []
        var offset = 0
        for (xStart, yStart, xStep, yStep) in grid {
            let width = (layout.width - xStart + xStep - 1) / xStep
            let height = (layout.height - yStart + yStep - 1) / yStep
            guard width > 0, height > 0 else { continue }
            let rowBytes = (width * bitsPerPixel + 7) / 8
            passes.append(Pass(xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep,
                               width: width, height: height, rowBytes: rowBytes, offset: offset))
            offset += (rowBytes + 1) * height
        }
        self.passes = passes
        filteredByteCount = offset

        var rgba = [UInt8](repeating: 255, count: 256 * 4)
        var count = 0
        if let palette = layout.palette {
            count = palette.count / 3
            for entry in 0..<count {
                for channel in 0..<3 { rgba[entry * 4 + channel] = bytes[palette.lowerBound + entry * 3 + channel] }
            }
            if let alpha = layout.transparency {
                for entry in 0..<alpha.count { rgba[entry * 4 + 3] = bytes[alpha.lowerBound + entry] }
            }
        }
        paletteRGBA = rgba
        paletteCount = count
        if layout.colourType != 3, let sample = layout.transparency {
            transparentSample = stride(from: sample.lowerBound, to: sample.upperBound, by: 2).map {
                Int(bytes[$0]) << 8 | Int(bytes[$0 + 1])
            }
        } else {
            transparentSample = nil
        }
    }

    private var needsExpansion: Bool {
        layout.bitDepth < 8 || layout.colourType == 3 || layout.transparency != nil
    }

    /// Every row of `filtered` unfiltered into `pixels` (width × height × `outputBands`, packed).
    /// Returns the AND of every alpha value written (255 when there is no alpha), or nil for a
    /// filter type PNG does not define or a palette index past the palette.
    func unfilter(_ filtered: UnsafeMutablePointer<UInt8>, into pixels: UnsafeMutablePointer<UInt8>) -> UInt8? {
        let widest = passes.map(\.rowBytes).max() ?? 0
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: widest + 1)
        zero.initialize(repeating: 0, count: widest + 1)
        defer { zero.deallocate() }
        let hasAlpha = outputBands == 2 || outputBands == 4
        let imageRowBytes = layout.width * outputBands
        var alphaAnd: UInt8 = 255
        if !layout.interlaced && !needsExpansion, let pass = passes.first {
            var previous = UnsafePointer(zero)
            for y in 0..<pass.height {
                let row = filtered + y * (pass.rowBytes + 1)
                let out = pixels + y * imageRowBytes
                guard jm_png_unfilter_row(Int32(row[0]), row + 1, previous, out, pass.rowBytes, filterStride) == 0
                else { return nil }
                if hasAlpha { alphaAnd &= jm_alpha_and(out, layout.width, outputBands) }
                previous = UnsafePointer(out)
            }
            return alphaAnd
        }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (widest + 1))
        defer { scratch.deallocate() }
        let spread = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, imageRowBytes))
        defer { spread.deallocate() }
        for pass in passes {
            var previous = UnsafePointer(zero)
            var current = scratch
            for r in 0..<pass.height {
                let row = filtered + pass.offset + r * (pass.rowBytes + 1)
                guard jm_png_unfilter_row(Int32(row[0]), row + 1, previous, current, pass.rowBytes, filterStride) == 0
                else { return nil }
                let y = pass.yStart + r * pass.yStep
                let target = layout.interlaced ? spread : pixels + y * imageRowBytes
                guard let rowAlpha = expand(current, count: pass.width, into: target) else { return nil }
                alphaAnd &= rowAlpha
                if layout.interlaced {
                    let line = pixels + y * imageRowBytes
                    for i in 0..<pass.width {
                        let destination = line + (pass.xStart + i * pass.xStep) * outputBands
                        for band in 0..<outputBands { destination[band] = spread[i * outputBands + band] }
                    }
                }
                previous = UnsafePointer(current)
                current = current == scratch ? scratch + widest + 1 : scratch
            }
        }
        return alphaAnd
    }

    /// One unfiltered row of `count` pixels as 8-bit pixels of `outputBands`; the AND of the
    /// alpha written (255 without alpha), nil for a palette index past the palette.
    private func expand(_ row: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) -> UInt8? {
        let depth = layout.bitDepth
        var alphaAnd: UInt8 = 255
        if !needsExpansion {
            out.update(from: row, count: count * channels)
            if outputBands == 2 || outputBands == 4 { alphaAnd = jm_alpha_and(out, count, outputBands) }
            return alphaAnd
        }
        // Sample i of a row of `depth`-bit samples (depth ≤ 8), most significant bits first.
        func sample(_ i: Int) -> Int {
            if depth == 8 { return Int(row[i]) }
            let bit = i * depth
            return Int(row[bit >> 3] >> UInt8(8 - depth - (bit & 7))) & ((1 << depth) - 1)
        }
        switch layout.colourType {
        case 3:
            var used = 0
            paletteRGBA.withUnsafeBufferPointer { table in
                for i in 0..<count {
                    let index = sample(i)
                    used = max(used, index)
                    for band in 0..<outputBands { out[i * outputBands + band] = table[index * 4 + band] }
                    if outputBands == 4 { alphaAnd &= table[index * 4 + 3] }
                }
            }
            guard used < paletteCount else { return nil }
        case 0:
            let scale = 255 / ((1 << depth) - 1)
            let transparent = transparentSample?.first ?? -1
            for i in 0..<count {
                let value = sample(i)
                if outputBands == 2 {
                    out[2 * i] = UInt8(value * scale)
                    let alpha: UInt8 = value == transparent ? 0 : 255
                    out[2 * i + 1] = alpha
                    alphaAnd &= alpha
                } else {
                    out[i] = UInt8(value * scale)
                }
            }
        default:
            // 8-bit RGB with a tRNS colour (the only other type `needsExpansion` lets through).
            guard let key = transparentSample, key.count == 3 else { return nil }
            for i in 0..<count {
                let r = row[3 * i], g = row[3 * i + 1], b = row[3 * i + 2]
                out[4 * i] = r
                out[4 * i + 1] = g
                out[4 * i + 2] = b
                let alpha: UInt8 = Int(r) == key[0] && Int(g) == key[1] && Int(b) == key[2] ? 0 : 255
                out[4 * i + 3] = alpha
                alphaAnd &= alpha
            }
        }
        return alphaAnd
    }
}
