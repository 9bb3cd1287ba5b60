import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// A loopback HTTP/1.1 client that sends the request bytes exactly as given (no path
/// clean-up, unlike URLSession and curl without `--path-as-is`), optionally only the head
/// of a request whose body it never sends, and reads the answer until the server closes
/// or `timeoutSeconds` pass. Runs on a thread of its own (blocking socket calls).
/// Built on `LoopbackSocket`.
enum RawHTTP {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
    }

    enum Failure: Error { case noAnswer(String) }

    /// Sends `head` (request line and headers, without the blank line), then `body`, and
    /// reads the answer.
    static func exchange(port: Int, _ head: String, body: Data = Data(), timeoutSeconds: Int = 60) async throws -> Answer {
        let socket = try start(port: port, head, partialBody: body, timeoutSeconds: timeoutSeconds)
        return try await answer(on: socket)
    }

    /// Connects (`LoopbackSocket`, with send and receive timeouts), sends `head` and the
    /// first bytes of a body, and leaves the connection open: a client that has not sent (or
    /// will never send) the rest. Read with `answer(on:)`; closed when released.
    static func start(port: Int, _ head: String, partialBody: Data = Data(), timeoutSeconds: Int = 60) throws -> LoopbackSocket {
        let socket = try LoopbackSocket(port: port)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket.descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        send(socket.descriptor, Data((head + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").utf8) + partialBody)
        return socket
    }

    /// The answer on a socket from `start`, read on a thread of its own.
    static func answer(on socket: LoopbackSocket) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try readAnswer(socket.descriptor) }) }.start()
        }
    }

    static func send(_ socket: Int32, _ data: Data) {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(socket, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }  // the server may answer and close before reading everything
                offset += sent
            }
        }
    }

    /// Reads until the server closes (or the timeout) and parses status, headers and body.
    static func readAnswer(_ socket: Int32) throws -> Answer {
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
            if let answer = parse(received), answer.complete { return answer.answer }
        }
        guard let answer = parse(received) else { throw Failure.noAnswer(String(decoding: received.prefix(200), as: UTF8.self)) }
        return answer.answer
    }

    private static func parse(_ data: Data) -> (answer: Answer, complete: Bool)? {
        guard let split = data.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        let lines = String(decoding: data[data.startIndex..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        guard let first = lines.first, let status = first.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            return nil
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let pieces = line.split(separator: ":", maxSplits: 1)
            if pieces.count == 2 { headers[pieces[0].lowercased()] = pieces[1].trimmingCharacters(in: .whitespaces) }
        }
        let body = Data(data[split.upperBound...])
        let complete = headers["content-length"].flatMap(Int.init).map { body.count >= $0 } ?? false
        return (Answer(status: status, headers: headers, body: body), complete)
    }
}

/// The service's door (issue 27, item 1): no spelling of a route skips the bearer token,
/// every route but the probes needs it, and non-canonical paths are refused outright.
extension ServerTests {
    /// Every `/v1/…` route in spellings the router would otherwise reach (doubled, tripled
    /// and inner slashes, `.` and `..` segments, `%2F`, trailing slashes, case variants),
    /// sent byte for byte without a token: each is 401 or a 400 `invalidPath`, never the route.
    @Test func noSpellingOfARouteSkipsTheToken() async throws {
        var configuration = ServeConfiguration()
        configuration.token = "s3cret-token"
        let photo = try Self.sample("orientation-6-gps-p3.jpg")
        let routes: [(method: String, path: String, query: String)] = [
            ("POST", "/v1/assets", ""), ("POST", "/v1/suggestions", ""), ("GET", "/v1/color", "?background=%23000000"),
            ("POST", "/v1/dates", ""),
        ]
        try await Self.withServer(configuration) { base, _ in
            let port = try #require(base.port)
            for route in routes {
                let rest = String(route.path.dropFirst("/v1/".count))
                let spellings = [
                    "/" + route.path, "//" + route.path, "/v1//" + rest, "/v1/" + rest + "/", "/v1/" + rest + "//",
                    "/." + route.path, "/v1/./" + rest, "/v1/../v1/" + rest, "/x/../v1/" + rest, "/v1/" + rest + "/.",
                    "/v1%2F" + rest, "/%2Fv1/" + rest, "/v1/%2E/" + rest, "/v1\\" + rest,
                    route.path.uppercased(), "/V1/" + rest, "/v1/" + rest.prefix(1).uppercased() + rest.dropFirst(),
                ]
                for spelling in spellings {
                    let body = route.method == "POST" ? photo : Data()
                    var head = "\(route.method) \(spelling)\(route.query) HTTP/1.1\r\nX-Filename: photo.jpg"
                    if route.method == "POST" { head += "\r\nContent-Length: \(body.count)" }
                    let answer = try await RawHTTP.exchange(port: port, head, body: body)
                    let label = "\(route.method) \(spelling) → \(answer.status) \(String(decoding: answer.body.prefix(160), as: UTF8.self))"
                    #expect(answer.status == 401 || (answer.status == 400 && answer.json["reason"] as? String == "invalidPath"), "\(label)")
                    #expect(answer.headers["content-type"] == "application/problem+json", "\(label)")
                }
                // The canonical spelling with the token still works (the body may be wrong for
                // a route, but never refused by the door).
                var head = "\(route.method) \(route.path)\(route.query) HTTP/1.1\r\nAuthorization: Bearer s3cret-token\r\nX-Filename: photo.jpg"
                let body = route.method == "POST" ? photo : Data()
                if route.method == "POST" { head += "\r\nContent-Length: \(body.count)" }
                let answer = try await RawHTTP.exchange(port: port, head, body: body)
                #expect(answer.status != 401 && answer.json["reason"] as? String != "invalidPath", "\(route.path) with the token")
            }
        }
    }

