// Times the per-asset colour work (ImageColorAnalyzer + ThumbHash) on deterministic
// photo-like 100 px images: `make bench` runs it after the throughput table.
import Foundation
import JournalMedia

/// A photo-like RGBA scene: sky/ground gradients, a coloured disc, noise from a fixed LCG.
func scene(width: Int, height: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    func noise() -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % 17) - 8
    }
    var out = [UInt8](repeating: 255, count: width * height * 4)
    let cx = Double(width) * (0.3 + Double(seed % 5) * 0.1), cy = Double(height) * 0.4
    for y in 0..<height {
        for x in 0..<width {
            let t = Double(y) / Double(height)
            var rgb = t < 0.55 ? [90 + 80 * t, 140 + 60 * t, 230 - 40 * t] : [70 + 40 * (1 - t), 120 + 30 * sin(Double(x) / 9), 60]
            if (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) < 90 { rgb = [220, 40, 60] }
            for c in 0..<3 { out[(y * width + x) * 4 + c] = UInt8(max(0, min(255, Int(rgb[c]) + noise()))) }
        }
    }
    return out
}

let sizes = [(100, 75), (75, 100), (100, 100), (100, 56)]
let images = (0..<32).map { i -> (Int, Int, [UInt8]) in
    let (w, h) = sizes[i % sizes.count]
    return (w, h, scene(width: w, height: h, seed: UInt64(i + 1)))
}
func seconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
var sink = 0
for (w, h, px) in images { sink &+= ImageColorAnalyzer.analyze(width: w, height: h, rgba: px).dominant.count }
let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 50
let count = Double(rounds * images.count)
let analyze = seconds {
    for _ in 0..<rounds { for (w, h, px) in images { sink &+= ImageColorAnalyzer.analyze(width: w, height: h, rgba: px).dominant.count } }
}
let hash = seconds {
    for _ in 0..<rounds { for (w, h, px) in images { sink &+= ThumbHash.encode(width: w, height: h, rgba: px)?.count ?? 0 } }
}
print(String(format: "colours per asset (≤100 px analysis image, %d assets): analyze %.3f ms + thumbhash %.3f ms = %.3f ms (target < 2 ms)",
             Int(count), analyze / count * 1000, hash / count * 1000, (analyze + hash) / count * 1000))
if sink == 42 { print("") }
