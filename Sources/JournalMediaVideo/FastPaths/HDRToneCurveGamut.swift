extension HDRToneCurve {
    /// The primaries an HDR or wide-gamut picture is coded in, and the linear-light matrix that
    /// takes its RGB to BT.709 RGB (both with the D65 white point).
    ///
    /// The matrix is derived from the primaries' CIE 1931 xy chromaticities (ITU-R BT.709,
    /// BT.2020 and SMPTE EG 432-1 for Display P3): RGB → XYZ for each set, scaled so that
    /// R = G = B = 1 is the white point, then BT.709's inverse after the source's. Computed
    /// once per curve (nine multiplications per pixel in the tone-map loop).
    package enum Gamut: Sendable, Equatable {
        case bt709
        case bt2020
        case displayP3

        /// A 3 × 3 matrix in row order: output red = rr·R + rg·G + rb·B, and so on.
        struct Matrix: Equatable {
            var rr, rg, rb, gr, gg, gb, br, bg, bb: Float

            static let identity = Matrix(rr: 1, rg: 0, rb: 0, gr: 0, gg: 1, gb: 0, br: 0, bg: 0, bb: 1)
        }

        /// xy chromaticities of red, green and blue.
        var chromaticities: [(x: Double, y: Double)] {
            switch self {
            case .bt709: [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)]
            case .bt2020: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)]
            case .displayP3: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
            }
        }

        /// D65.
        static let white = (x: 0.3127, y: 0.3290)

        /// Linear RGB in these primaries → linear BT.709 RGB.
        var matrix: Matrix {
            guard self != .bt709 else { return .identity }
            let m = Self.multiply(Self.invert(Gamut.bt709.toXYZ), toXYZ)
            return Matrix(rr: Float(m[0]), rg: Float(m[1]), rb: Float(m[2]),
                          gr: Float(m[3]), gg: Float(m[4]), gb: Float(m[5]),
                          br: Float(m[6]), bg: Float(m[7]), bb: Float(m[8]))
        }

        /// RGB → XYZ (row order), white at Y = 1.
        var toXYZ: [Double] {
            // Columns: each primary's XYZ at Y = 1.
            let columns: [[Double]] = chromaticities.map(Self.xyz)
            let p: [Double] = (0..<9).map { columns[$0 % 3][$0 / 3] }
            let whiteXYZ: [Double] = Self.xyz(Self.white)
            let inverse = Self.invert(p)
            var scale = [Double](repeating: 0, count: 3)
            for row in 0..<3 {
                for k in 0..<3 { scale[row] += inverse[row * 3 + k] * whiteXYZ[k] }
            }
            return (0..<9).map { (i: Int) -> Double in p[i] * scale[i % 3] }
        }

        /// XYZ of a chromaticity at Y = 1.
        static func xyz(_ c: (x: Double, y: Double)) -> [Double] {
            let z: Double = 1 - c.x - c.y
            return [c.x / c.y, 1, z / c.y]
        }

        static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
            var product = [Double](repeating: 0, count: 9)
            for row in 0..<3 {
                for column in 0..<3 {
                    var sum: Double = 0
                    for k in 0..<3 { sum += a[row * 3 + k] * b[k * 3 + column] }
                    product[row * 3 + column] = sum
                }
            }
            return product
        }

        /// The inverse of a 3 × 3 matrix by cofactors (the primaries' matrices are far from
        /// singular).
        static func invert(_ m: [Double]) -> [Double] {
            let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
            let cofactors = [e * i - f * h, c * h - b * i, b * f - c * e,
                             f * g - d * i, a * i - c * g, c * d - a * f,
                             d * h - e * g, b * g - a * h, a * e - b * d]
            let determinant = a * cofactors[0] + b * cofactors[3] + c * cofactors[6]
            return cofactors.map { $0 / determinant }
        }
    }
}
