import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Cooperative cancellation and deadlines through `DecodeGuard`: at stage boundaries, inside
/// a libvips computation (kill flag from the eval callback) and inside libav (interrupt
/// callback), for single assets and for a `Batch`.
@Suite(.serialized) struct CancellationTests {
    /// One large rendition of a vector drawing: librsvg renders thousands of shapes into a
    /// 4000×4000 canvas tile by tile, a decode long enough to cancel half-way.
    static let bigSpecs = [RenditionSpec(role: "poster", format: .jpeg, width: 4000)]

    /// An SVG of `shapes` overlapping, semi-transparent circles and curves (deterministic).
    static func heavySVG(shapes: Int = 300) -> [UInt8] {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">"#
        for index in 0..<shapes {
            let colour = String(format: "#%06X", next(0xFFFFFF))
            if index % 2 == 0 {
                svg += #"<circle cx="\#(next(1000))" cy="\#(next(1000))" r="\#(20 + next(200))" fill="\#(colour)" fill-opacity="0.3"/>"#
            } else {
                svg += #"<path d="M\#(next(1000)) \#(next(1000)) C\#(next(1000)) \#(next(1000)) \#(next(1000)) \#(next(1000)) \#(next(1000)) \#(next(1000))" stroke="\#(colour)" stroke-width="\#(1 + next(30))" fill="none" stroke-opacity="0.5"/>"#
            }
        }
        return Array((svg + "</svg>").utf8)
    }

    /// When the canceller thread called `cancel()`, and when the work it cancelled returned.
    final class CancelClock: @unchecked Sendable {
        private let lock = NSLock()
        private var time: UInt64 = 0
        private var stopped: UInt64 = 0
        private var done = false
        func mark() { lock.withLock { time = DecodeGuard.monotonicNow() } }
        func markStopped() { lock.withLock { stopped = DecodeGuard.monotonicNow() } }
        /// Seconds from `cancel()` to the executor's slot coming free.
        var stopLatency: Double { lock.withLock { Double(stopped &- time) / 1e9 } }
        /// The run has returned: a canceller still waiting for it to start gives up.
        func finish() { lock.withLock { done = true } }
        var finished: Bool { lock.withLock { done } }
    }

    /// A decode deadline no test run reaches, for the tests that measure cancellation alone.
    static let noDeadline: Double = 3600

    static func seconds(since start: UInt64) -> Double {
        Double(DecodeGuard.monotonicNow() - start) / 1e9
    }

