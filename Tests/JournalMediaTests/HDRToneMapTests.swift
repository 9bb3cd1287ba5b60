import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The table-driven HDR tone-map (`HDRToneMapper`) against libavfilter's zscale + tonemap graph
/// (`HDRFilterGraphToneMapper`) it replaced, on the same decoded frame: mean luma and
/// colourfulness. The two agree on in-range signals (grey levels below); they differ where the
/// YUV → R'G'B' conversion leaves the 0…1 range (synthetic test patterns): zimg linearises
/// such values unclipped (an HLG blue of 1.1 becomes ~280× reference instead of ≤ 10) and the
/// roll-off then turns pinks and light blues pure blue; swscale clips them first.
/// With `JM_HDR_CLIPS=dir` it also prints the numbers for every HDR .mov/.mp4 there at 1600 px.
@Suite struct HDRToneMapTests {
    static let clips = ProcessInfo.processInfo.environment["JM_HDR_CLIPS"]

    struct Comparison {
        var table: (chroma: Double, luma: Double)
        var graph: (chroma: Double, luma: Double)
        var meanAbsoluteDifference: Double
        var maxDifference: Int
    }

    static func compare(_ path: String, maxDimension: Int?) throws -> Comparison {
        let options = PosterOptions(maxDimension: maxDimension, maxCandidates: 1)
        var reference = options
        reference.forceFilterGraphToneMap = true
        let table = try MediaFile(path: path).posterFrame(options)
        let graph = try MediaFile(path: path).posterFrame(reference)
        #expect(table.toneMapped && graph.toneMapped)
        #expect(table.width == graph.width && table.height == graph.height && table.rgb.count == graph.rgb.count)
        var sum = 0, worst = 0
        for (a, b) in zip(table.rgb, graph.rgb) {
            let d = abs(Int(a) - Int(b))
            sum += d
            worst = max(worst, d)
        }
        return Comparison(table: colourfulnessAndLuma(table.rgb), graph: colourfulnessAndLuma(graph.rgb),
                          meanAbsoluteDifference: Double(sum) / Double(max(1, table.rgb.count)), maxDifference: worst)
    }

    @Test func tablePathIsCloseToTheFilterGraphOnHLG() throws {
        let c = try Self.compare(MediaSamples.path("video-hdr-hlg.mov"), maxDimension: nil)
        #expect(abs(c.table.luma - c.graph.luma) < 15, "luma \(c.table.luma) vs \(c.graph.luma)")
        #expect(abs(c.table.chroma - c.graph.chroma) < c.graph.chroma * 0.1, "chroma \(c.table.chroma) vs \(c.graph.chroma)")
    }

    /// Neutral HLG levels through the curve, against zimg's linear values (0.5 → 0.507,
    /// 0.75 → 2.03, 1.0 → 10.0, units of 100 cd/m²) rolled off and BT.709-encoded.
    @Test func hlgGreyLevels() {
        let curve = HDRToneCurve(transfer: .hlg, wideGamut: true, peak: 10)
        func mapped(_ signal: Double) -> UInt8 {
            let v = UInt16(signal * 65_535)
            let out = [v].withUnsafeBufferPointer { plane in
                let p = HDRToneCurve.Plane(samples: plane, stride: 1)
                return curve.map(red: p, green: p, blue: p, width: 1, height: 1)
            }
            #expect(out[0] == out[1] && out[1] == out[2], "grey stays grey")
            return out[0]
        }
        // Möbius(j 0.3, peak 10): 0.507 → 0.462, 2.03 → 0.825, 10 → 1.0; BT.709 OETF × 255.
        #expect(abs(Int(mapped(0.5)) - 173) <= 2, "\(mapped(0.5))")
        #expect(abs(Int(mapped(0.75)) - 232) <= 2, "\(mapped(0.75))")
        #expect(mapped(1) == 255)
        #expect(mapped(0) == 0)
    }

    /// The vector loop against a plain scalar transcription of the same steps (the loop it
    /// replaced), for every transfer, both gamuts and several peaks, on a 33³ grid of signals,
    /// every grey level and random pixels, in rows of an odd width (vector tail) with padding
    /// between rows: at most one level apart, and rarely that (table index rounding).
    @Test func vectorLoopMatchesTheScalarSteps() {
        var samples: [(UInt16, UInt16, UInt16)] = []
        for r in 0...32 { for g in 0...32 { for b in 0...32 {
            samples.append((UInt16(min(65_535, r * 2_048)), UInt16(min(65_535, g * 2_048)), UInt16(min(65_535, b * 2_048))))
        } } }
        for v in Swift.stride(from: 0, through: 65_535, by: 16) { samples.append((UInt16(v), UInt16(v), UInt16(v))) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let x = state >> 16
            samples.append((UInt16(truncatingIfNeeded: x), UInt16(truncatingIfNeeded: x >> 16), UInt16(truncatingIfNeeded: x >> 32)))
        }
        let width = 1_021, stride = 1_030
        let height = (samples.count + width - 1) / width
        var planes = [[UInt16]](repeating: [UInt16](repeating: 0, count: stride * height), count: 3)
        for (i, s) in samples.enumerated() {
            let at = (i / width) * stride + i % width
            planes[0][at] = s.0; planes[1][at] = s.1; planes[2][at] = s.2
        }
        for transfer in [HDRToneCurve.Transfer.hlg, .pq, .gamma] {
            for wide in [HDRToneCurve.Gamut.bt2020, .displayP3, .bt709] {
                for (peak, encoding): (Float, HDRToneCurve.Encoding) in [(1, .cameraOETF), (10, .display), (100, .cameraOETF)] {
                    let curve = HDRToneCurve(transfer: transfer, gamut: wide, peak: peak, encoding: encoding)
                    let mapped = planes[0].withUnsafeBufferPointer { r in
                        planes[1].withUnsafeBufferPointer { g in
                            planes[2].withUnsafeBufferPointer { b in
                                curve.map(red: .init(samples: r, stride: stride), green: .init(samples: g, stride: stride),
                                          blue: .init(samples: b, stride: stride), width: width, height: height)
                            }
                        }
                    }
                    #expect(mapped.count == width * height * 3)
                    guard mapped.count == width * height * 3 else { continue }
                    var worst = 0, differing = 0
                    for (i, s) in samples.enumerated() {
                        let reference = Self.scalarSteps(curve, s)
                        for (c, expected) in [reference.0, reference.1, reference.2].enumerated() {
                            let d = abs(Int(mapped[3 * i + c]) - Int(expected))
                            worst = max(worst, d)
                            if d != 0 { differing += 1 }
                        }
                    }
                    #expect(worst <= 1, "\(transfer) wide \(wide) peak \(peak): max difference \(worst)")
                    #expect(differing * 1_000 < samples.count * 3, "\(transfer) wide \(wide) peak \(peak): \(differing) values differ")
                }
            }
        }
    }

