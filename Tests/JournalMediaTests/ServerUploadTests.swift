import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// The upload side of `journal-media serve`: multipart/form-data on `POST /v1/assets` and
/// `POST /v1/suggestions` (bodies built here byte for byte as curl sends them), answers
/// chosen by `Accept` (JSON, multipart/mixed, 406), output-folder mode, and the typed 400s
/// for malformed or hostile bodies.
extension ServerTests {
    struct FormPart {
        var name: String
        var filename: String?
        var type: String?
        var data: Data
    }

    /// A multipart/form-data body as curl -F writes it.
    static func formData(_ parts: [FormPart], boundary: String = "------------------------d74496d66958873e") -> Data {
        var body = Data()
        for part in parts {
            body += Data("--\(boundary)\r\n".utf8)
            var disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { disposition += "; filename=\"\(filename)\"" }
            body += Data("\(disposition)\r\n".utf8)
            if let type = part.type { body += Data("Content-Type: \(type)\r\n".utf8) }
            body += Data("\r\n".utf8) + part.data + Data("\r\n".utf8)
        }
        return body + Data("--\(boundary)--\r\n".utf8)
    }

    static func postForm(_ url: URL, _ parts: [FormPart], accept: String? = nil) async throws -> Reply {
        let boundary = "------------------------d74496d66958873e"
        var headers = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]
        if let accept { headers["Accept"] = accept }
        return try await request(url, method: "POST", body: formData(parts, boundary: boundary), headers: headers)
    }

    /// A multipart/mixed answer's parts: headers (lowercased names) and bytes. Written here
    /// independently of the server's parser.
    static func mixedParts(_ reply: Reply) throws -> [(headers: [String: String], body: Data)] {
        let type = try #require(reply.headers["content-type"])
        #expect(type.hasPrefix("multipart/mixed; boundary="))
        let boundary = String(type.dropFirst("multipart/mixed; boundary=".count))
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [(headers: [String: String], body: Data)] = []
        var rest = reply.body[...]
        while let start = rest.range(of: delimiter) {
            rest = rest[start.upperBound...]
            if rest.starts(with: Data("--".utf8)) { break }
            rest = rest.dropFirst(2)  // CRLF
            let end = try #require(rest.range(of: Data("\r\n".utf8) + delimiter))
            let part = rest[rest.startIndex..<end.lowerBound]
            let split = try #require(part.range(of: Data("\r\n\r\n".utf8)))
            var headers: [String: String] = [:]
            for line in String(decoding: part[part.startIndex..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1)
                if pieces.count == 2 { headers[pieces[0].lowercased()] = pieces[1].trimmingCharacters(in: .whitespaces) }
            }
            parts.append((headers, Data(part[split.upperBound...])))
            rest = rest[end.lowerBound...]
        }
        return parts
    }

    @Test func aMultipartUploadIsNamedByItsFilePart() async throws {
        var configuration = ServeConfiguration()
        configuration.presets["avatar"] = [RenditionSpec(role: "avatar", format: .png, width: 64, height: 64)]
        let dated = try Self.sample("dates/IMG-20230101-WA0001.jpg")
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/assets")
            let form = try await Self.postForm(url, [FormPart(name: "file", filename: "../../x/IMG-20230101-WA0001.jpg",
                                                              type: "image/jpeg", data: dated)])
            #expect(form.status == 200)
            let raw = try await Self.request(url, method: "POST", body: dated, headers: ["X-Filename": "IMG-20230101-WA0001.jpg"])
            let entry = try #require(form.json["asset"] as? [String: Any])
            #expect(entry["source"] as? String == "IMG-20230101-WA0001.jpg", "the part's file name, last component only")
            let date = try #require(entry["captureDate"] as? [String: Any])
            #expect((date["local"] as? String)?.hasPrefix("2023-01-01") == true, "the date comes from the part's file name")
            #expect(NSDictionary(dictionary: entry).isEqual(to: try #require(raw.json["asset"] as? [String: Any])),
                    "multipart and raw uploads give the same manifest entry")
            let formData = (form.json["renditions"] as? [[String: Any]] ?? []).compactMap { $0["data"] as? String }
            let rawData = (raw.json["renditions"] as? [[String: Any]] ?? []).compactMap { $0["data"] as? String }
            #expect(!formData.isEmpty && formData == rawData, "the same rendition bytes")

            let avatar = try await Self.postForm(url, [FormPart(name: "preset", data: Data("avatar".utf8)),
                                                       FormPart(name: "file", filename: "me.jpg", data: dated)])
            #expect(avatar.status == 200)
            let roles = (avatar.json["renditions"] as? [[String: Any]] ?? []).map { $0["role"] as? String }
            #expect(roles == ["avatar"], "the preset field chooses the renditions")
            let unknown = try await Self.postForm(url, [FormPart(name: "preset", data: Data("nope".utf8)),
                                                        FormPart(name: "file", filename: "me.jpg", data: dated)])
            #expect(unknown.status == 400 && (unknown.json["detail"] as? String)?.contains("unknown preset nope") == true)
        }
    }

    @Test func malformedMultipartBodiesAreTyped400s() async throws {
        var configuration = ServeConfiguration()
        configuration.maxParts = 3
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/assets")
            func post(_ body: Data, type: String) async throws -> Reply {
                try await Self.request(url, method: "POST", body: body, headers: ["Content-Type": type])
            }
            let file = FormPart(name: "file", filename: "a.jpg", data: Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 100)))
            let good = Self.formData([file], boundary: "b0undary")
            let long = String(repeating: "b", count: 71)
            let cases: [(String, Data, String, String, String)] = [
                ("no boundary", good, "multipart/form-data", "malformedMultipart", "no boundary parameter"),
                ("boundary of 71", Self.formData([file], boundary: long), "multipart/form-data; boundary=\(long)",
                 "malformedMultipart", "RFC 2046 allows 1–70"),
                ("truncated", good.prefix(good.count - 20), "multipart/form-data; boundary=b0undary",
                 "malformedMultipart", "no closing boundary"),
                ("no boundary line", Data("just bytes".utf8), "multipart/form-data; boundary=b0undary",
                 "malformedMultipart", "no boundary line"),
                ("header without colon", Data("--b0undary\r\nnot a header\r\n\r\nx\r\n--b0undary--\r\n".utf8),
                 "multipart/form-data; boundary=b0undary", "malformedMultipart", "Name: value"),
                ("huge headers", Data("--b0undary\r\nX-Pad: \(String(repeating: "p", count: 20_000))\r\n\r\nx\r\n--b0undary--\r\n".utf8),
                 "multipart/form-data; boundary=b0undary", "malformedMultipart", "headers pass 16384 bytes"),
                ("four parts", Self.formData(Array(repeating: file, count: 4), boundary: "b0undary"),
                 "multipart/form-data; boundary=b0undary", "overPartLimit", "more than 3 parts"),
                ("no file part", Self.formData([FormPart(name: "preset", data: Data("default".utf8))], boundary: "b0undary"),
                 "multipart/form-data; boundary=b0undary", "invalidInput", "no part named \"file\""),
            ]
            for (label, body, type, reason, detail) in cases {
                let reply = try await post(body, type: type)
                #expect(reply.status == 400, "\(label)")
                #expect(reply.headers["content-type"] == "application/problem+json", "\(label)")
                #expect(reply.json["reason"] as? String == reason && reply.json["stage"] as? String == "read", "\(label): \(reply.text)")
                #expect((reply.json["detail"] as? String)?.contains(detail) == true, "\(label): \(reply.text)")
            }
            let mixed = try await post(good, type: "multipart/mixed; boundary=b0undary")
            #expect(mixed.status == 415 && mixed.json["reason"] as? String == "unsupportedMediaType")
            // A preamble and an epilogue are ignored; a quoted boundary with a space is accepted.
            let quoted = Data("preamble\r\n".utf8) + Self.formData([file], boundary: "a b") + Data("epilogue".utf8)
            let accepted = try await post(quoted, type: "multipart/form-data; boundary=\"a b\"")
            #expect(accepted.status == 422 && accepted.json["reason"] as? String != "malformedMultipart",
                    "parsed; the bytes are then a broken JPEG: \(accepted.text)")
        }
    }

    @Test func acceptChoosesJSONOrMultipartMixed() async throws {
        let photo = try Self.sample("orientation-6-gps-p3.jpg")
        try await Self.withServer(ServeConfiguration()) { base, _ in
            let url = base.appendingPathComponent("v1/assets")
            let headers = ["X-Filename": "IMG_0001.JPG"]
            let json = try await Self.request(url, method: "POST", body: photo, headers: headers.merging(["Accept": "*/*"]) { $1 })
            #expect(json.status == 200 && json.headers["content-type"] == "application/json")
            let mixed = try await Self.request(url, method: "POST", body: photo,
                                               headers: headers.merging(["Accept": "application/json;q=0.5, multipart/*"]) { $1 })
            #expect(mixed.status == 200)
            let parts = try Self.mixedParts(mixed)
            let renditions = try #require(json.json["renditions"] as? [[String: Any]])
            #expect(parts.count == 1 + renditions.count)
            let first = try #require(parts.first)
            #expect(first.headers["content-type"] == "application/json")
            #expect(first.headers["content-disposition"] == "inline; name=\"asset\"")
            let entry = try #require(try JSONSerialization.jsonObject(with: first.body) as? [String: Any])
            #expect(NSDictionary(dictionary: entry).isEqual(to: try #require(json.json["asset"] as? [String: Any])),
                    "the first part is the manifest entry")
            for (part, rendition) in zip(parts.dropFirst(), renditions) {
                let role = try #require(rendition["role"] as? String)
                #expect(part.headers["content-type"] == rendition["mediaType"] as? String)
                #expect(part.headers["content-disposition"]?.hasPrefix("attachment; name=\"\(role)\"; filename=\"IMG_0001.JPG.\(role).") == true)
                #expect(part.body.base64EncodedString() == rendition["data"] as? String, "\(role): the same bytes")
            }
            let refused = try await Self.request(url, method: "POST", body: photo,
                                                 headers: headers.merging(["Accept": "text/html, application/json;q=0"]) { $1 })
            #expect(refused.status == 406 && refused.json["reason"] as? String == "notAcceptable")
        }
    }

    @Test func anOutputFolderReceivesTheRenditionsAndTheAnswerTheirPaths() async throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = ServeConfiguration()
        configuration.outputFolder = folder.appendingPathComponent("out")
        let photo = try Self.sample("orientation-6-gps-p3.jpg")
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/assets")
            let reply = try await Self.postForm(url, [FormPart(name: "file", filename: "../../../etc/IMG_0001.JPG", data: photo)])
            #expect(reply.status == 200)
            let library = await AssetProcessor().process(data: Array(photo), filename: "IMG_0001.JPG")
            let renditions = try #require(reply.json["renditions"] as? [[String: Any]])
            let entry = try #require(reply.json["asset"] as? [String: Any])
            let entryPaths = (entry["renditions"] as? [[String: Any]] ?? []).map { $0["path"] as? String }
            #expect(renditions.count == library.renditions.count)
            let digest = String(try #require(library.sha256).prefix(16))
            for (served, made) in zip(renditions, library.renditions) {
                #expect(served["data"] == nil, "no bytes inline")
                let path = try #require(served["path"] as? String)
                #expect(path == "default/\(digest)/IMG_0001.JPG.\(made.role).\(made.format.fileExtension)")
                #expect(entryPaths.contains(path), "the manifest entry carries the same path")
                let written = try Data(contentsOf: folder.appendingPathComponent("out").appendingPathComponent(path))
                #expect(Array(written) == made.data, "\(made.role) written byte for byte")
            }
            let everything = FileManager.default.subpaths(atPath: folder.path) ?? []
            #expect(everything.allSatisfy { $0.hasPrefix("out") }, "nothing outside the output folder: \(everything)")
            #expect(!everything.contains { $0.hasSuffix(AtomicFile.temporarySuffix) }, "no temporary file left")
            let mixed = try await Self.request(url, method: "POST", body: photo, headers: ["Accept": "multipart/mixed"])
            #expect(mixed.status == 406, "output-folder mode answers JSON only")
        }
    }

    /// A bundle of three photo items: one uploaded, one not uploaded, one escaping the bundle.
    static func threePhotoBundle() -> Data {
        Data("""
        {"schemaVersion": 1, "bundleId": "serve-test", "timeZone": "Europe/Berlin", "locale": "en_US",
         "suggestion": {"title": "Over HTTP", "items": [
           {"id": "P1", "type": "photo", "photo": "files/photo.jpg"},
           {"id": "P2", "type": "photo", "photo": "files/missing.jpg"},
           {"id": "P3", "type": "photo", "photo": "../outside.jpg"}]}}
        """.utf8)
    }

    @Test func aSuggestionBundleGivesTheCLIsResult() async throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.sample("orientation-6-gps-p3.jpg")
        // The reference: the same bundle and file on disk through SuggestionProcessor, as the CLI runs it.
        let disk = folder.appendingPathComponent("bundle")
        try FileManager.default.createDirectory(at: disk.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Self.threePhotoBundle().write(to: disk.appendingPathComponent("suggestion.json"))
        try photo.write(to: disk.appendingPathComponent("files/photo.jpg"))
        try photo.write(to: folder.appendingPathComponent("outside.jpg"))
        let reference = folder.appendingPathComponent("cli")
        _ = try SuggestionProcessor(options: SuggestionOptions(jobs: 1))
            .process(bundleAt: disk.appendingPathComponent("suggestion.json"), output: reference)
        let expected = try Data(contentsOf: reference.appendingPathComponent("serve-test/suggestion.json"))

        var configuration = ServeConfiguration()
        configuration.deadlineSeconds = 120
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/suggestions")
            let reply = try await Self.postForm(url, [
                FormPart(name: "bundle", filename: "suggestion.json", type: "application/json", data: Self.threePhotoBundle()),
                FormPart(name: "files/photo.jpg", filename: "photo.jpg", type: "image/jpeg", data: photo),
                FormPart(name: "files/unused.jpg", filename: "unused.jpg", data: photo),
            ])
            #expect(reply.status == 200, "\(reply.text.prefix(300))")
            let suggestion = try #require(reply.json["suggestion"] as? [String: Any])
            let cli = try #require(try JSONSerialization.jsonObject(with: expected) as? [String: Any])
            #expect(NSDictionary(dictionary: suggestion).isEqual(to: cli), "the same suggestion.json as the CLI")
            let items = try #require(suggestion["items"] as? [[String: Any]])
            let errors = items.map { ($0["error"] as? [String: Any])?["reason"] as? String }
            #expect(errors == [nil, "unreadable", "invalidInput"], "missing → no such file; escaping → refused")
            #expect(((items[1]["error"] as? [String: Any])?["message"] as? String)?.contains("no such file") == true)
            let files = try #require(reply.json["files"] as? [[String: Any]])
            #expect(!files.isEmpty)
            for file in files {
                let path = try #require(file["path"] as? String)
                let made = try Data(contentsOf: reference.appendingPathComponent("serve-test").appendingPathComponent(path))
                #expect((file["data"] as? String).flatMap { Data(base64Encoded: $0) } == made, "\(path) as the CLI wrote it")
            }
            #expect(Set(files.compactMap { $0["path"] as? String }) == Set(
                (try FileManager.default.contentsOfDirectory(atPath: reference.appendingPathComponent("serve-test").path))
                    .filter { $0 != "suggestion.json" }), "every file the CLI wrote, nothing else")
        }
    }

    @Test func aSuggestionAnswersMultipartOrIntoTheOutputFolder() async throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Self.sample("orientation-6-gps-p3.jpg")
        let bundle = Data("""
            {"schemaVersion": 1, "bundleId": "one-photo", "suggestion": {"title": "One",
             "items": [{"id": "P1", "type": "photo", "photo": "files/photo.jpg"}]}}
            """.utf8)
        let parts = [FormPart(name: "bundle", data: bundle), FormPart(name: "./files//photo.jpg", filename: "photo.jpg", data: photo)]
        var configuration = ServeConfiguration()
        configuration.deadlineSeconds = 120
        try await Self.withServer(configuration) { base, _ in
            let reply = try await Self.postForm(base.appendingPathComponent("v1/suggestions"), parts, accept: "multipart/mixed")
            #expect(reply.status == 200)
            let answer = try Self.mixedParts(reply)
            #expect(answer.first?.headers["content-disposition"] == "inline; name=\"suggestion.json\"")
            let suggestion = try #require(try answer.first.map { try JSONSerialization.jsonObject(with: $0.body) } as? [String: Any])
            let item = try #require((suggestion["items"] as? [[String: Any]])?.first)
            #expect(item["error"] is NSNull && item["output"] as? String == "media")
            let listed = (item["renditions"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            #expect(listed.count == Defaults.renditions.count)
            #expect(answer.dropFirst().map { $0.headers["content-disposition"] }
                    == listed.map { "attachment; name=\"\($0)\"; filename=\"\($0)\"" }, "one part per file, named by its path")
            let library = await AssetProcessor().process(data: Array(photo), filename: "files/photo.jpg")
            #expect(answer.dropFirst().map { Array($0.body) } == library.renditions.map(\.data))
        }
        configuration.outputFolder = folder.appendingPathComponent("out")
        try await Self.withServer(configuration) { base, _ in
            let reply = try await Self.postForm(base.appendingPathComponent("v1/suggestions"), parts)
            #expect(reply.status == 200)
            let answered = try #require(reply.json["folder"] as? String)
            #expect(answered.hasPrefix("suggestions/") && answered.hasSuffix("/one-photo"), "suggestions/<server id>/<bundleId>")
            let written = folder.appendingPathComponent("out").appendingPathComponent(answered)
            let files = try #require(reply.json["files"] as? [[String: Any]])
            #expect(files.count == Defaults.renditions.count && files.allSatisfy { $0["data"] == nil })
            for file in files {
                let path = try #require(file["path"] as? String)
                #expect(FileManager.default.fileExists(atPath: written.appendingPathComponent(path).path), "\(path) written")
            }
            let json = try Data(contentsOf: written.appendingPathComponent("suggestion.json"))
            let suggestion = try #require(reply.json["suggestion"] as? [String: Any])
            #expect(NSDictionary(dictionary: suggestion).isEqual(to: try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])))
        }
    }

    @Test func hostileOrInvalidSuggestionUploadsAreRefused() async throws {
        var configuration = ServeConfiguration()
        configuration.maxParts = 5
        try await Self.withServer(configuration) { base, _ in
            let url = base.appendingPathComponent("v1/suggestions")
            let bundle = FormPart(name: "bundle", data: Self.threePhotoBundle())
            let jpeg = Data([0xFF, 0xD8, 0xFF])
            let cases: [(String, [FormPart], Int, String, String)] = [
                ("escaping part", [bundle, FormPart(name: "../outside.jpg", filename: "x.jpg", data: jpeg)], 400,
                 "invalidInput", "leaves the bundle's folder"),
                ("absolute part", [bundle, FormPart(name: "/etc/passwd", filename: "x", data: jpeg)], 400,
                 "invalidInput", "an absolute path"),
                // Escaped inside the quoted name, as curl and requests write a backslash.
                ("backslash part", [bundle, FormPart(name: #"files\\..\\x.jpg"#, filename: "x", data: jpeg)], 400,
                 "invalidInput", "a backslash"),
                ("twice the same path", [bundle, FormPart(name: "files/photo.jpg", data: jpeg),
                                         FormPart(name: "files//photo.jpg", data: jpeg)], 400, "invalidInput", "two parts"),
                ("no bundle", [FormPart(name: "files/photo.jpg", data: jpeg)], 400, "invalidInput", "no part named \"bundle\""),
                ("too many parts", [bundle] + (0..<5).map { FormPart(name: "f\($0)", data: jpeg) }, 400, "overPartLimit",
                 "more than 5 parts"),
                ("not JSON", [FormPart(name: "bundle", data: Data("{".utf8))], 422, "invalidInput", "bundle: "),
                ("fourteen items", [FormPart(name: "bundle", data: Data("""
                    {"schemaVersion": 1, "bundleId": "b", "suggestion": {"title": "t", "items": [\(
                        (0..<14).map { "{\"id\": \"\($0)\", \"type\": \"reflection\", \"prompt\": \"p\"}" }.joined(separator: ","))]}}
                    """.utf8))], 422, "invalidInput", "suggestion.items"),
            ]
            for (label, parts, status, reason, detail) in cases {
                let reply = try await Self.postForm(url, parts)
                #expect(reply.status == status, "\(label): \(reply.text)")
                #expect(reply.headers["content-type"] == "application/problem+json", "\(label)")
                #expect(reply.json["reason"] as? String == reason, "\(label): \(reply.text)")
                #expect((reply.json["detail"] as? String)?.contains(detail) == true, "\(label): \(reply.text)")
            }
            let raw = try await Self.request(url, method: "POST", body: Self.threePhotoBundle(),
                                             headers: ["Content-Type": "application/json"])
            #expect(raw.status == 415 && raw.json["reason"] as? String == "unsupportedMediaType")
            let staged = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            #expect(!staged.contains { $0.hasPrefix("jm-suggestion-") }, "staging folders are removed")
        }
    }

    @Test func thePartsContentIsKeptByteForByte() throws {
        // Content holding CRLFs, a boundary not preceded by CRLF, and a delimiter cut one byte short.
        let tricky = Data("line\r\nx--b0undary inside\r\n--b0undar\r\n\r\n".utf8) + Data((0...255).map { UInt8($0) })
        let body = Self.formData([FormPart(name: "file", filename: "x.bin", type: "application/octet-stream", data: tricky),
                                  FormPart(name: "empty", data: Data())], boundary: "b0undary")
        let parser = MultipartFormParser(boundary: "b0undary", maxParts: 8, maxHeaderBytes: 1024)
        let parts = try body.withUnsafeBytes { bytes in try parser.parse(bytes) }
        #expect(parts.map(\.name) == ["file", "empty"])
        #expect(parts.first?.filename == "x.bin" && parts.first?.contentType == "application/octet-stream")
        #expect(parts.first.map { body[$0.range] } == tricky, "the content, CRLFs and all")
        #expect(parts.last?.range.isEmpty == true, "an empty part")
    }

    @Test func headerParametersAndAcceptRanges() {
        let disposition = MediaTypeHeader(#"form-data; name="file"; filename="a \"quoted\"; name.jpg""#)
        #expect(disposition.essence == "form-data")
        #expect(disposition.parameters["name"] == "file")
        #expect(disposition.parameters["filename"] == #"a "quoted"; name.jpg"#)
        #expect(MultipartFormParser.extendedValue("UTF-8''%E5%86%99%E7%9C%9F.jpg") == "写真.jpg")
        #expect(MultipartFormParser.extendedValue("ISO-8859-1''x") == nil)
        #expect(MediaTypeHeader.quote("a\"b\\c\r\nd") == #""a\"b\\cd""#, "quotes escaped, CR/LF dropped")
        #expect(AnswerFormat.negotiate(nil, offered: [.json, .multipartMixed]) == .json)
        #expect(AnswerFormat.negotiate("multipart/mixed", offered: [.json, .multipartMixed]) == .multipartMixed)
        #expect(AnswerFormat.negotiate("*/*;q=0.1, multipart/mixed;q=0", offered: [.json, .multipartMixed]) == .json)
        #expect(AnswerFormat.negotiate("multipart/mixed", offered: [.json]) == nil)
        #expect(AnswerFormat.negotiate("application/*", offered: [.json, .multipartMixed]) == .json)
        #expect(AssetRoutes.filename("a/b\\c\u{0}d\r.jpg") == "cd.jpg", "last component, no control characters")
        #expect(AssetRoutes.filename("../..") == "upload" && AssetRoutes.filename(nil) == "upload")
    }
}