    /// Deny by default: only the probes' exact routes are open; their variants, unknown
    /// paths and other methods need the token; non-canonical probe paths are 400.
    @Test func onlyTheProbesAreOpen() async throws {
        var configuration = ServeConfiguration()
        configuration.token = "s3cret-token"
        try await Self.withServer(configuration) { base, _ in
            let port = try #require(base.port)
            for path in ["/healthz", "/readyz", "/metrics"] {
                #expect(try await RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1").status == 200, "\(path) is open")
                #expect(try await RawHTTP.exchange(port: port, "GET \(path.uppercased()) HTTP/1.1").status == 401)
                #expect(try await RawHTTP.exchange(port: port, "POST \(path) HTTP/1.1\r\nContent-Length: 0").status == 401)
                for variant in ["/" + path, path + "/", "/." + path, path + "%2F"] {
                    #expect(try await RawHTTP.exchange(port: port, "GET \(variant) HTTP/1.1").status == 400, "\(variant)")
                }
            }
            for path in ["/", "/nope", "/v1", "/v1/"] {
                let answer = try await RawHTTP.exchange(port: port, "GET \(path) HTTP/1.1")
                #expect(answer.status == 401 || answer.status == 400, "\(path): \(answer.status)")
            }
            let unknown = try await RawHTTP.exchange(port: port, "GET /nope HTTP/1.1\r\nAuthorization: Bearer s3cret-token")
            #expect(unknown.status == 404, "with the token an unknown route is simply not found")
        }
    }

    @Test func tokenComparisonIgnoresNothingAndLeaksNoLength() {
        let expected = Array("Bearer abc".utf8)
        #expect(ConstantTime.equal(given: expected, expected: expected))
        for given in ["", "Bearer ab", "Bearer abcd", "Bearer abC", "bearer abc", "Bearer abc\0", String(repeating: "x", count: 4096)] {
            #expect(!ConstantTime.equal(given: Array(given.utf8), expected: expected), "\(given.prefix(20))")
        }
        #expect(CanonicalPath.problem("/v1/assets") == nil && CanonicalPath.problem("/") == nil)
        for path in ["//v1/assets", "/v1/assets/", "/./v1", "/v1/..", "/v1%2fassets", "v1/assets", "/a\\b"] {
            #expect(CanonicalPath.problem(path) != nil, "\(path)")
        }
    }
}