    /// The primaries' matrices follow from the chromaticities: BT.2020 → BT.709 equals the
    /// published coefficients (ITU-R BT.2087 / the ones the table path used to hard-code),
    /// Display P3 → BT.709 the usual ones, and white stays white in each.
    @Test func gamutMatricesFollowFromTheChromaticities() {
        func close(_ m: HDRToneCurve.Gamut.Matrix, _ expected: [Float], _ name: String) {
            let got = [m.rr, m.rg, m.rb, m.gr, m.gg, m.gb, m.br, m.bg, m.bb]
            for (a, b) in zip(got, expected) { #expect(abs(a - b) < 2e-4, "\(name): \(got) vs \(expected)") }
            #expect(abs(m.rr + m.rg + m.rb - 1) < 1e-5 && abs(m.gr + m.gg + m.gb - 1) < 1e-5
                    && abs(m.br + m.bg + m.bb - 1) < 1e-5, "\(name): white is not kept")
        }
        close(HDRToneCurve.Gamut.bt2020.matrix, [1.660491, -0.587641, -0.072850, -0.124550, 1.132900, -0.008349,
                                                 -0.018151, -0.100579, 1.118730], "BT.2020")
        close(HDRToneCurve.Gamut.displayP3.matrix, [1.224940, -0.224940, 0, -0.042057, 1.042057, 0,
                                                    -0.019638, -0.078636, 1.098274], "Display P3")
        #expect(HDRToneCurve.Gamut.bt709.matrix == .identity)
    }

    /// One pixel through the curve's steps in scalar code, as `HDRToneCurve` computed it
    /// before it was vectorised.
    static func scalarSteps(_ curve: HDRToneCurve, _ s: (UInt16, UInt16, UInt16)) -> (UInt8, UInt8, UInt8) {
        let lin: [Float] = switch curve.transfer {
        case .hlg: HDRToneCurve.hlgSceneLinear
        case .pq: HDRToneCurve.pqLinear
        case .gamma: HDRToneCurve.gammaLinear
        }
        var r = lin[Int(s.0 >> 4)], g = lin[Int(s.1 >> 4)], b = lin[Int(s.2 >> 4)]
        if curve.transfer == .hlg {
            let ys = 0.2627 * r + 0.6780 * g + 0.0593 * b
            let gain = HDRToneCurve.hlgOOTF[Int(min(max(ys, 0), 1) * Float(HDRToneCurve.ootfSize - 1))]
            r *= gain; g *= gain; b *= gain
        }
        if curve.wideGamut {
            let m = curve.gamut.matrix
            (r, g, b) = (m.rr * r + m.rg * g + m.rb * b,
                         m.gr * r + m.gg * g + m.gb * b,
                         m.br * r + m.bg * g + m.bb * b)
        }
        let j = HDRToneCurve.knee, p = curve.peak
        let a = -j * j * (p - 1) / (j * j - 2 * j + p)
        let bb = (j * j - 2 * j * p + p) / max(p - 1, 1e-6)
        let c = (bb * bb + 2 * bb * j + j * j) / (bb - a)
        let signal = max(max(r, g), max(b, 1e-6))
        if signal > j {
            let scale = c * (signal + a) / (signal + bb) / signal
            r *= scale; g *= scale; b *= scale
        }
        let last = Float(HDRToneCurve.encodeSize - 1)
        let table = curve.encodeTable
        func encode(_ v: Float) -> UInt8 { table[Int(min(max(v, 0), 1) * last + 0.5)] }
        return (encode(r), encode(g), encode(b))
    }

    @Test(.enabled(if: clips != nil)) func benchmarkClips() throws {
        let root = URL(fileURLWithPath: try #require(Self.clips))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .filter { $0.hasSuffix(".mov") || $0.hasSuffix(".mp4") }
        // SDR clips in the folder (the benchmark's has both) have nothing to compare.
        for name in names where try MediaFile(path: root.appendingPathComponent(name).path).videoInfo().color.isHDR {
            let c = try Self.compare(root.appendingPathComponent(name).path, maxDimension: 1600)
            print(String(format: "HDRTONEMAP %@ luma table %.2f graph %.2f | chroma table %.2f graph %.2f | mean|Δ| %.3f max %d",
                         name, c.table.luma, c.graph.luma, c.table.chroma, c.graph.chroma, c.meanAbsoluteDifference, c.maxDifference))
        }
    }
}
