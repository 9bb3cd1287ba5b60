import Foundation
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// Issue 27, item 5: header, idle and body time limits on every connection and route, a
/// connection cap, and a grace period that bounds shutdown whatever the clients do. Raw
/// loopback sockets; every wait is bounded.
@Suite(.serialized) struct ServerConnectionLimitTests {
    /// Settings through the environment, as an operator would give them.
    static func configuration(_ variables: [String: String]) throws -> ServeConfiguration {
        var configuration = ServeConfiguration()
        try configuration.apply(environment: variables)
        return configuration
    }

    /// A slowloris client: half a request head, then nothing. Closed within the header limit.
    @Test func aPartialHeaderIsClosedWithinTheHeaderTimeout() async throws {
        let configuration = try Self.configuration(["JM_HEADER_TIMEOUT_SECONDS": "1"])
        try await ServerTests.withServer(configuration) { base, _ in
            let client = try LoopbackSocket(port: try #require(base.port))
            client.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let read = client.readUntilClosed(within: 8)
            let closedAfter = try #require(read.closedAfter, "the connection was still open after 8 s")
            #expect(closedAfter < 4, "closed after \(closedAfter) s")
            #expect(read.text.isEmpty, "no answer to half a head: \(read.text)")
        }
    }

    /// A chunked body to /v1/dates that never ends (one byte every 100 ms): 408 and closed
    /// within the body limit, as on the upload routes.
    @Test func anEndlessChunkedBodyToDatesGets408WithinTheBodyTimeout() async throws {
        var configuration = ServeConfiguration()
        configuration.bodyTimeoutSeconds = 1
        try await ServerTests.withServer(configuration) { base, _ in
            let client = try LoopbackSocket(port: try #require(base.port))
            client.send("POST /v1/dates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: endless.jpg\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n")
            let sending = Atomic<Bool>(true)
            let trickle = Thread {
                while sending.load(ordering: .relaxed) && client.send("1\r\na\r\n") { usleep(100_000) }
            }
            trickle.start()
            defer { sending.store(false, ordering: .relaxed) }
            let read = client.readUntilClosed(within: 10)
            let closedAfter = try #require(read.closedAfter, "the connection was still open after 10 s")
            #expect(closedAfter < 5, "closed after \(closedAfter) s")
            #expect(read.text.hasPrefix("HTTP/1.1 408"), "\(read.text)")
        }
    }

    /// A full server (`maxConnections` open, both on half a head) makes room for a health
    /// check by closing the connection that has waited longest for its head.
    @Test func aFullServerClosesTheLongestWaitingConnectionForANewOne() async throws {
        let configuration = try Self.configuration(["JM_MAX_CONNECTIONS": "2"])
        try await ServerTests.withServer(configuration) { base, _ in
            let port = try #require(base.port)
            let oldest = try LoopbackSocket(port: port)
            oldest.send("GET /healthz HTTP/1.1\r\n")
            try await Task.sleep(nanoseconds: 200_000_000)
            let newer = try LoopbackSocket(port: port)
            newer.send("GET /healthz HTTP/1.1\r\n")
            try await Task.sleep(nanoseconds: 200_000_000)
            let health = try await ServerTests.request(base.appendingPathComponent("healthz"))
            #expect(health.status == 200)
            #expect(oldest.readUntilClosed(within: 3).closedAfter != nil, "the longest-waiting connection was closed")
        }
    }

    /// When every open connection is busy with a request (two stalled uploads), a newcomer is
    /// closed at once rather than held.
    @Test func aServerFullOfBusyConnectionsClosesNewcomers() async throws {
        let configuration = try Self.configuration(["JM_MAX_CONNECTIONS": "2"])
        try await ServerTests.withServer(configuration) { base, _ in
            let port = try #require(base.port)
            let uploads = try (0..<2).map { _ in try LoopbackSocket(port: port) }
            for upload in uploads {
                upload.send("POST /v1/dates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: a.jpg\r\nContent-Length: 100000\r\n\r\nab")
            }
            try await Task.sleep(nanoseconds: 300_000_000)
            let third = try LoopbackSocket(port: port)
            third.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let refused = third.readUntilClosed(within: 5)
            #expect(refused.closedAfter != nil && !refused.text.contains("200"), "\(refused)")
        }
    }

    /// SIGTERM while an upload is stalled half-way (and another client sits on half a
    /// head): the server exits 0 within the grace period and a small margin.
    @Test func sigtermWithAStalledUploadExitsWithinTheGracePeriod() async throws {
        let server = try ServeProcess(["--grace-period", "2"], environment: ["JM_BODY_TIMEOUT_SECONDS": "600",
                                                                             "JM_HEADER_TIMEOUT_SECONDS": "600"])
        let upload = try LoopbackSocket(port: server.port)
        upload.send("POST /v1/dates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filename: stalled.jpg\r\n"
                    + "Content-Length: 1000000\r\n\r\n\u{FF}\u{D8}")
        let halfHead = try LoopbackSocket(port: server.port)
        halfHead.send("GET /healthz HTTP/1.1\r\n")
        try await Task.sleep(nanoseconds: 300_000_000)
        kill(server.process.processIdentifier, SIGTERM)
        let exitedAfter = server.waitForExit(within: 15)
        print("SIGTERM with a stalled upload: exited after \(exitedAfter.map { String(format: "%.2f", $0) } ?? "> 15") s (grace 2 s)")
        let seconds = try #require(exitedAfter, "still running 15 s after SIGTERM")
        #expect(seconds < 2 + 2, "exited after \(seconds) s")
        #expect(server.process.terminationReason == .exit && server.process.terminationStatus == 0)
    }
}
