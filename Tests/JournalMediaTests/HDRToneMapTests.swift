import Foundation
import Testing
@testable import JournalMedia

/// The table-driven HDR tone-map (`HDRToneMapper`) against libavfilter's zscale + tonemap graph
/// (`HDRFilterGraphToneMapper`) it replaced, on the same decoded frame: mean luma and
/// colourfulness. The two agree on in-range signals (grey levels below); they differ where the
/// YUV → R'G'B' conversion leaves the 0…1 range (synthetic test patterns): zimg linearises
/// such values unclipped (an HLG blue of 1.1 becomes ~280× reference instead of ≤ 10) and the
/// roll-off then turns pinks and light blues pure blue; swscale clips them first.
/// With `JM_HDR_CLIPS=dir` it also prints the numbers for every .mov/.mp4 there at 1600 px.
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

    @Test(.enabled(if: clips != nil)) func benchmarkClips() throws {
        let root = URL(fileURLWithPath: try #require(Self.clips))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
            .filter { $0.hasSuffix(".mov") || $0.hasSuffix(".mp4") }
        for name in names {
            let c = try Self.compare(root.appendingPathComponent(name).path, maxDimension: 1600)
            print(String(format: "HDRTONEMAP %@ luma table %.2f graph %.2f | chroma table %.2f graph %.2f | mean|Δ| %.3f max %d",
                         name, c.table.luma, c.graph.luma, c.table.chroma, c.graph.chroma, c.meanAbsoluteDifference, c.maxDifference))
        }
    }
}