/// Admission before the body (issue 27, item 3) and private, collision-free suggestion
/// outputs (item 6).
extension ServerTests {
    /// Opens an upload declaring `length` bytes that sends only its first 1,000 and waits
    /// (up to 60 s) until the server has admitted it (`admitted` holds); the caller closes it.
    static func stalledUpload(port: Int, length: Int, server: JournalMediaServer,
                              admitted: (UploadAdmission) -> Bool) async throws -> LoopbackSocket {
        let socket = try RawHTTP.start(port: port, "POST /v1/assets HTTP/1.1\r\nContent-Length: \(length)\r\nX-Filename: a.jpg",
                                       partialBody: Data(repeating: 0xFF, count: 1000))
        let start = Date()
        while !admitted(server.admission) && Date().timeIntervalSince(start) < 60 {
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return socket
    }

    /// With every upload place taken by a client still sending its body, the next upload is
    /// refused with 503 + Retry-After from its head alone: the server does not wait for (or
    /// buffer) a body it could not take.
    @Test func aBusyServerRefusesBeforeReadingTheBody() async throws {
        var configuration = ServeConfiguration()
        configuration.maxConcurrentAssets = 1
        configuration.maxQueued = 0
        configuration.bodyTimeoutSeconds = 120
        try await Self.withServer(configuration) { base, server in
            let port = try #require(base.port)
            let holder = try await Self.stalledUpload(port: port, length: 1_000_000, server: server) { $0.inUse.uploads > 0 }
            // Only the head: a server that waits for the body never answers within the timeout.
            let waiting = try RawHTTP.start(port: port, "POST /v1/assets HTTP/1.1\r\nContent-Length: 500000\r\nX-Filename: b.jpg",
                                            timeoutSeconds: 20)
            let refused = try await RawHTTP.answer(on: waiting)
            #expect(refused.status == 503 && refused.headers["retry-after"] == "1", "\(refused.status)")
            #expect(refused.json["reason"] as? String == "busy")
            withExtendedLifetime(holder) {}  // the stalled upload stays open until here
        }
    }

    /// The bytes buffered across requests stay within `bodyBudgetBytes`: a body that the
    /// budget left cannot hold is 503 before it is read (declared) or part-way (chunked), one
    /// over the whole budget is 413, and the budget comes back when a request ends.
    @Test func bodiesStayWithinTheBudget() async throws {
        var configuration = ServeConfiguration()
        configuration.bodyBudgetBytes = 1_000_000
        configuration.bodyTimeoutSeconds = 120
        try await Self.withServer(configuration) { base, server in
            let port = try #require(base.port)
            let holder = try await Self.stalledUpload(port: port, length: 800_000, server: server) { $0.inUse.bytes >= 800_000 }
            let start = Date()
            let declared = try RawHTTP.start(port: port, "POST /v1/dates HTTP/1.1\r\nContent-Length: 300000\r\nX-Filename: b.jpg",
                                             timeoutSeconds: 20)
            let refused = try await RawHTTP.answer(on: declared)
            #expect(refused.status == 503 && refused.headers["retry-after"] == "1" && refused.json["reason"] as? String == "busy")
            let over = try RawHTTP.start(port: port, "POST /v1/assets HTTP/1.1\r\nContent-Length: 2000000\r\nX-Filename: c.jpg",
                                         timeoutSeconds: 20)
            let tooLarge = try await RawHTTP.answer(on: over)
            #expect(tooLarge.status == 413 && tooLarge.json["reason"] as? String == "overByteLimit")
            // Chunked, no length: refused once it outgrows what is left.
            var chunked = Data()
            for _ in 0..<8 { chunked += Data("10000\r\n".utf8) + Data(repeating: 0x61, count: 0x10000) + Data("\r\n".utf8) }
            chunked += Data("0\r\n\r\n".utf8)
            let grown = try await RawHTTP.exchange(port: port, "POST /v1/assets HTTP/1.1\r\nTransfer-Encoding: chunked\r\nX-Filename: d.jpg",
                                                   body: chunked, timeoutSeconds: 20)
            #expect(grown.status == 503 && grown.json["reason"] as? String == "busy", "\(grown.status)")
            shutdown(holder.descriptor, Int32(SHUT_RDWR))
            while server.admission.inUse.bytes > 0 && Date().timeIntervalSince(start) < 60 {
                try await Task.sleep(nanoseconds: 5_000_000)
            }
            #expect(server.admission.inUse.bytes == 0 && server.admission.inUse.uploads == 0, "the budget came back")
            let photo = try Self.sample("orientation-6-gps-p3.jpg")
            let admitted = try await RawHTTP.exchange(port: port, "POST /v1/assets HTTP/1.1\r\nContent-Length: \(photo.count)\r\nX-Filename: e.jpg",
                                                      body: photo)
            #expect(admitted.status == 200)
        }
    }

    /// Two clients sending bundles with the same `bundleId` into one output folder each get
    /// a folder of their own, with their own `suggestion.json` and renditions.
    @Test func oneBundleIdCannotOverwriteAnothersOutputs() async throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = Data("""
            {"schemaVersion": 1, "bundleId": "same-id", "suggestion": {"title": "TITLE",
             "items": [{"id": "P1", "type": "photo", "photo": "files/photo.jpg"}]}}
            """.utf8)
        var configuration = ServeConfiguration()
        configuration.deadlineSeconds = 120
        configuration.outputFolder = folder.appendingPathComponent("out")
        try await Self.withServer(configuration) { base, _ in
            var answers: [(folder: String, title: String)] = []
            for (title, sample) in [("first", "orientation-6-gps-p3.jpg"), ("second", "cmyk.jpg")] {
                let named = Data(String(decoding: bundle, as: UTF8.self).replacingOccurrences(of: "TITLE", with: title).utf8)
                let reply = try await Self.postForm(base.appendingPathComponent("v1/suggestions"), [
                    FormPart(name: "bundle", data: named),
                    FormPart(name: "files/photo.jpg", filename: "photo.jpg", data: try Self.sample(sample)),
                ])
                #expect(reply.status == 200, "\(reply.text.prefix(300))")
                answers.append((try #require(reply.json["folder"] as? String), title))
            }
            #expect(answers[0].folder != answers[1].folder, "each request gets its own folder")
            for answer in answers {
                #expect(answer.folder.hasPrefix("suggestions/") && answer.folder.hasSuffix("/same-id"))
                let json = try Data(contentsOf: folder.appendingPathComponent("out").appendingPathComponent(answer.folder)
                    .appendingPathComponent("suggestion.json"))
                let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
                #expect(object["title"] as? String == answer.title, "\(answer.folder) holds its own client's result")
            }
        }
    }

    /// The uploaded files of a suggestion are staged in a folder only the server's user can
    /// enter (0700 folders, 0600 files), checked while a slow bundle is being processed.
    @Test func stagedUploadsArePrivate() async throws {
        let png = Data(CancellationTests.bigPNG)
        let bundle = Data("""
            {"schemaVersion": 1, "bundleId": "private", "suggestion": {"title": "t",
             "items": [{"id": "P1", "type": "photo", "photo": "files/big.png"}]}}
            """.utf8)
        let temporary = FileManager.default.temporaryDirectory.path
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [])
        var configuration = ServeConfiguration()
        configuration.deadlineSeconds = 120
        try await Self.withServer(configuration) { base, _ in
            let upload = Task {
                try await Self.postForm(base.appendingPathComponent("v1/suggestions"), [
                    FormPart(name: "bundle", data: bundle), FormPart(name: "files/big.png", filename: "big.png", data: png),
                ])
            }
            var modes: [String: UInt16] = [:]
            let start = Date()
            while modes.isEmpty && Date().timeIntervalSince(start) < 120 {
                let staged = ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [])
                    .filter { $0.hasPrefix("jm-suggestion-") && !before.contains($0) }
                for name in staged {
                    let root = temporary + "/" + name
                    guard FileManager.default.fileExists(atPath: root + "/input/files/big.png") else { continue }
                    for path in [root, root + "/input", root + "/input/files", root + "/input/files/big.png"] {
                        var info = stat()
                        if lstat(path, &info) == 0 { modes[String(path.dropFirst(root.count))] = UInt16(info.st_mode & 0o777) }
                    }
                }
                if modes.isEmpty { try await Task.sleep(nanoseconds: 2_000_000) }
            }
            _ = try await upload.value
            #expect(modes.count == 4, "the staging folder was seen while the bundle ran")
            for (path, mode) in modes {
                let expected: UInt16 = path.hasSuffix(".png") ? 0o600 : 0o700
                #expect(mode == expected, "\(path.isEmpty ? "/" : path): \(String(mode, radix: 8))")
            }
        }
    }
}

