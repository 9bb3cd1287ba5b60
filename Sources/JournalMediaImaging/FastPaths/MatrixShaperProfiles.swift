import CLCMS2
import JournalMediaResampling

/// Builds a `MatrixShaperConversion` between two RGB ICC profiles when LittleCMS itself would
/// treat both as matrix-shapers for a relative colorimetric transform: the tables are sampled
/// from the profiles' own tone curves with LittleCMS's curve evaluation and filled the way its
/// 8-bit matrix-shaper optimisation fills them (cmsopt.c: the input curves at i / 255 to 1.14
/// fixed point, the output curves reversed with `cmsReverseToneCurve` and sampled at
/// i / 16384, rounded through 16 bits to 8), and the matrix is the output colorants' inverse
/// times the input's. So the result is LittleCMS's own arithmetic without its per-pixel
/// overhead (about a fifth of its instructions per pixel, measured with callgrind).
///
/// Runs once per distinct input profile (`DirectProfileTransform` keeps the result, and the
/// output profile's part once); costs 768 curve evaluations per input profile, the output
/// curves' reversal once.
enum MatrixShaperProfiles {
    /// What a conversion needs of its output profile: the inverse of its colorant matrix and
    /// its reversed curves sampled into 8-bit tables. Made once per output profile (the
    /// reversal is most of a conversion's set-up: ~55 M instructions for libvips' sRGB, whose
    /// curves are 1024-point tables) and shared by every input profile converted to it.
    struct Output: Sendable {
        var inverse: [Double]
        var toEncoded: [[UInt8]]
    }

    /// `output`'s part of a conversion, or nil when it is not a matrix-shaper LittleCMS would
    /// use as one (an RGB profile with XYZ connection space, its colorant and curve tags, and
    /// no lookup-table tag that a relative colorimetric transform would take instead).
    static func output(_ output: cmsHPROFILE) -> Output? {
        guard isMatrixShaper(output, lookupTables: [cmsSigBToA0Tag, cmsSigBToA1Tag, cmsSigBToA2Tag,
                                                    cmsSigBToD0Tag, cmsSigBToD1Tag, cmsSigBToD2Tag]),
              let columns = colorants(output), let inverse = inverse(columns) else { return nil }
        var toEncoded: [[UInt8]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(output, tag), let reversed = cmsReverseToneCurve(OpaquePointer(curve)) else { return nil }
            defer { cmsFreeToneCurve(reversed) }
            toEncoded.append((0..<MatrixShaperConversion.encodedEntries).map { step in
                let value = min(1, max(0, Double(cmsEvalToneCurveFloat(reversed, Float(Double(step) / 16384)))))
                // 16 bits rounded, then to 8 bits as LittleCMS's FROM_16_TO_8 does.
                let word = UInt32(min(65535, (value * 65535 + 0.5).rounded(.down)))
                return UInt8((word * 65281 + 8_388_608) >> 24)
            })
        }
        return Output(inverse: inverse, toEncoded: toEncoded)
    }

    /// The conversion from `input` to the output profile `output` describes, or nil when
    /// `input` is not a matrix-shaper LittleCMS would use as one (as for `output(_:)`, with
    /// the lookup tables an input profile may carry) or its tables fall outside the fixed
    /// point's range.
    static func conversion(from input: cmsHPROFILE, to output: Output) -> MatrixShaperConversion? {
        guard isMatrixShaper(input, lookupTables: [cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag,
                                                   cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag]),
              let inputColorants = colorants(input) else { return nil }
        var matrix = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += output.inverse[row * 3 + k] * inputColorants[k * 3 + column] }
                matrix[row * 3 + column] = sum
            }
        }
        var toLinear: [[Double]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let curve = cmsReadTag(input, tag) else { return nil }
            toLinear.append((0..<256).map { Double(cmsEvalToneCurveFloat(OpaquePointer(curve), Float($0) / 255)) })
        }
        return MatrixShaperConversion(toLinear: toLinear, matrix: matrix, toEncoded: output.toEncoded)
    }

    private static func isMatrixShaper(_ profile: cmsHPROFILE, lookupTables: [cmsTagSignature]) -> Bool {
        cmsGetColorSpace(profile) == cmsSigRgbData && cmsGetPCS(profile) == cmsSigXYZData
            && cmsIsMatrixShaper(profile) != 0 && !lookupTables.contains { cmsIsTag(profile, $0) != 0 }
    }

    /// The colorant matrix, row-major (rows X, Y, Z; columns red, green, blue).
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        return [columns[0].X, columns[1].X, columns[2].X, columns[0].Y, columns[1].Y, columns[2].Y,
                columns[0].Z, columns[1].Z, columns[2].Z]
    }

    /// The inverse of a row-major 3×3 matrix; nil when it is (nearly) singular.
    private static func inverse(_ m: [Double]) -> [Double]? {
        func minor(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Double { m[a] * m[b] - m[c] * m[d] }
        let cofactors: [Double] = [minor(4, 8, 5, 7), minor(5, 6, 3, 8), minor(3, 7, 4, 6),
                                   minor(2, 7, 1, 8), minor(0, 8, 2, 6), minor(1, 6, 0, 7),
                                   minor(1, 5, 2, 4), minor(2, 3, 0, 5), minor(0, 4, 1, 3)]
        let determinant: Double = m[0] * cofactors[0] + m[1] * cofactors[1] + m[2] * cofactors[2]
        guard abs(determinant) > 1e-9 else { return nil }
        // Row i of the inverse is column i of the cofactors over the determinant.
        return (0..<9).map { index in cofactors[index % 3 * 3 + index / 3] / determinant }
    }
}
