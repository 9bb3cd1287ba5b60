// `heic-bench`: the HEIC levers of issue 29, measured outside the batch (one thread unless
// told otherwise, thread CPU time, median of RUNS=3):
//   heic-bench floor FILE…                 CPU of decoding each file's primary HEVC tiles with
//                                          libavcodec alone (one thread, loop filters on):
//                                          the floor journal-media's decode is compared with
//   heic-bench floor2 FILE…                the same tiles split between two threads (two
//                                          decoders), wall time: what decoding one asset's
//                                          tiles on both cores could save at most
//   heic-bench slice2 FILE…                the tiles on one decoder with libavcodec's two slice
//                                          threads (wavefronts: iPhones' tiles have them), wall time
//   heic-bench cores FILE…                 the HEVC path's decode to the 1600 px box on one
//                                          thread and with a spare core (`SpareCores`), in turn:
//                                          wall and process CPU of each, and whether the pixels match
//   heic-bench decode MODE OUT_DIR FILE…   the HEVC path's decode to the 1600 px box (MODE:
//                                          filtered | unfiltered | auto), CPU per file, and
//                                          OUT_DIR/NAME.image.png for Benchmarks/heic_quality.py
// Prints one line per file and a total line: "name ms". Run from `Benchmarks/real_photos.sh`.
import Foundation
import Glibc
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaImaging
import JournalMediaVideo

func threadCPU() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 3
var arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    FileHandle.standardError.write(Data("usage: heic-bench floor|floor2|slice2|cores FILE… | heic-bench decode filtered|unfiltered|auto OUT_DIR FILE…\n".utf8))
    exit(2)
}
arguments.removeFirst()
var total = 0.0
switch mode {
case "floor", "slice2":
    // floor: thread CPU on one thread; slice2: wall time with libavcodec's two slice threads.
    let sliceThreads = mode == "slice2" ? 2 : 1
    func now() -> Double { sliceThreads == 1 ? threadCPU() : Date().timeIntervalSinceReferenceDate }
    for path in arguments {
        guard let data = FileManager.default.contents(atPath: path),
              let coded = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: Array(data)))?.primary else {
            print("\((path as NSString).lastPathComponent) -"); continue
        }
        var times: [Double] = []
        for _ in 0..<runs {
            let start = now()
            do {
                let decoder = try HEVCTileDecoder(configuration: coded.configuration, sliceThreads: sliceThreads)
                let frame = try LibavFrame()
                for tile in coded.tiles { try decoder.decode(tile, into: frame) }
            } catch { print("\((path as NSString).lastPathComponent) error \(error.message)"); break }
            times.append(now() - start)
        }
        guard !times.isEmpty else { continue }
        total += median(times)
        print("\((path as NSString).lastPathComponent) \(String(format: "%.1f", median(times) * 1000))")
    }
case "floor2":
    for path in arguments {
        guard let data = FileManager.default.contents(atPath: path),
              let coded = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: Array(data)))?.primary else {
            print("\((path as NSString).lastPathComponent) -"); continue
        }
        let tiles = coded.tiles
        let configuration = coded.configuration
        var times: [Double] = []
        for _ in 0..<runs {
            let start = Date()
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                guard let decoder = try? HEVCTileDecoder(configuration: configuration), let frame = try? LibavFrame() else { return }
                for index in stride(from: half, to: tiles.count, by: 2) { try? decoder.decode(tiles[index], into: frame) }
            }
            times.append(Date().timeIntervalSince(start))
        }
        total += median(times)
        print("\((path as NSString).lastPathComponent) \(String(format: "%.1f", median(times) * 1000))")
    }
case "cores":
    // name, then one thread (wall, CPU) and a spare core (wall, CPU), ms, and "same" or "DIFFER".
    func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    var totals = [0.0, 0.0, 0.0, 0.0]
    for path in arguments {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let bytes = Array(data)
        var walls: [[Double]] = [[], []], cpus: [[Double]] = [[], []], pixels: [[UInt8]?] = [nil, nil]
        for _ in 0..<runs {
            for (index, spare) in [SpareCores.none, SpareCores { 1 }].enumerated() {
                let (start, cpu) = (Date(), processCPU())
                let result = bytes.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: 1600, boxHeight: 1600, spareCores: spare) }
                walls[index].append(Date().timeIntervalSince(start))
                cpus[index].append(processCPU() - cpu)
                pixels[index] = try? result.get().rgb
            }
        }
        let figures = [median(walls[0]), median(cpus[0]), median(walls[1]), median(cpus[1])]
        for index in 0..<4 { totals[index] += figures[index] }
        print("\(name) " + figures.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ")
              + (pixels[0] == pixels[1] ? " same" : " DIFFER"))
    }
    print("total " + totals.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " "))
    exit(0)
case "decode":
    guard arguments.count >= 2 else { exit(2) }
    let filter: HEIFHEVCDecoder.LoopFilter = switch arguments[0] {
    case "filtered": .always
    case "unfiltered": .never
    default: .automatic
    }
    let out = URL(fileURLWithPath: arguments[1])
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    for path in arguments.dropFirst(2) {
        let name = (path as NSString).lastPathComponent
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        let bytes = Array(data)
        var times: [Double] = [], last: HEIFDecodedRGB?
        for _ in 0..<runs {
            let start = threadCPU()
            let result = bytes.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: 1600, boxHeight: 1600, loopFilter: filter) }
            times.append(threadCPU() - start)
            if case .failure(let reason) = result { print("\(name) declined: \(reason.message)"); break }
            last = try? result.get()
        }
        guard let last, times.count == runs else { continue }
        total += median(times)
        print("\(name) \(String(format: "%.1f", median(times) * 1000))")
        let decoded = try ImageDecoder.decode(heic: last)
        let png = try RenditionRenderer.render(decoded, spec: RenditionSpec(role: "image", format: .png, width: 1600),
                                               sourceWidth: last.width, sourceHeight: last.height, allowUpscale: false)
        try Data(png.data).write(to: out.appendingPathComponent(name + ".image.png"))
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
}
print("total \(String(format: "%.1f", total * 1000))")
