import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import Prometheus
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// `journal-media serve` on an ephemeral loopback port inside the test process: every
/// route, the limits (401/413/422/503/504), `/metrics` as Prometheus text; and the built
/// CLI as a subprocess for SIGTERM draining.
@Suite(.serialized) struct ServerTests {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    static func request(_ url: URL, method: String = "GET", body: Data? = nil,
                        headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = method
        // Generous: under a loaded CI machine one request has taken over 60 s (seen once, niced build).
        request.timeoutInterval = 300
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = body }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: request) { data, response, error in
                if let error { return continuation.resume(throwing: error) }
                guard let http = response as? HTTPURLResponse else { return continuation.resume(throwing: URLError(.badServerResponse)) }
                var fields: [String: String] = [:]
                for (key, value) in http.allHeaderFields { fields["\(key)".lowercased()] = "\(value)" }
                continuation.resume(returning: Reply(status: http.statusCode, headers: fields, body: data ?? Data()))
            }.resume()
        }
    }

    /// Runs `body` against a server with `configuration` on a free loopback port.
    static func withServer(_ configuration: ServeConfiguration, logger given: Logger? = nil,
                           _ body: (URL, JournalMediaServer) async throws -> Void) async throws {
        var configuration = configuration
        configuration.port = 0
        // Cancelling the server at the end of a test makes Hummingbird log errors; keep them out.
        var logger = given ?? Logger(label: "journal-media.serve.test")
        if given == nil { logger.logLevel = .critical }
        let server = JournalMediaServer(configuration: configuration, registry: ServerTests.registry, logger: logger)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let running = Task { try await server.run(signals: []) { port in continuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            running.cancel()
            Issue.record("the server did not start")
            return
        }
        defer { running.cancel() }
        try await body(URL(string: "http://127.0.0.1:\(port)")!, server)
    }

    /// The Prometheus registry the test process's metrics go to.
    static var registry: PrometheusCollectorRegistry { TestMetricsBackend.shared.registry }

    static func sample(_ name: String) throws -> Data { try Data(contentsOf: TestSupport.sample(name)) }

    @Test func everyRouteAnswers() async throws {
        try await Self.withServer(ServeConfiguration()) { base, _ in
            let health = try await Self.request(base.appendingPathComponent("healthz"))
            #expect(health.status == 200 && health.text == "ok\n")
            let ready = try await Self.request(base.appendingPathComponent("readyz"))
            #expect(ready.status == 200)

            let color = try await Self.request(URL(string: "\(base)/v1/color?background=%230A84FF")!)
            #expect(color.status == 200)
            #expect(color.json["foreground"] as? String == "#FFFFFF")
            #expect(color.json["apcaLc"] as? Double == -68.8)
            let badColor = try await Self.request(URL(string: "\(base)/v1/color?background=blue")!)
            #expect(badColor.status == 400 && badColor.headers["content-type"] == "application/problem+json")

            let dated = try Self.sample("dates/IMG-20230101-WA0001.jpg")
            let dates = try await Self.request(base.appendingPathComponent("v1/dates"), method: "POST",
                                               body: dated, headers: ["X-Filename": "IMG-20230101-WA0001.jpg"])
            #expect(dates.status == 200)
            let expected = CaptureDateReader.inspect(ProbedAsset(data: Array(dated), name: "IMG-20230101-WA0001.jpg"))
            #expect(dates.text == expected.jsonLine(source: "IMG-20230101-WA0001.jpg"))
            #expect((dates.json["captureDate"] as? [String: Any])?["local"] as? String != nil)

            // Bytes in over HTTP equal bytes in through the library, rendition for rendition.
            let photo = try Self.sample("orientation-6-gps-p3.jpg")
            let asset = try await Self.request(base.appendingPathComponent("v1/assets"), method: "POST",
                                               body: photo, headers: ["X-Filename": "../IMG_0001.JPG"])
            #expect(asset.status == 200)
            let library = await AssetProcessor().process(data: Array(photo), filename: "IMG_0001.JPG")
            let entry = try #require(asset.json["asset"] as? [String: Any])
            #expect(entry["source"] as? String == "IMG_0001.JPG", "the name is reduced to its last component")
            #expect(entry["width"] as? Int == 600 && entry["height"] as? Int == 400)
            let renditions = try #require(asset.json["renditions"] as? [[String: Any]])
            #expect(renditions.count == library.renditions.count)
            for (served, made) in zip(renditions, library.renditions) {
                #expect(served["role"] as? String == made.role)
                let data = try #require((served["data"] as? String).flatMap { Data(base64Encoded: $0) })
                #expect(Array(data) == made.data, "\(made.role) is byte-identical")
            }

            let metrics = try await Self.request(base.appendingPathComponent("metrics"))
            #expect(metrics.status == 200)
            let samples = Self.parsePrometheus(metrics.text)
            #expect(samples.count > 0, "every non-comment line is NAME{LABELS} VALUE")
            #expect(samples.contains { $0.name == "journalmedia_assets_total" && $0.labels.contains("outcome=\"ok\"") })
            #expect(samples.contains { $0.name.hasPrefix("journalmedia_stage_duration_seconds") })
            #expect(samples.contains { $0.name == "journalmedia_http_requests_total" && $0.labels.contains("route=\"/v1/assets\"") })
        }
    }

    struct PrometheusSample { var name: String; var labels: String; var value: Double }

    /// Prometheus text format: `# HELP`/`# TYPE` comments, else `name{labels} value`.
    /// Returns nil samples for lines that do not parse (counted by the caller).
    static func parsePrometheus(_ text: String) -> [PrometheusSample] {
        var samples: [PrometheusSample] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
            // The value follows the last space: label values may hold spaces themselves
            // (executors named by other suites, `executor="cancel test"`).
            guard let space = line.lastIndex(of: " ") else {
                Issue.record("not a Prometheus sample: \(line)")
                continue
            }
            let valueText = line[line.index(after: space)...]
            guard let value = Double(valueText) ?? (valueText == "+Inf" ? .infinity : nil) else {
                Issue.record("not a Prometheus sample: \(line)")
                continue
            }
            let head = String(line[..<space])
            let name = head.split(separator: "{").first.map(String.init) ?? head
            guard name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil else {
                Issue.record("bad metric name: \(line)")
                continue
            }
            let labels = head.contains("{") ? String(head.drop { $0 != "{" }) : ""
            samples.append(PrometheusSample(name: name, labels: labels, value: value))
        }
        return samples
    }

    @Test func limitsAnswer413And422AsProblems() async throws {
        var configuration = ServeConfiguration()
        configuration.maxBodyBytes = 100_000
        configuration.maxPixels = 100_000
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/assets")
            let big = try await Self.request(url, method: "POST", body: try Self.sample("cmyk.jpg"))
            #expect(big.status == 413)
            #expect(big.headers["content-type"] == "application/problem+json")
            #expect(big.json["reason"] as? String == "overByteLimit" && big.json["status"] as? Int == 413)

            let wide = try await Self.request(url, method: "POST", body: try Self.sample("truncated.jpg").prefix(100) + Data(),
                                              headers: ["X-Filename": "cut.jpg"])
            #expect(wide.status == 422)
            let pixels = try await Self.request(url, method: "POST", body: try Self.sample("orientation-6-gps-p3.jpg"),
                                                headers: ["X-Filename": "big.jpg"])
            #expect(pixels.status == 422)
            #expect(pixels.json["reason"] as? String == "overPixelLimit" && pixels.json["stage"] as? String == "limits")
            #expect((pixels.json["detail"] as? String)?.contains("over the limit of 100000") == true)
            let junk = try await Self.request(url, method: "POST", body: try Self.sample("not-an-image.jpg"))
            #expect(junk.status == 422 && junk.json["reason"] as? String == "unsupportedFormat")
            let preset = try await Self.request(URL(string: "\(url)?preset=nope")!, method: "POST", body: Data([1]))
            #expect(preset.status == 400)
        }
    }

    @Test func aFullQueueAnswers503AndADeadline504() async throws {
        var configuration = ServeConfiguration()
        configuration.maxConcurrentAssets = 1
        configuration.maxQueued = 0
        configuration.deadlineSeconds = 120
        let png = Data(CancellationTests.bigPNG)
        try await Self.withServer(configuration) { base, server in
            let url = base.appendingPathComponent("v1/assets")
            let slow = Task { try await Self.request(url, method: "POST", body: png, headers: ["X-Filename": "big.png"]) }
            // Wait until the slow asset holds the only slot (its upload alone can take longer
            // than any fixed pause on a loaded machine).
            let waitStart = Date()
            while server.executor.counters.running == 0 && Date().timeIntervalSince(waitStart) < 120 {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            let start = Date()
            let refused = try await Self.request(url, method: "POST", body: try Self.sample("cmyk.jpg"))
            print("503 answered in \(String(format: "%.1f", Date().timeIntervalSince(start) * 1000)) ms")
            #expect(refused.status == 503)
            #expect(refused.headers["retry-after"] == "1")
            #expect(refused.json["reason"] as? String == "busy")
            #expect(try await slow.value.status == 200)
        }
        configuration.maxQueued = 4
        configuration.deadlineSeconds = 0.2
        try await Self.withServer(configuration) { base, _ in
            let start = Date()
            let late = try await Self.request(base.appendingPathComponent("v1/assets"), method: "POST", body: png,
                                              headers: ["X-Filename": "big.png"])
            #expect(late.status == 504)
            #expect(late.json["reason"] as? String == "timeout")
            #expect(Date().timeIntervalSince(start) < 10)
        }
    }

    @Test func aTokenGuardsTheV1Routes() async throws {
        var configuration = ServeConfiguration()
        configuration.token = "s3cret-token"
        try await Self.withServer(configuration) { base, _ in
            let url = URL(string: "\(base)/v1/color?background=%23000000")!
            let missing = try await Self.request(url)
            #expect(missing.status == 401 && missing.headers["www-authenticate"] == "Bearer")
            let wrong = try await Self.request(url, headers: ["Authorization": "Bearer s3cret-tokeN"])
            #expect(wrong.status == 401)
            let right = try await Self.request(url, headers: ["Authorization": "Bearer s3cret-token"])
            #expect(right.status == 200)
            #expect(try await Self.request(base.appendingPathComponent("healthz")).status == 200, "probes stay open")
        }
    }

    @Test func configFilesAndPresetsAreStrict() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("serve.json")
        try Data(#"{"port": 0, "maxQueued": 3, "presets": {"avatar": {"renditions": [{"role": "avatar", "format": "webp", "width": 128}]}}}"#.utf8).write(to: file)
        var configuration = ServeConfiguration()
        try configuration.apply(configFile: file)
        #expect(configuration.maxQueued == 3 && configuration.presets["avatar"]?.first?.width == 128)
        #expect(configuration.presets["default"] != nil)
        try Data(#"{"presets": {"evil": {"renditions": [{"role": "../../x", "format": "webp", "width": 128}]}}}"#.utf8).write(to: file)
        #expect(throws: ServeConfiguration.Problem.self) { try configuration.apply(configFile: file) }
        try Data(#"{"prot": 1}"#.utf8).write(to: file)
        #expect(throws: ServeConfiguration.Problem.self) { try configuration.apply(configFile: file) }
    }

    /// The built CLI as a subprocess: SIGTERM during a slow upload turns readiness off,
    /// lets the upload finish with 200, and exits 0.
    @Test func sigtermDrainsInFlightRequestsAndExitsZero() async throws {
        let process = Process()
        process.executableURL = TestSupport.cli
        // A drain delay far longer than the test's own sleeps: on a loaded machine 0.5 s had passed
        // before the readiness probe was sent, and the listener was already closed.
        process.arguments = ["serve", "--port", "0", "--drain-delay", "5", "--max-concurrent-assets", "1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        let address = try #require(text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(text.hasPrefix("listening on http://127.0.0.1:"))
        let base = try #require(URL(string: address))
        let png = Data(CancellationTests.bigPNG)
        let upload = Task { try await Self.request(base.appendingPathComponent("v1/assets"), method: "POST", body: png,
                                                   headers: ["X-Filename": "big.png"]) }
        try await Task.sleep(nanoseconds: 400_000_000)
        kill(process.processIdentifier, SIGTERM)
        try await Task.sleep(nanoseconds: 150_000_000)
        let ready = try await Self.request(base.appendingPathComponent("readyz"))
        #expect(ready.status == 503, "not ready while draining")
        let finished = try await upload.value
        #expect(finished.status == 200, "the request in flight finished")
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
