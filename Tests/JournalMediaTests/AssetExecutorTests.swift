import Foundation
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// `AssetExecutor`: at most N assets in flight however many callers; waiters cancellable;
/// a bounded queue refuses instead of growing.
@Suite(.serialized) struct AssetExecutorTests {
    /// A JPEG of noise made by libvips (noise keeps the encoder from making it tiny).
    static func noiseJPEG(width: Int = 1200, height: Int = 900) throws -> [UInt8] {
        let noise = try VipsOperationCall("gaussnoise")
        try noise.set("width", .int(width))
        try noise.set("height", .int(height))
        try noise.set("sigma", .double(40))
        try noise.build()
        let cast = try VipsOperationCall("cast")
        try cast.set("in", .image(try noise.outputImage()))
        try cast.set("format", .nick("uchar"))
        try cast.build()
        let colour = try VipsOperationCall("colourspace")
        try colour.set("in", .image(try cast.outputImage()))
        try colour.set("space", .nick("srgb"))
        try colour.build()
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(try colour.outputImage()))
        try save.set("Q", .int(90))
        try save.build()
        return try save.outputBytes()
    }

    /// Peak resident set size of this process (VmHWM) in MB, after `resetPeak()`.
    static func peakRSSMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return -1 }
        return kilobytes / 1024
    }

    /// Resets VmHWM to the current RSS (Linux: writing 5 to /proc/self/clear_refs).
    static func resetPeak() { try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8) }

    /// 200 concurrent `process(fileAt:)` calls on executors of N = 1, 2, 4: every call
    /// succeeds with the same bytes, at most N ran at once (the executor's own counters), and
    /// the peak RSS of each run is printed (it grows with N, not with the 200 callers).
    @Test(arguments: [1, 2, 4])
    func twoHundredConcurrentCallsRunAtMostN(n: Int) async throws {
        let folder = try TestSupport.temporaryFolder("executor\(n)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("noise.jpg")
        try Data(try Self.noiseJPEG()).write(to: file)
        let executor = AssetExecutor(maxConcurrentAssets: n)
        // One small rendition, no colour analysis: the test is about the executor, not speed.
        let options = ProcessingOptions(renditions: [RenditionSpec(role: "thumbnail", format: .webp, width: 256)],
                                        analyzeColors: false)
        let processor = AssetProcessor(options: options, executor: executor)
        let reference = processor.processBlocking(fileAt: file)
        try #require(reference.error == nil)

        Self.resetPeak()
        let baseline = Self.peakRSSMegabytes()
        let start = Date()
        let results = await withTaskGroup(of: AssetResult.self) { group in
            for _ in 0..<200 { group.addTask { await processor.process(fileAt: file) } }
            return await group.reduce(into: [AssetResult]()) { $0.append($1) }
        }
        let peak = Self.peakRSSMegabytes()
        let counters = executor.counters
        print("executor N=\(n): 200 calls in \(String(format: "%.2f", Date().timeIntervalSince(start))) s, peak RSS \(String(format: "%.0f", peak)) MB (\(String(format: "%+.0f", peak - baseline)) MB over the \(String(format: "%.0f", baseline)) MB before), peak running \(counters.peakRunning), peak waiting \(counters.peakWaiting)")
        #expect(results.count == 200)
        #expect(results.allSatisfy { $0.error == nil })
        #expect(results.allSatisfy { $0.renditions.map(\.data) == reference.renditions.map(\.data) })
        #expect(counters.peakRunning == n, "never more than N in flight, and N reached")
        #expect(counters.completed == 200 && counters.running == 0 && counters.waiting == 0)
        #expect(counters.peakWaiting >= 200 - n - 20, "the callers really queued")
    }

    /// Holds the executor's only slot until `open()`.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        func block() { semaphore.wait() }
        func open() { semaphore.signal() }
    }

    @Test func waitersLeaveTheQueueWhenCancelled() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1)
        let gate = Gate()
        let holder = Task { try await executor.run { gate.block() } }
        while executor.counters.running == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        let waiters = (0..<10).map { _ in Task { try await executor.run { 42 } } }
        while executor.counters.waiting < 10 { try await Task.sleep(nanoseconds: 1_000_000) }
        let cancelledAt = Date()
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters {
            await #expect(throws: AssetExecutor.Refusal.cancelled) { try await waiter.value }
        }
        #expect(Date().timeIntervalSince(cancelledAt) < 1, "waiters leave at once, while the slot is still held")
        #expect(executor.counters.cancelledWhileWaiting == 10)
        #expect(executor.counters.waiting == 0 && executor.counters.running == 1)
        gate.open()
        try await holder.value
        // The slot is free again: the next caller runs at once.
        #expect(try await executor.run { 7 } == 7)
        #expect(executor.counters.running == 0 && executor.counters.completed == 2)
    }

    @Test func aFullQueueRefusesAndTheProcessorSaysBusy() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1, maxQueued: 2)
        let gate = Gate()
        let holder = Task { try await executor.run { gate.block() } }
        while executor.counters.running == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        let queued = (0..<2).map { _ in Task { try await executor.run { 1 } } }
        while executor.counters.waiting < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        await #expect(throws: AssetExecutor.Refusal.queueFull) { try await executor.run { 1 } }
        let processor = AssetProcessor(executor: executor)
        let refused = await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        #expect(refused.error?.reason == .busy && refused.error?.stage == .read)
        #expect(executor.counters.refused == 2)
        gate.open()
        try await holder.value
        for task in queued { #expect(try await task.value == 1) }
        let processed = await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        #expect(processed.error == nil)
    }

    @Test func aProcessorCallCancelledWhileWaitingReportsCancelled() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1)
        let gate = Gate()
        let holder = Task { try await executor.run { gate.block() } }
        while executor.counters.running == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        let processor = AssetProcessor(executor: executor)
        let call = Task { await processor.process(fileAt: TestSupport.sample("cmyk.jpg")) }
        while executor.counters.waiting == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        call.cancel()
        let result = await call.value
        #expect(result.error?.reason == .cancelled && result.error?.stage == .read)
        #expect(result.sha256 == nil, "nothing was read")
        gate.open()
        try await holder.value
    }

    /// A batch runs its probes and units on the executor it is given (one scheduler for the
    /// CLI, the library and the service): the executor's counters show every unit and probe
    /// worker, and the batch keeps no more than `jobs` of them in it at once, though the
    /// executor would admit more.
    @Test func aBatchRunsItsUnitsOnTheExecutor() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let samples = ["cmyk.jpg", "orientation-6-gps-p3.jpg", "alpha-disc.png", "scene.webp", "scene.gif", "icon.svg"]
        try TestSupport.copySamples(samples, to: input)
        let executor = AssetExecutor(maxConcurrentAssets: 4, label: "batch-test")
        var configuration = BatchConfiguration(jobs: 2)
        configuration.executor = executor
        let manifest = try await Batch(inputs: [input], output: root.appendingPathComponent("out"),
                                       configuration: configuration).run()
        #expect(manifest.summary.succeeded == samples.count)
        let counters = executor.counters
        #expect(counters.completed == samples.count + 2, "six units and two probe workers ran in its slots")
        #expect(counters.peakRunning >= 1 && counters.peakRunning <= 2, "jobs bounds the batch: \(counters)")
        #expect(counters.running == 0 && counters.waiting == 0)
    }

    /// The guard is handed to the processor, not read from the thread: a guard installed on a
    /// thread by earlier work (another asset's, cancelled) does not stop the next asset given
    /// its own guard there, an explicit cancelled guard stops its asset on a thread with none,
    /// and neither is left installed afterwards. (An installed guard without `stop:` is not
    /// looked for by the pipeline; only the C callbacks below it still reach the thread's.)
    @Test func anAssetsGuardDoesNotLeakToTheNextOnTheSameThread() throws {
        let processor = AssetProcessor()
        let url = TestSupport.sample("cmyk.jpg")
        let cancelled = DecodeGuard()
        cancelled.cancel()
        let mine = cancelled.install { processor.processBlocking(fileAt: url, stop: DecodeGuard()) }
        #expect(mine.error == nil, "another asset's cancelled guard stopped this one: \(String(describing: mine.error))")
        #expect(DecodeGuard.current == nil)
        let explicit = processor.processBlocking(fileAt: url, stop: cancelled)
        #expect(explicit.error?.reason == .cancelled)
        #expect(DecodeGuard.current == nil, "the explicit guard is not left on the thread")
        #expect(processor.processBlocking(fileAt: url).error == nil)
    }
}
