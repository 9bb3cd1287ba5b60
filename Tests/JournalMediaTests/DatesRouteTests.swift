import Dispatch
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// `POST /v1/dates` reads metadata in a slot of the server's executor, as uploads are
/// processed: not on the threads that answer the other requests. Before, it read on the
/// request's own thread (a movie's libavformat header parse included), beside the executor's
/// bound, so enough slow reads at once stalled `/healthz` too.
@Suite(.serialized) struct DatesRouteTests {
    /// With the executor's only slot taken, a dates read waits for it (in the executor's
    /// queue, holding no thread) while `/healthz` still answers; it answers once the slot is
    /// free. Loopback only, bounded: each wait below gives up after 20 s.
    @Test func aDatesReadWaitsForAnExecutorSlotWhileHealthzAnswers() async throws {
        var configuration = ServeConfiguration()
        configuration.maxConcurrentAssets = 1
        configuration.maxQueued = 4
        try await ServerTests.withServer(configuration) { base, server in
            let executor = server.executor
            let slotMayGo = DispatchSemaphore(value: 0)
            let holder = Task { await executor.run(under: DecodeGuard()) { slotMayGo.wait() } }
            defer { slotMayGo.signal() }
            try await Self.wait("the holder takes the slot") { executor.counters.running == 1 }

            let photo = try ServerTests.sample("dates/IMG-20230101-WA0001.jpg")
            let dates = Task {
                try await ServerTests.request(base.appendingPathComponent("v1/dates"), method: "POST", body: photo,
                                              headers: ["X-Filename": "IMG-20230101-WA0001.jpg"])
            }
            try await Self.wait("the dates read waits for the executor's slot") { executor.counters.waiting == 1 }
            let health = try await ServerTests.request(base.appendingPathComponent("healthz"))
            #expect(health.status == 200, "the server answers while the read waits")
            #expect(executor.counters.waiting == 1, "the read still waits")

            slotMayGo.signal()
            _ = await holder.value
            let reply = try await dates.value
            #expect(reply.status == 200)
            #expect((reply.json["captureDate"] as? [String: Any])?["local"] as? String != nil)
            // The reply can reach the client a moment before the slot's bookkeeping ends.
            try await Self.wait("the slot is free again, both works completed") {
                executor.counters.running == 0 && executor.counters.completed >= 2
            }
        }
    }

    /// Polls `condition` every 10 ms for up to 20 s; records `what` as an issue if it never holds.
    static func wait(_ what: String, _ condition: () -> Bool) async throws {
        let start = Date()
        while !condition() {
            guard Date().timeIntervalSince(start) < 20 else {
                Issue.record("never: \(what)")
                return
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}
