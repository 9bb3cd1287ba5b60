// card-bench: renders light + dark card pairs of every sample type and writes each card's
// PNG fallback and WebP thumbnail through RenditionStep, reporting CPU milliseconds per pair.
//   card-bench [--rounds N] [--jobs N]     timing (make bench runs it at --jobs 1 and 2)
//   card-bench --write DIR                 one PNG per type and appearance, for the README
import Foundation
import JournalMedia

var rounds = 3, jobs = 1
var writeFolder: String? = nil
var perType = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = Int(arguments.popFirst() ?? "") ?? rounds
    case "--jobs": jobs = max(1, Int(arguments.popFirst() ?? "") ?? jobs)
    case "--write": writeFolder = arguments.popFirst()
    case "--per-type": perType = true
    default:
        FileHandle.standardError.write(Data("usage: card-bench [--rounds N] [--jobs N] [--write DIR]\n".utf8))
        exit(2)
    }
}

let renditions = [
    RenditionSpec(role: "fallback", format: .png, width: CardSpec.defaultWidth, height: CardSpec.defaultHeight),
    RenditionSpec(role: "thumbnail", format: .webp, width: 512),
]

/// Renders one pair and runs the rendition step on both cards; returns the renditions.
func renderPair(_ light: CardSample, _ dark: CardSample) throws -> [(CardSample, RenderedCard, AssetResult)] {
    var out: [(CardSample, RenderedCard, AssetResult)] = []
    for sample in [light, dark] {
        let card = try CardRenderer.render(sample.spec, images: sample.images)
        var result = AssetResult(source: sample.name)
        try RenditionStep.run(SourceImage(decoded: card.image, width: sample.spec.width, height: sample.spec.height,
                                          upscale: false),
                              specs: renditions, analyzeColors: false, name: sample.name, into: &result)
        out.append((sample, card, result))
    }
    return out
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

do {
    let lights = try cardSamples(.light), darks = try cardSamples(.dark)
    if let writeFolder {
        try FileManager.default.createDirectory(atPath: writeFolder, withIntermediateDirectories: true)
        for (light, dark) in zip(lights, darks) {
            for (sample, card, result) in try renderPair(light, dark) {
                guard let png = result.renditions.first(where: { $0.role == "fallback" }) else { continue }
                let path = "\(writeFolder)/\(sample.name)-\(sample.spec.appearance.rawValue).png"
                try Data(png.data).write(to: URL(fileURLWithPath: path))
                print("\(path): missingGlyphs \(card.missingGlyphs), headline \(card.headlineFontSize) px"
                      + (card.truncated ? ", truncated" : "")
                      + (card.warnings.isEmpty ? "" : ", " + card.warnings.joined(separator: "; ")))
            }
        }
        exit(0)
    }
    if perType {
        // CPU per card of each type, rendering only (no rendition step).
        for sample in lights + darks {
            _ = try CardRenderer.render(sample.spec, images: sample.images)
            let start = cpuSeconds()
            for _ in 0..<rounds { _ = try CardRenderer.render(sample.spec, images: sample.images) }
            print(String(format: "%@ %@: %.1f ms CPU per card", sample.name, sample.spec.appearance.rawValue,
                         (cpuSeconds() - start) / Double(rounds) * 1000))
        }
        exit(0)
    }
    // One warm-up pass (fonts, libvips start-up), then the timed rounds.
    for (light, dark) in zip(lights, darks) { _ = try renderPair(light, dark) }
    let pairs = Array(zip(lights, darks))
    let work = (0..<rounds).flatMap { _ in pairs }
    let cpuStart = cpuSeconds(), wallStart = Date()
    let failures = ManagedCounter()
    let workers = jobs
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for index in Swift.stride(from: worker, to: work.count, by: workers) {
            do { _ = try renderPair(work[index].0, work[index].1) } catch { failures.add() }
        }
    }
    let cpu = cpuSeconds() - cpuStart, wall = Date().timeIntervalSince(wallStart)
    print(String(format: "cards (--jobs %d, %d types × %d rounds = %d light+dark pairs, PNG fallback + WebP thumbnail each): "
                 + "%.1f ms CPU per pair (target ≤ 50 at --jobs 1), %.1f pairs/s wall%@",
                 jobs, pairs.count, rounds, work.count, cpu / Double(work.count) * 1000,
                 Double(work.count) / wall, failures.value > 0 ? ", \(failures.value) FAILED" : ""))
} catch {
    FileHandle.standardError.write(Data("card-bench: \(error)\n".utf8))
    exit(1)
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
