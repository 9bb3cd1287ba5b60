// card-bench: renders light + dark card pairs of every sample type and makes each card's
// PNG fallback and WebP thumbnail as the product does (CardSource + RenditionStep),
// reporting CPU milliseconds per pair.
//   card-bench [--rounds N] [--jobs N] [--png-compression 0-9]  (the last: the fallback
//                                          through libpng + zlib at that level, to compare)
//                                          timing (make bench runs it at --jobs 1 and 2)
//   card-bench --per-type                  drawing only, CPU per card of each type
//   card-bench --write DIR [--with-texts]  one PNG per type and appearance, for the README (with
//                                          --with-texts also a .txt of the texts drawn on each)
import Foundation
import JournalMedia

var rounds = 3, jobs = 1
var writeFolder: String? = nil
var perType = false
var withTexts = false
var pngCompression: Int? = nil
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = Int(arguments.popFirst() ?? "") ?? rounds
    case "--jobs": jobs = max(1, Int(arguments.popFirst() ?? "") ?? jobs)
    case "--write": writeFolder = arguments.popFirst()
    case "--per-type": perType = true
    case "--with-texts": withTexts = true
    case "--png-compression": pngCompression = Int(arguments.popFirst() ?? "")
    default:
        FileHandle.standardError.write(Data("usage: card-bench [--rounds N] [--jobs N] [--png-compression N] [--per-type] [--write DIR [--with-texts]]\n".utf8))
        exit(2)
    }
}

/// The renditions the product makes of a card (`SuggestionOptions.cardRenditions`), with
/// `--png-compression N` writing the fallback through libpng + zlib at level N (the
/// general rendition path) instead of the card's own PNG coder.
let cardRenditions: [Bool: [RenditionSpec]] = Dictionary(uniqueKeysWithValues: [false, true].map { dark in
    (dark, SuggestionOptions().cardRenditions(dark: dark).map { spec in
        var spec = spec
        if spec.format == .png, let pngCompression { spec.compression = pngCompression }
        return spec
    })
})

let fallbackThroughLibpng = pngCompression != nil

/// CPU seconds used by the calling thread.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Renders one pair as the product does and returns the renditions and the thread's CPU
/// seconds spent drawing (with the thumbnail) and spent in the rendition step (the fallback).
func renderPair(_ light: CardSample, _ dark: CardSample) throws
    -> (cards: [(CardSample, CardRenderReport, AssetResult)], draw: Double, encode: Double) {
    var out: [(CardSample, CardRenderReport, AssetResult)] = []
    var draw = 0.0, encode = 0.0
    for sample in [light, dark] {
        let start = threadCPUSeconds()
        // As SuggestionItemWork does it: the card as a source (drawing, thumbnails), then
        // the rendition step (the PNG fallback).
        let source = CardSource(spec: sample.spec, images: sample.images)
        let specs = cardRenditions[sample.spec.appearance == .dark] ?? []
        var result = AssetResult(source: sample.name)
        // --png-compression: the fallback through libpng + zlib at that level instead.
        let image = try source.decode(plan: DecodePlan(renditions: specs.filter { !fallbackThroughLibpng || $0.format != .png }),
                                      into: &result)
        let drawn = threadCPUSeconds()
        try RenditionStep.run(image, specs: specs, analyzeColors: false, name: sample.name, into: &result)
        let card = source.report
        draw += drawn - start
        encode += threadCPUSeconds() - drawn
        out.append((sample, card, result))
    }
    return (out, draw, encode)
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
            for (sample, card, result) in try renderPair(light, dark).cards {
                guard let png = result.renditions.first(where: { $0.role.hasPrefix("fallback") }) else { continue }
                let path = "\(writeFolder)/\(sample.name)-\(sample.spec.appearance.rawValue).png"
                try Data(png.data).write(to: URL(fileURLWithPath: path))
                // The texts drawn, one per line, for the OCR check (Benchmarks/card_ocr.sh).
                guard withTexts else { continue }
                let spec = sample.spec
                let texts = [spec.badge, spec.headline].compactMap { $0 } + spec.lines + spec.chips
                    + [spec.footnote].compactMap { $0 }
                try Data((texts.joined(separator: "\n") + "\n").utf8)
                    .write(to: URL(fileURLWithPath: String(path.dropLast(4)) + ".txt"))
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
    let totals = ManagedCounter()
    let workers = jobs
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for index in Swift.stride(from: worker, to: work.count, by: workers) {
            do {
                let pair = try renderPair(work[index].0, work[index].1)
                totals.add(draw: pair.draw, encode: pair.encode)
            } catch { totals.fail() }
        }
    }
    let cpu = cpuSeconds() - cpuStart, wall = Date().timeIntervalSince(wallStart)
    let count = Double(work.count)
    print(String(format: "cards (--jobs %d, PNG %@, %d types × %d rounds = %d light+dark pairs, PNG fallback + WebP thumbnail each): "
                 + "%.1f ms CPU per pair (calling thread: drawing + thumbnail %.1f + PNG fallback %.1f, the rest in libvips' workers; target ≤ 50 at --jobs 1), %.1f pairs/s wall%@",
                 jobs, pngCompression.map { "libpng + zlib level \($0)" } ?? "CardPNGEncoder", pairs.count, rounds, work.count, cpu / count * 1000, totals.draw / count * 1000,
                 totals.encode / count * 1000, count / wall, totals.failures > 0 ? ", \(totals.failures) FAILED" : ""))
} catch {
    FileHandle.standardError.write(Data("card-bench: \(error)\n".utf8))
    exit(1)
}

/// Per-thread CPU figures summed over the workers.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var drawSeconds = 0.0, encodeSeconds = 0.0, failed = 0
    func add(draw: Double, encode: Double) {
        lock.lock(); drawSeconds += draw; encodeSeconds += encode; lock.unlock()
    }
    func fail() { lock.lock(); failed += 1; lock.unlock() }
    var draw: Double { lock.lock(); defer { lock.unlock() }; return drawSeconds }
    var encode: Double { lock.lock(); defer { lock.unlock() }; return encodeSeconds }
    var failures: Int { lock.lock(); defer { lock.unlock() }; return failed }
}
