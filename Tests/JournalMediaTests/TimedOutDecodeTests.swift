import Dispatch
import Foundation
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 27, item 2: a decode that runs past its deadline keeps its executor slot until it
/// has really returned, and is told to stop, so the core and the threads it held come back
/// soon after the deadline, not when the decoder would have finished.
@Suite(.serialized) struct TimedOutDecodeTests {
    /// A decoder that ignores its guard (as libheif does): the caller is answered at the
    /// deadline, the slot stays taken, and the next work starts only after the decoder returns.
    @Test func anAbandonedDecodeKeepsItsSlotUntilItReturns() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "test-abandoned-decode")
        let decoderMayReturn = DispatchSemaphore(value: 0)
        let decoderReturned = Atomic<Bool>(false)
        let item = DecodeGuard()
        let stopped = try await executor.run(under: item) { () -> Bool in
            let outcome = DeadlineThread.run(under: DecodeGuard(deadlineSeconds: 0.1, parent: item)) { () -> Int in
                decoderMayReturn.wait()
                decoderReturned.store(true, ordering: .sequentiallyConsistent)
                return 1
            }
            if case .stopped(.deadline) = outcome { return true }
            return false
        }.get()
        #expect(stopped, "the caller is answered at the deadline")
        #expect(executor.counters.running == 1, "the slot is still taken by the decode that has not returned")
        let next = Task { try await executor.run { decoderReturned.load(ordering: .sequentiallyConsistent) } }
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(executor.counters.waiting == 1, "the next work waits for the slot")
        decoderMayReturn.signal()
        #expect(try await next.value, "the next work ran only after the abandoned decode returned")
        #expect(executor.counters.running == 0)
    }

    /// The same when the work hands its items to other threads (a suggestion bundle's items,
    /// run by `concurrentPerform`): the decode's guard is a child of the slot's, handed down, so the
    /// slot is held although the decode did not start on the slot's thread. Before the slot
    /// hold travelled with the guard it was read from the slot's thread, and such a decode
    /// freed the slot at once.
    @Test func aDecodeAbandonedOnAnotherThreadOfTheWorkKeepsTheSlot() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "test-abandoned-elsewhere")
        let decoderMayReturn = DispatchSemaphore(value: 0)
        let item = DecodeGuard()
        let ran = await executor.run(under: item) { () -> Bool in
            // The decode's caller runs on a thread of the work's own, not on the slot's.
            let answered = DispatchSemaphore(value: 0)
            Thread {
                let outcome = DeadlineThread.run(under: DecodeGuard(deadlineSeconds: 0.1, parent: item)) { () -> Int in
                    decoderMayReturn.wait()
                    return 1
                }
                if case .stopped = outcome { answered.signal() }
            }.start()
            return answered.wait(timeout: .now() + 10) == .success
        }
        #expect((try? ran.get()) == true, "the caller is answered at the deadline")
        #expect(executor.counters.running == 1, "the slot is held until the decode returns")
        decoderMayReturn.signal()
        let start = Date()
        while executor.counters.running > 0 && Date().timeIntervalSince(start) < 10 {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(executor.counters.running == 0, "the slot is free once the decode returned")
    }

    /// librsvg draws each tile in one call; told to stop at the deadline (its next cairo
    /// surface fails), it returns, and only then is the slot free: well before the ~30 s the
    /// drawing takes when left alone on an idle core (longer on a loaded one). The bound is
    /// half of that: the tile in progress when the stop comes is finished first, and on a
    /// shared machine (a release build beside the suite) that alone took just over 10 s.
    @Test func aTimedOutSVGDrawingStopsAndThenFreesItsSlot() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "test-svg-stop")
        let processor = AssetProcessor(options: ProcessingOptions(timeoutSeconds: 1), executor: executor)
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try CraftedFiles.write(Array(DecodeDeadlineTests.blurredSVG.utf8), "blurred.svg", in: folder)
        let start = Date()
        let result = await processor.process(fileAt: file)
        #expect(result.error?.reason == .timeout, "\(String(describing: result.error))")
        while executor.counters.running > 0 && Date().timeIntervalSince(start) < 60 {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let freed = Date().timeIntervalSince(start)
        print("timed-out SVG: slot free \(String(format: "%.2f", freed)) s after the start (deadline 1 s)")
        #expect(freed < 15, "the drawing went on for \(freed) s")
    }

    /// The issue's case on loopback: two rounds of four blurred SVGs (librsvg draws each tile
    /// in one call) sent to a server with a 1 s deadline answer 504, and then the server stops
    /// drawing: no CPU burnt after the answers, and the second round adds no threads to the
    /// first's (libvips keeps a worker per slot). Before the fix each drawing went on for about
    /// half a minute on a thread of its own: CPU burnt after every answer, threads growing.
    @Test func timedOutSVGUploadsStopDrawingAndGiveTheirThreadsBack() async throws {
        let server = try ServeProcess(["--max-concurrent-assets", "2", "--max-queued", "8", "--deadline", "1"])
        let url = server.base.appendingPathComponent("v1/assets")
        // Warm up libvips, the thread pools and the route once (its answer does not matter: on a
        // loaded machine even this small drawing can miss a 1 s deadline).
        _ = try await ServerTests.request(url, method: "POST", body: try ServerTests.sample("icon.svg"),
                                          headers: ["X-Filename": "icon.svg"])
        let threadsBefore = server.threads
        let svg = Data(DecodeDeadlineTests.blurredSVG.utf8)
        var threadsAfterRound: [Int] = []
        for round in 1...2 {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await ServerTests.request(url, method: "POST", body: svg,
                                                      headers: ["X-Filename": "blurred-\(index).svg"]).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == [504, 504, 504, 504], "round \(round): \(statuses)")
            // Give the drawings told to stop a moment to unwind (one filter pass each), then watch.
            try await Task.sleep(nanoseconds: 1_500_000_000)
            let cpuAfterAnswers = server.cpuSeconds
            try await Task.sleep(nanoseconds: 2_000_000_000)
            let burnt = server.cpuSeconds - cpuAfterAnswers
            threadsAfterRound.append(server.threads)
            print("timed-out SVGs, round \(round): threads \(threadsBefore) → \(threadsAfterRound); "
                  + "CPU \(String(format: "%.2f", burnt)) s in the 2 s after")
            #expect(burnt < 0.5, "round \(round): the server went on drawing: \(burnt) s of CPU in 2 s")
        }
        #expect(threadsAfterRound[1] <= threadsAfterRound[0] + 1, "threads \(threadsBefore) → \(threadsAfterRound)")
        #expect(threadsAfterRound[1] <= threadsBefore + 4, "threads \(threadsBefore) → \(threadsAfterRound)")
    }
}
