import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Logging
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// Issue 31, items 3 and 4: the access log and request ids, Prometheus names and help text,
/// process and executor metrics, 404/405 problems with `Allow`, `GET /openapi.yaml`, the
/// spec's enums, and spans sent to an OTLP collector stand-in on 127.0.0.1.
@Suite(.serialized) struct ServerOperationsTests {
    /// Log lines kept in memory, as the server wrote them.
    final class LogLines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }

        /// The JSON access-log lines (`msg` = request), waiting (≤ 10 s) until `count` are there:
        /// a line is written once the answer's body is, which may be just after the client has it.
        func accessLines(atLeast count: Int) async throws -> [[String: String]] {
            for _ in 0..<200 {
                let found = all.compactMap { line -> [String: String]? in
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
                          object["msg"] == "request" else { return nil }
                    return object
                }
                if found.count >= count { return found }
                try await Task.sleep(for: .milliseconds(50))
            }
            return []
        }
    }

    static func jsonLogger(_ lines: LogLines) -> Logger {
        Logger(label: "journal-media.serve.test") { label in
            ServeLogHandler(label: label, format: .json, level: .info) { lines.append($0) }
        }
    }

    @Test func everyAnswerCarriesARequestIdAndOneAccessLogLine() async throws {
        let lines = LogLines()
        try await ServerTests.withServer(ServeConfiguration(), logger: Self.jsonLogger(lines)) { base, _ in
            let given = try await ServerTests.request(base.appendingPathComponent("healthz"),
                                                      headers: ["X-Request-Id": "req-42.a:b"])
            #expect(given.status == 200 && given.headers["x-request-id"] == "req-42.a:b", "a valid id is kept")
            let refused = try await ServerTests.request(base.appendingPathComponent("healthz"),
                                                        headers: ["X-Request-Id": "has space\"quote"])
            let made = try #require(refused.headers["x-request-id"])
            #expect(made.count == 32 && made.allSatisfy(\.isHexDigit), "an invalid id is replaced: \(made)")
            let long = try await ServerTests.request(base.appendingPathComponent("healthz"),
                                                     headers: ["X-Request-Id": String(repeating: "a", count: 129)])
            #expect(long.headers["x-request-id"]?.count == 32, "over 128 characters is replaced")
            let color = try await ServerTests.request(URL(string: "\(base)/v1/color?background=%230A84FF")!)
            #expect(color.status == 200)
            let wrong = try await ServerTests.request(base.appendingPathComponent("v1/color"), method: "DELETE")
            #expect(wrong.status == 405 && wrong.headers["x-request-id"]?.count == 32)

            let access = try await lines.accessLines(atLeast: 5)
            #expect(access.count == 5, "one line per request: \(lines.all)")
            for line in access {
                for key in ["ts", "level", "request_id", "method", "route", "status", "bytes", "duration_ms"] {
                    #expect(line[key] != nil, "\(key) in \(line)")
                }
                #expect(Double(line["duration_ms"] ?? "") != nil)
            }
            #expect(access[0]["request_id"] == "req-42.a:b" && access[0]["route"] == "/healthz")
            #expect(access[0]["status"] == "200" && access[0]["bytes"] == "3" && access[0]["method"] == "GET")
            #expect(access[1]["request_id"] == made)
            #expect(access[3]["route"] == "/v1/color" && access[3]["bytes"] == "\(color.body.count)")
            #expect(access[4]["status"] == "405" && access[4]["route"] == "unmatched" && access[4]["method"] == "DELETE")
            #expect(!lines.all.contains { $0.contains("0A84FF") }, "the query never reaches the log")
        }
    }

    @Test func textLogLinesAreLogfmt() {
        let time = Date(timeIntervalSince1970: 1_700_000_000.25)
        let line = ServeLogHandler.line(format: .text, time: time, level: .info, label: "serve", message: "request",
                                        metadata: ["route": "/v1/assets", "error": "a \"quoted\" thing", "status": "200"])
        #expect(line == "ts=2023-11-14T22:13:20.250Z level=info logger=serve msg=request error=\"a \\\"quoted\\\" thing\" route=/v1/assets status=200\n")
        let json = ServeLogHandler.line(format: .json, time: time, level: .warning, label: "serve", message: "x\ny",
                                        metadata: ["control": "\u{1}"])
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(object?["msg"] == "x\ny" && object?["control"] == "\u{1}" && object?["level"] == "warning")
    }

    @Test func wrongMethodsAre405WithAllowAndUnknownPaths404AsProblems() async throws {
        try await ServerTests.withServer(ServeConfiguration()) { base, _ in
            for (method, path, allow) in [("PUT", "v1/assets", "POST"), ("GET", "v1/assets", "POST"),
                                          ("DELETE", "healthz", "GET"), ("POST", "metrics", "GET"),
                                          ("PATCH", "v1/color", "GET"), ("POST", "openapi.yaml", "GET")] {
                let answer = try await ServerTests.request(base.appendingPathComponent(path), method: method)
                #expect(answer.status == 405, "\(method) /\(path)")
                #expect(answer.headers["allow"] == allow, "\(method) /\(path): \(answer.headers)")
                #expect(answer.headers["content-type"] == "application/problem+json")
                #expect(answer.json["status"] as? Int == 405 && answer.json["reason"] as? String == "methodNotAllowed")
            }
            let missing = try await ServerTests.request(base.appendingPathComponent("v1/nothing"))
            #expect(missing.status == 404 && missing.headers["content-type"] == "application/problem+json")
            #expect(missing.json["status"] as? Int == 404)
        }
    }

    @Test func metricsFollowPrometheusConventions() async throws {
        try await ServerTests.withServer(ServeConfiguration()) { base, _ in
            let photo = try ServerTests.sample("orientation-6-gps-p3.jpg")
            let asset = try await ServerTests.request(base.appendingPathComponent("v1/assets"), method: "POST",
                                                      body: photo, headers: ["X-Filename": "a.jpg"])
            #expect(asset.status == 200)
            _ = try await ServerTests.request(base.appendingPathComponent("healthz"))
            let scrape = try await ServerTests.request(base.appendingPathComponent("metrics"))
            let text = scrape.text
            let samples = ServerTests.parsePrometheus(text)
            func value(_ name: String, _ labels: String = "") -> Double? {
                samples.first { $0.name == name && (labels.isEmpty || $0.labels.contains(labels)) }?.value
            }
            #expect(value("journalmedia_http_requests_total", "route=\"/healthz\"") ?? 0 >= 1)
            #expect(value("journalmedia_http_requests_total", "status=\"200\"") ?? 0 >= 1)
            #expect(value("journalmedia_http_request_duration_seconds_count", "route=\"/v1/assets\"") ?? 0 >= 1)
            #expect(value("journalmedia_http_response_body_bytes_total", "route=\"/v1/assets\"") ?? 0 > 1000)
            #expect(value("journalmedia_http_requests_in_flight") ?? -1 >= 1, "the scrape itself is in flight")
            #expect(value("process_resident_memory_bytes") ?? 0 > 10_000_000)
            #expect(value("process_cpu_seconds_total") ?? 0 > 0)
            #expect(value("process_open_fds") ?? 0 > 2)
            #expect(value("process_max_fds") ?? 0 >= value("process_open_fds") ?? 0)
            let now = Date().timeIntervalSince1970
            #expect((now - 86_400...now + 1).contains(value("process_start_time_seconds") ?? 0))
            #expect(value("journalmedia_executor_slots", "executor=\"serve\"") ?? 0 >= 1)
            #expect(value("journalmedia_executor_waiting", "executor=\"serve\"") != nil, "the queue depth")
            #expect(value("journalmedia_executor_running", "executor=\"serve\"") != nil, "in flight on the executor")
            #expect(value("journalmedia_assets_total", "outcome=\"ok\"") ?? 0 >= 1)

            // Conventions: a # HELP line before every # TYPE line, counters end in _total,
            // durations in _seconds, byte amounts in _bytes; none of Hummingbird's names.
            let lines = text.split(separator: "\n").map(String.init)
            for (index, line) in lines.enumerated() where line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                let name = String(parts[2]), type = String(parts[3])
                #expect(index > 0 && lines[index - 1].hasPrefix("# HELP \(name) ") && lines[index - 1].count > 8 + name.count + 10,
                        "\(name) has help text")
                if type == "counter" { #expect(name.hasSuffix("_total"), "\(name)") }
                if name.contains("duration") { #expect(name.hasSuffix("_seconds"), "\(name)") }
                if name.contains("memory") || name.contains("body") { #expect(name.contains("_bytes"), "\(name)") }
                #expect(!name.hasPrefix("hb_") && !name.hasPrefix("http_server"), "\(name)")
            }
        }
    }

    @Test func theSpecIsServedAndNamesWhatTheServerAnswers() async throws {
        let file = try Data(contentsOf: TestSupport.packageRoot.appendingPathComponent("openapi.yaml"))
        try await ServerTests.withServer(ServeConfiguration()) { base, _ in
            let spec = try await ServerTests.request(base.appendingPathComponent("openapi.yaml"))
            #expect(spec.status == 200 && spec.headers["content-type"] == "application/yaml")
            #expect(spec.body == file, "the embedded spec is the package's openapi.yaml")
        }
        // Every still format a preset may name is in the spec's rendition enums, with its media type.
        let text = String(decoding: file, as: UTF8.self)
        func enums(_ key: String) -> [Set<String>] {
            text.split(separator: "\n").compactMap { line -> Set<String>? in
                guard let range = line.range(of: "\(key): {type: string, enum: ["), let end = line.range(of: "]}") else { return nil }
                return Set(line[range.upperBound..<end.lowerBound].split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            }
        }
        let formats = Set(RenditionFormat.stillFormats.map(\.rawValue))
        #expect(enums("format").count == 2 && enums("format").allSatisfy { $0 == formats }, "\(enums("format"))")
        #expect(enums("mediaType") == [Set(RenditionFormat.stillFormats.map(\.mediaType))])
        // The colour query's pattern is the server's grammar: what it allows, the server takes.
        let pattern = try #require(text.split(separator: "\n").first { $0.contains("pattern: \"^(#?") })
        #expect(pattern.contains(UtilityRoutes.colorPattern), "openapi.yaml's ColorText pattern is UtilityRoutes.colorPattern")
        for good in ["#0A84FF", "0a84ff", "#fff", "#0A84FF80", "10,132,255", "0,0,255"] {
            #expect(UtilityRoutes.isColorText(good), "\(good)")
        }
        for bad in ["", "blue", "#12345", "256,0,0", "+5,5,5", "1,2", "#0A84FF8", "\t#fff", " #fff", "0, 0, 255"] {
            #expect(!UtilityRoutes.isColorText(bad), "\(bad)")
        }
    }

    @Test func emptyOrMalformedColoursAre400() async throws {
        try await ServerTests.withServer(ServeConfiguration()) { base, _ in
            for query in ["background=%23000000&base=", "background=%2B5,5,5", "background=%23000000&base=%09fff"] {
                let answer = try await ServerTests.request(URL(string: "\(base)/v1/color?\(query)")!)
                #expect(answer.status == 400 && answer.headers["content-type"] == "application/problem+json", "\(query)")
            }
        }
    }

    /// An OTLP/HTTP collector stand-in on 127.0.0.1: keeps every JSON body POSTed to /v1/traces.
    final class CollectorStandIn: Sendable {
        let bodies = Mutex<[Data]>([])

        var spans: [[String: Any]] {
            bodies.withLock { $0 }.flatMap { body -> [[String: Any]] in
                let object = (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:]
                let resources = object["resourceSpans"] as? [[String: Any]] ?? []
                return resources.flatMap { ($0["scopeSpans"] as? [[String: Any]] ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] } }
            }
        }

        func run(_ onPort: @escaping @Sendable (Int) async -> Void) async throws {
            let router = Router()
            router.post("/v1/traces") { request, _ in
                let buffer = try await request.body.collect(upTo: 16 << 20)
                self.bodies.withLock { $0.append(Data(buffer.readableBytesView)) }
                return Response(status: .ok, headers: [.contentType: "application/json"],
                                body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
            }
            var logger = Logger(label: "collector-stand-in")
            logger.logLevel = .critical
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                                  onServerRunning: { await onPort($0.localAddress?.port ?? 0) }, logger: logger)
            try await app.runService(gracefulShutdownSignals: [])
        }
    }

    @Test func spansReachACollectorStandInOnLoopback() async throws {
        let collector = CollectorStandIn()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let running = Task { try await collector.run { continuation.yield($0) } }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        let collectorPort = try #require(await iterator.next())
        var configuration = ServeConfiguration()
        configuration.otlpEndpoint = URL(string: "http://127.0.0.1:\(collectorPort)")
        configuration.otlpExportIntervalSeconds = 0.1
        let parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736", parentSpan = "00f067aa0ba902b7"
        try await ServerTests.withServer(configuration) { base, _ in
            let photo = try ServerTests.sample("orientation-6-gps-p3.jpg")
            let asset = try await ServerTests.request(base.appendingPathComponent("v1/assets"), method: "POST", body: photo,
                                                      headers: ["X-Filename": "a.jpg", "traceparent": "00-\(parentTrace)-\(parentSpan)-01"])
            #expect(asset.status == 200)
            _ = try await ServerTests.request(base.appendingPathComponent("healthz"))
            var spans: [[String: Any]] = []
            for _ in 0..<300 {
                spans = collector.spans
                if spans.contains(where: { $0["name"] as? String == "GET /healthz" }) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let server = try #require(spans.first { $0["name"] as? String == "POST /v1/assets" }, "\(spans)")
            #expect(server["traceId"] as? String == parentTrace, "the caller's trace is continued")
            #expect(server["parentSpanId"] as? String == parentSpan)
            #expect(server["kind"] as? Int == 2, "SPAN_KIND_SERVER")
            let attributes = (server["attributes"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
                $0[$1["key"] as? String ?? ""] = $1["value"] as? [String: Any]
            }
            #expect(attributes["http.response.status_code"]?["intValue"] as? String == "200")
            #expect(attributes["http.route"]?["stringValue"] as? String == "/v1/assets")
            let serverID = try #require(server["spanId"] as? String)
            let stages = spans.filter { ($0["name"] as? String ?? "").hasPrefix("stage ") }
            let names = Set(stages.compactMap { $0["name"] as? String })
            #expect(names.isSuperset(of: ["stage read", "stage decode", "stage encode"]), "\(names)")
            for stage in stages {
                #expect(stage["parentSpanId"] as? String == serverID && stage["traceId"] as? String == parentTrace)
                let start = UInt64(stage["startTimeUnixNano"] as? String ?? "") ?? 0
                let end = UInt64(stage["endTimeUnixNano"] as? String ?? "") ?? 0
                let outerStart = UInt64(server["startTimeUnixNano"] as? String ?? "") ?? 0
                let outerEnd = UInt64(server["endTimeUnixNano"] as? String ?? "") ?? 0
                #expect(start >= outerStart && end <= outerEnd && start <= end, "\(stage["name"] ?? "") inside its request")
            }
            let health = try #require(spans.first { $0["name"] as? String == "GET /healthz" })
            #expect(health["parentSpanId"] == nil && (health["traceId"] as? String)?.count == 32, "a new trace")
        }
    }
}