    /// An 8000×8000 PNG (a sine pattern, so the file stays small) made by libvips: a PNG
    /// cannot shrink on load, so its decode inflates and reduces all 64 MP, strip by strip.
    static let bigPNG: [UInt8] = {
        do {
            let sines = try VipsOperationCall("sines")
            try sines.set("width", .int(8000))
            try sines.set("height", .int(8000))
            try sines.set("hfreq", .double(37))
            try sines.set("vfreq", .double(23))
            try sines.build()
            let linear = try VipsOperationCall("linear")
            try linear.set("in", .image(try sines.outputImage()))
            try linear.set("a", .doubles([120]))
            try linear.set("b", .doubles([128]))
            try linear.build()
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(try linear.outputImage()))
            try cast.set("format", .nick("uchar"))
            try cast.build()
            let save = try VipsOperationCall("pngsave_buffer")
            try save.set("in", .image(try cast.outputImage()))
            try save.set("compression", .int(1))
            try save.build()
            return try save.outputBytes()
        } catch {
            return []
        }
    }()

    /// Cancels a decode in flight (after an uncancelled reference run of the same file) and
    /// measures how long after `cancel()` the call returns.
    static func cancelHalfWay(_ bytes: [UInt8], name: String, specs: [RenditionSpec]) async throws -> (full: Double, wait: Double, latency: Double, result: AssetResult) {
        // An executor of its own: the shared one may be busy with other suites' assets.
        // No decode deadline: these tests are about cancellation, and on a loaded machine the
        // reference run can outlast the default --timeout (it then reads as `timeout`).
        let processor = AssetProcessor(options: ProcessingOptions(renditions: specs, timeoutSeconds: Self.noDeadline,
                                                                  analyzeColors: false),
                                       executor: AssetExecutor(maxConcurrentAssets: 1))
        let start = DecodeGuard.monotonicNow()
        let complete = await processor.process(data: bytes, filename: name)
        let fullSeconds = Self.seconds(since: start)
        #expect(complete.error == nil, "\(String(describing: complete.error))")
        #expect(complete.renditions.count == specs.count)
        try #require(fullSeconds > 0.2, "the decode must take long enough to cancel half-way (took \(fullSeconds) s)")
        // Cancel once the asset is running (the executor's counter) plus a tenth of the
        // reference run, and keep the first run stopped inside libvips' computation (its
        // error says how far it got). The reference can be inflated or deflated by the load
        // of other suites decoding at once, so a run that finished before the cancel reached
        // it is tried again with half the wait, and one stopped before its computation began
        // (at a stage boundary, e.g. still reading the header) with twice the wait. A stop
        // that never comes fails in the caller.
        let executor = processor.executor
        var last = AssetResult(source: name)
        var wait = min(fullSeconds * 0.1, 0.3)
        for _ in 0..<6 {
            let task = Task { await processor.process(data: bytes, filename: name) }
            // The cancel comes from a thread of its own: in the full suite, other suites'
            // work can hold every thread of Swift's cooperative pool for seconds, so a
            // `Task.sleep` here could wake only after the decode had finished.
            let clock = CancelClock()
            let canceller = Thread { [wait] in
                while executor.counters.running == 0 && !clock.finished { usleep(500) }
                usleep(useconds_t(wait * 1e6))
                clock.mark()
                task.cancel()
                // The executor frees the slot on the work's thread as the work returns, so
                // this is when the work stopped, not when the awaiting task resumed (that
                // needs a pool thread, which other suites can hold for seconds).
                while executor.counters.running > 0 { usleep(200) }
                clock.markStopped()
            }
            canceller.start()
            let result = await task.value
            clock.finish()
            while !canceller.isFinished { try await Task.sleep(nanoseconds: 1_000_000) }
            let latency = clock.stopLatency
            last = result
            guard let error = result.error else {
                wait /= 2
                continue
            }
            print("cancellation \(name): full run \(String(format: "%.3f", fullSeconds)) s, cancelled \(Int(wait * 1000)) ms into the run, returned \(String(format: "%.1f", latency * 1000)) ms after cancel: \(error.message)")
            if stoppedPercent(error.message) == nil, wait < fullSeconds * 0.5 {
                wait *= 2
                continue
            }
            return (fullSeconds, wait, latency, result)
        }
        return (fullSeconds, 0, .infinity, last)
    }

    @Test func cancellingATaskStopsALibvipsDecodeMidWay() async throws {
        try #require(!Self.bigPNG.isEmpty)
        let specs = [RenditionSpec(role: "fallback", format: .jpeg, width: 1600)]
        let (full, wait, latency, result) = try await Self.cancelHalfWay(Self.bigPNG, name: "big.png", specs: specs)
        guard let error = result.error else {
            Issue.record("the cancelled decode ran to the end")
            return
        }
        #expect(error.reason == .cancelled)
        #expect(error.stage == .decode, "stopped in \(error.stage)")
        #expect(error.file == "big.png")
        #expect(result.renditions.isEmpty)
        #expect(Self.stoppedPercent(error.message).map { $0 < 100 } == true, "not stopped inside the decode: \(error.message)")
        // < 1 s on a quiet machine (9–40 ms measured). Otherwise the run must end well before it would have without the cancel. The reference and
        // the cancelled run share the machine with the rest of the suite, so the bound is
        // relative to the reference, not an absolute figure.
        #expect(latency < 1.0 || wait + latency < full * 0.85, "returned \(latency) s after cancel, \(wait) s into a run that took \(full) s")
    }

    /// librsvg draws a whole libvips tile (2000×2000 px for SVG) per call, so an SVG stops
    /// at the end of the tile in flight: coarser than a raster decode, still well bounded.
    @Test func cancellingATaskStopsAnSVGRenderMidWay() async throws {
        let (full, wait, latency, result) = try await Self.cancelHalfWay(Self.heavySVG(), name: "drawing.svg", specs: Self.bigSpecs)
        #expect(result.error?.reason == .cancelled)
        // libvips saw the kill flag inside the render, before its end: the error says how far
        // it had got. Without the eval callback's kill the render would run to the end and
        // the stop would come at the next stage boundary, with no percentage.
        let message = result.error?.message ?? ""
        #expect(Self.stoppedPercent(message).map { $0 < 100 } == true, "not stopped inside the render: \(message)")
        // The stop lands at the end of the tile in flight (72 ms after the cancel on a quiet
        // machine), so the bound is only that it never runs on past what a whole run takes.
        #expect(latency < max(2.0, full * 1.5), "returned \(latency) s after cancel, \(wait) s into a run that took \(full) s")
    }

    /// The percentage in a stop error's "stopped N % into …", nil when it has none.
    static func stoppedPercent(_ message: String) -> Int? {
        guard let range = message.range(of: "stopped ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isNumber }
        guard message[range.upperBound...].dropFirst(digits.count).hasPrefix(" % into") else { return nil }
        return Int(digits)
    }

    /// A decode waiting for the whole-image gate (another asset's large AVIF or JPEG XL holds
    /// it exclusively) ends when its caller cancels, rather than waiting for the other decode:
    /// a server request whose client has gone must not sit in that queue.
    @Test func aCancelEndsTheWaitForTheWholeImageGate() async throws {
        #expect(WholeImageDecodeGate.enter(exclusive: true) == nil)
        // Give the gate back after 20 s at the latest, so a wait that ignores the cancel
        // fails this test rather than hanging the suite.
        let release = OnceRelease()
        Thread.detachNewThread {
            usleep(20_000_000)
            release.run()
        }
        defer { release.run() }
        let processor = AssetProcessor(options: ProcessingOptions(timeoutSeconds: Self.noDeadline, analyzeColors: false),
                                       executor: AssetExecutor(maxConcurrentAssets: 1))
        let bytes = try Array(Data(contentsOf: TestSupport.sample("cmyk.jpg")))
        let task = Task { await processor.process(data: bytes, filename: "cmyk.jpg") }
        while processor.executor.counters.running == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let start = DecodeGuard.monotonicNow()
        task.cancel()
        let result = await task.value
        let waited = Self.seconds(since: start)
        let gateWasHeld = !release.done
        release.run()
        #expect(gateWasHeld, "the cancelled decode waited until the gate was given back")
        #expect(result.error?.reason == .cancelled)
        #expect(result.error?.stage == .decode)
        #expect(result.renditions.isEmpty)
        print("gate wait: returned \(String(format: "%.1f", waited * 1000)) ms after cancel")
    }

    /// Gives the test's exclusive hold on the gate back, once.
    final class OnceRelease: @unchecked Sendable {
        private let lock = NSLock()
        private var released = false
        var done: Bool { lock.withLock { released } }
        func run() {
            let first = lock.withLock { () -> Bool in
                defer { released = true }
                return !released
            }
            if first { WholeImageDecodeGate.leave(exclusive: true) }
        }
    }

    @Test func aTaskCancelledBeforeItStartsNeverReads() async throws {
        let processor = AssetProcessor()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        }
        let result = await task.value
        #expect(result.error?.reason == .cancelled)
        #expect(result.error?.stage == .read)
        #expect(result.sha256 == nil && result.renditions.isEmpty)
    }

    @Test func aDeadlineStopsTheSameDecodeWithATimeout() throws {
        let processor = AssetProcessor(options: ProcessingOptions(
            renditions: [RenditionSpec(role: "fallback", format: .jpeg, width: 1600)], analyzeColors: false))
        let probe = ProbedAsset(data: Self.bigPNG, name: "big.png", modified: nil)
        // 0.15 s is well inside the PNG's computation alone (152 ms measured). Under the load
        // of other suites the header read can outlast it, so a deadline that fell before the
        // computation began (the error has no "N % into") is tried again with twice the time,
        // as the cancellation tests do; a deadline that never stops the decode fails below.
        var deadline = 0.15
        var outcome: (error: AssetError, elapsed: Double)?
        for _ in 0..<5 {
            let start = DecodeGuard.monotonicNow()
            let result = processor.process(probe, stop: DecodeGuard(deadlineSeconds: deadline))
            let elapsed = Self.seconds(since: start)
            print("deadline: \(deadline) s deadline returned after \(String(format: "%.1f", elapsed * 1000)) ms")
            let error = try #require(result.error)
            outcome = (error, elapsed)
            if Self.stoppedPercent(error.message) != nil { break }
            deadline *= 2
        }
        let (error, elapsed) = try #require(outcome)
        #expect(error.reason == .timeout)
        #expect(error.message.contains("deadline of \(deadline) s"), "\(error.message)")
        // Stopped inside libvips' computation, not at a stage boundary after it: the message
        // says how far it had got.
        #expect(error.message.contains("% into"), "\(error.message) at \(error.stage)")
        #expect(elapsed < deadline + 3.0, "152 ms measured alone")
    }

    @Test func libavStopsThroughItsInterruptCallback() throws {
        let movie = TestSupport.sample("video-rotated-90.mp4").path
        // Without a stop the movie opens and yields a poster …
        let media = try MediaFile(path: movie)
        #expect(try media.posterFrame().width > 0)
        // … with a tripped guard libav's interrupt callback and reads end the open at once.
        let stop = DecodeGuard()
        stop.cancel()
        #expect(throws: AssetError.self) { _ = try MediaFile(path: movie, stop: stop) }
        // Through the pipeline, the guard's reason replaces libav's words.
        let processor = AssetProcessor()
        let probe = ProbedAsset.open(URL(fileURLWithPath: movie), name: "movie.mp4")
        let content = try probe.load()
        let result = processor.process(probe, content: content, stop: stop)
        #expect(result.error?.reason == .cancelled)
        #expect(result.error?.stage == .decode)
    }

    @Test func cancellingABatchStopsItAndKeepsTheFinishedAssets() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["cmyk.jpg"], to: input)
        for index in 0..<8 {
            try Data(Self.bigPNG).write(to: input.appendingPathComponent("big-\(index).png"))
        }
        let options = ProcessingOptions(renditions: [RenditionSpec(role: "fallback", format: .jpeg, width: 1600)],
                                        timeoutSeconds: Self.noDeadline, analyzeColors: false)
        // The reference: one of the big PNGs decoded alone, start to end, on this machine now.
        let referenceStart = DecodeGuard.monotonicNow()
        let reference = AssetProcessor(options: options).process(ProbedAsset(data: Self.bigPNG, name: "big.png", modified: nil))
        let oneDecode = Self.seconds(since: referenceStart)
        #expect(reference.error == nil)
        let batch = Batch(inputs: [input], output: output, options: options, jobs: 2)
        let task = Task { try await batch.run() }
        try await Task.sleep(nanoseconds: 600_000_000)
        let cancelledAt = DecodeGuard.monotonicNow()
        task.cancel()
        let outcome = await task.result
        let latency = Self.seconds(since: cancelledAt)
        print("batch cancellation: returned \(String(format: "%.1f", latency * 1000)) ms after cancel")
        guard case .failure(let failure) = outcome, case .cancelled(let done, let total)? = failure as? BatchError else {
            Issue.record("expected BatchError.cancelled, got \(outcome)")
            return
        }
        #expect(total == 9 && done < total)
        // 64 ms measured alone; under the whole suite's load the in-flight units may wait
        // for a CPU before they see the stop, but they must stop mid-way: well before an
        // in-flight decode would have ended (two run at once, so one alone is the bound).
        // Under the full suite at load 7–10 it returned 6.0 s after cancel (one decode alone
        // 1.5 s): most of that is the awaiting task waiting for a cooperative-pool thread, so
        // the bound is generous; `done < total` above is what shows the batch stopped early.
        #expect(latency < max(10.0, 2 * oneDecode), "returned \(latency) s after cancel; one decode alone takes \(oneDecode) s")
        let manifest = try Manifest.decode(Data(contentsOf: output.appendingPathComponent(Batch.manifestName)))
        #expect(manifest.assets.count == done)
        #expect(manifest.assets.allSatisfy { $0.error == nil }, "cancelled assets are not recorded as failures")
    }
}