/// The multipart delimiter search (issue 27, item 4), rewritten to be linear whatever the
/// body holds: it must find exactly what a naive search finds, from every start offset, on
/// bodies made of the delimiters' own characters (where near-misses are densest).
@Suite struct ByteSearchTests {
    @Test func findsWhatANaiveSearchFinds() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("ab-\r\n".utf8)
        for round in 0..<400 {
            let boundary = (0..<(1 + next(8))).map { _ in alphabet[next(2)] }
            let pattern = round % 5 == 0 ? Array("\r\n\r\n".utf8) : Array("\r\n--".utf8) + boundary
            var body = (0..<next(300)).map { _ in alphabet[next(alphabet.count)] }
            if next(2) == 0 && !body.isEmpty { body.insert(contentsOf: pattern, at: next(body.count)) }
            let search = ByteSearch(pattern)
            body.withUnsafeBytes { buffer in
                for start in 0...body.count {
                    let naive = (start..<max(start, body.count - pattern.count + 1)).first { Array(body[$0..<$0 + pattern.count]) == pattern }
                    #expect(search.first(in: buffer, from: start) == naive, "round \(round), start \(start)")
                }
            }
        }
        let empty: [UInt8] = []
        empty.withUnsafeBytes { #expect(ByteSearch(Array("--a".utf8)).first(in: $0, from: 0) == nil) }
    }
}
