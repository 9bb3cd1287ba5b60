// card-bench: renders every sample type in every size class (tile, portrait, landscape),
// light and dark, as the product does (CardSource + RenditionStep with
// SuggestionOptions.cardRendition: the WebP tile, the PNG portrait and landscape), and
// reports CPU milliseconds per item (all six cards of one sample) for each type.
//   card-bench [--rounds N] [--jobs N]     timing (make bench runs it at --jobs 1 and 2)
//   card-bench --per-type                  drawing only, CPU per card of each type and class
//   card-bench --write DIR [--with-texts]  DIR/<class>/<type>-<appearance>.<ext> for the contact
//                                          sheets (Benchmarks/card-sheets.sh); with --with-texts
//                                          also a .txt of the texts drawn on each
import Foundation
import JournalMedia

var rounds = 3, jobs = 1
var writeFolder: String? = nil
var perType = false
var withTexts = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = Int(arguments.popFirst() ?? "") ?? rounds
    case "--jobs": jobs = max(1, Int(arguments.popFirst() ?? "") ?? jobs)
    case "--write": writeFolder = arguments.popFirst()
    case "--per-type": perType = true
    case "--with-texts": withTexts = true
    default:
        FileHandle.standardError.write(Data("usage: card-bench [--rounds N] [--jobs N] [--per-type] [--write DIR [--with-texts]]\n".utf8))
        exit(2)
    }
}

/// CPU seconds used by the calling thread.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The sample drawn at `size` (its content unchanged, the size class' layout).
func sized(_ sample: CardSample, _ size: CardSize) -> CardSample {
    var sample = sample
    sample.spec.width = size.width
    sample.spec.height = size.height
    sample.spec.sizeClass = size.sizeClass
    return sample
}

/// Renders one item as the product does, every size class light and dark, and returns the
/// cards with their renditions.
func renderItem(_ light: CardSample, _ dark: CardSample) throws -> [(CardSample, CardRenderReport, AssetResult)] {
    var out: [(CardSample, CardRenderReport, AssetResult)] = []
    for size in CardSize.defaults {
        for sample in [sized(light, size), sized(dark, size)] {
            let source = CardSource(spec: sample.spec, images: sample.images)
            let specs = [SuggestionOptions.cardRendition(size, dark: sample.spec.appearance == .dark)]
            var result = AssetResult(source: sample.name)
            let image = try source.decode(plan: DecodePlan(renditions: specs), into: &result)
            try RenditionStep.run(image, specs: specs, analyzeColors: false, name: sample.name, into: &result)
            out.append((sample, source.report, result))
        }
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
        for (light, dark) in zip(lights, darks) {
            for (sample, card, result) in try renderItem(light, dark) {
                guard let rendition = result.renditions.first else { continue }
                let folder = "\(writeFolder)/\(sample.spec.sizeClass.rawValue)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let path = "\(folder)/\(sample.name)-\(sample.spec.appearance.rawValue).\(rendition.format.fileExtension)"
                try Data(rendition.data).write(to: URL(fileURLWithPath: path))
                let texts = card.layout?.texts ?? []
                if withTexts {
                    try Data((texts.map(\.text).joined(separator: "\n") + "\n").utf8)
                        .write(to: URL(fileURLWithPath: path + ".txt"))
                }
                let smallest = texts.map(\.pixelSize).min() ?? 0
                print("\(path): missingGlyphs \(card.missingGlyphs), headline \(card.headlineFontSize) px, smallest text \(smallest) px"
                      + (card.truncated ? ", truncated" : "")
                      + (card.warnings.isEmpty ? "" : ", " + card.warnings.joined(separator: "; ")))
            }
        }
        exit(0)
    }
    if perType {
        // CPU per card of each type and class, drawing only (no rendition step).
        for sample in lights + darks {
            for size in CardSize.defaults {
                let card = sized(sample, size)
                _ = try CardRenderer.render(card.spec, images: card.images)
                let start = cpuSeconds()
                for _ in 0..<rounds { _ = try CardRenderer.render(card.spec, images: card.images) }
                print(String(format: "%@ %@ %@: %.1f ms CPU per card", sample.name, size.sizeClass.rawValue,
                             sample.spec.appearance.rawValue, (cpuSeconds() - start) / Double(rounds) * 1000))
            }
        }
        exit(0)
    }
    // One warm-up pass (fonts, libvips start-up), then the timed rounds: per type, the CPU of
    // the whole process (libvips' workers included) for all six cards of one item.
    let pairs = Array(zip(lights, darks))
    for (light, dark) in pairs { _ = try renderItem(light, dark) }
    if jobs == 1 {
        var total = 0.0
        for (light, dark) in pairs {
            let start = cpuSeconds()
            for _ in 0..<rounds { _ = try renderItem(light, dark) }
            let perItem = (cpuSeconds() - start) / Double(rounds) * 1000
            total += perItem
            print(String(format: "  %@: %.1f ms CPU per item (3 size classes × light + dark)", light.name, perItem))
        }
        print(String(format: "cards (--jobs 1, %d types × %d rounds): %.1f ms CPU per item on average "
                     + "(tile WebP + portrait PNG + landscape PNG, light and dark; target ≤ 60)",
                     pairs.count, rounds, total / Double(pairs.count)))
        exit(0)
    }
    let work = (0..<rounds).flatMap { _ in pairs }
    let cpuStart = cpuSeconds(), wallStart = Date()
    let totals = ManagedCounter()
    let workers = jobs
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        for index in Swift.stride(from: worker, to: work.count, by: workers) {
            do {
                let start = threadCPUSeconds()
                _ = try renderItem(work[index].0, work[index].1)
                totals.add(draw: threadCPUSeconds() - start, encode: 0)
            } catch { totals.fail() }
        }
    }
    let cpu = cpuSeconds() - cpuStart, wall = Date().timeIntervalSince(wallStart)
    let count = Double(work.count)
    print(String(format: "cards (--jobs %d, %d types × %d rounds = %d items, 6 cards each): %.1f ms CPU per item, "
                 + "%.1f items/s wall%@", jobs, pairs.count, rounds, work.count, cpu / count * 1000, count / wall,
                 totals.failures > 0 ? ", \(totals.failures) FAILED" : ""))
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
