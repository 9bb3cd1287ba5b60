import CResampleKernel

/// A colour conversion between two matrix-shaper RGB spaces (three tone curves and a 3×3
/// matrix each, as most camera and phone ICC profiles are: Display P3, sRGB, Adobe RGB) of
/// packed 8-bit RGB, in LittleCMS's own 8-bit fixed-point scheme (curve to linear light with
/// 14 fractional bits by table, one matrix, clamp, table back to 8 bits), written as one
/// plain loop (`jm_matrix_shaper_convert`): about 25 instructions a pixel where LittleCMS's
/// `cmsDoTransform` spends ~117 on the same arithmetic (its formatters and pipeline calls).
/// The same pass can turn or mirror the picture (an EXIF orientation), so a rotated image
/// costs no separate pass.
///
/// Made by the imaging layer from two profiles' curves and colorants (which it samples with
/// LittleCMS) once per distinct profile and kept; immutable afterwards, used from any
/// thread. Costs 3 KB of input tables and the output tables (16 KB a distinct curve).
package final class MatrixShaperConversion: @unchecked Sendable {
    private let tables: UnsafeMutablePointer<jm_matrix_shaper>
    private let encoded: [UnsafeMutablePointer<UInt8>]

    /// Entries of each output table: linear light 0 … 1 in steps of 1 / 16384.
    package static let encodedEntries = Int(JM_LINEAR_ONE) + 1

    /// `toLinear`: per channel, the source's 256 8-bit values as linear light (0 … 1);
    /// `matrix`: row-major, source linear RGB → target linear RGB; `toEncoded`: per channel,
    /// `encodedEntries` target values for linear i / 16384 (channels with equal tables share
    /// one). Nil when a table has the wrong size, a linear value lies outside 0 … 1 or a
    /// matrix entry outside ±2 (beyond this fixed point's range: the caller's general
    /// transform handles those).
    package init?(toLinear: [[Double]], matrix: [Double], toEncoded: [[UInt8]]) {
        guard toLinear.count == 3, toLinear.allSatisfy({ $0.count == 256 && $0.allSatisfy { (0...1).contains($0) } }),
              matrix.count == 9, matrix.allSatisfy({ abs($0) <= 2 }),
              toEncoded.count == 3, toEncoded.allSatisfy({ $0.count == Self.encodedEntries }) else { return nil }
        // LittleCMS's rounding to its 1.14 fixed point: ⌊x · 16384 + 0.5⌋.
        let one = Double(JM_LINEAR_ONE)
        var tables = jm_matrix_shaper()
        withUnsafeMutableBytes(of: &tables.toLinear) { raw in
            let entries = raw.bindMemory(to: Int32.self)
            for channel in 0..<3 {
                for value in 0..<256 { entries[channel * 256 + value] = Int32((toLinear[channel][value] * one + 0.5).rounded(.down)) }
            }
        }
        withUnsafeMutableBytes(of: &tables.matrix) { raw in
            let entries = raw.bindMemory(to: Int32.self)
            for index in 0..<9 { entries[index] = Int32((matrix[index] * one + 0.5).rounded(.down)) }
        }
        var distinct: [[UInt8]] = [], pointers: [UnsafeMutablePointer<UInt8>] = []
        var chosen: [UnsafeMutablePointer<UInt8>] = []
        for table in toEncoded {
            if let index = distinct.firstIndex(of: table) {
                chosen.append(pointers[index])
                continue
            }
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: table.count)
            pointer.initialize(from: table, count: table.count)
            distinct.append(table)
            pointers.append(pointer)
            chosen.append(pointer)
        }
        tables.toEncoded = (UnsafePointer(chosen[0]), UnsafePointer(chosen[1]), UnsafePointer(chosen[2]))
        self.tables = .allocate(capacity: 1)
        self.tables.initialize(to: tables)
        encoded = pointers
    }

    deinit {
        tables.deallocate()
        for pointer in encoded { pointer.deallocate() }
    }

    /// `source` (`width`×`height` packed RGB24, as stored) converted and turned upright for
    /// EXIF `orientation` (1–8; others leave it as it is) into `target`, which holds
    /// `width * height * 3` bytes, does not overlap `source`, and receives the upright size's
    /// rows (`PixelOrientation.uprightSize`).
    package func convert(_ source: UnsafePointer<UInt8>, width: Int, height: Int, orientation: Int,
                         into target: UnsafeMutablePointer<UInt8>) {
        guard width > 0, height > 0 else { return }
        let walk = PixelOrientation.walk(width: width, height: height, bands: 3, orientation: orientation)
        let size = PixelOrientation.uprightSize(width: width, height: height, orientation: (2...8).contains(orientation) ? orientation : 1)
        jm_matrix_shaper_convert(tables, source, walk.start, walk.across, walk.down, size.width, size.height, target)
    }
}
