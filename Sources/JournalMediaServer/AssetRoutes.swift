import Foundation
import Hummingbird
import JournalMedia

/// `POST /v1/assets`: one asset, either as the raw request body (the original file name in
/// `X-Filename` or `?filename=`, a preset in `?preset=`, default `default`) or as
/// `multipart/form-data` (a `file` part whose file name is the original name, and an
/// optional `preset` field). Answers the manifest entry and the renditions: inline as JSON
/// with base64 data (the default) or as `multipart/mixed` (chosen by `Accept`), or, when
/// the server has an output folder, written there with their paths in the JSON.
///
/// Limits: before the body is read, 503 + `Retry-After` when `maxConcurrentAssets +
/// maxQueued` uploads are already in progress or the body budget is used up, 413 past
/// `maxBodyBytes` (from `Content-Length` when given; `UploadAdmission`); the body must arrive
/// within `bodyTimeoutSeconds` (408); a malformed multipart body is 400; the asset's own
/// failures are 422 (over the pixel limit, unreadable, corrupt, unsupported), 504 past
/// `deadlineSeconds`, 503 + `Retry-After` when `maxQueued` requests already wait; 406 when
/// `Accept` allows none of the answers. Costs the body once in memory (a form's file part
/// is cut out of it in place) plus the processing of the asset.
struct AssetRoutes: Sendable {
    let configuration: ServeConfiguration
    let processors: [String: AssetProcessor]
    let admission: UploadAdmission

    func add(to router: some RouterMethods) {
        router.post("/v1/assets") { request, _ in try await self.handle(request) }
    }

    /// What a request sent: the file's bytes, its original name, the preset asked for.
    struct Upload {
        var bytes: [UInt8]
        var filename: String
        var preset: String
    }

    func handle(_ request: Request) async throws -> Response {
        let offered: [AnswerFormat] = configuration.outputFolder == nil ? [.json, .multipartMixed] : [.json]
        guard let format = AnswerFormat.negotiate(request.headers[.accept], offered: offered) else {
            throw RequestBody.notAcceptable(offered)
        }
        let queryPreset = request.uri.queryParameters["preset"].map(String.init)
        if let queryPreset, processors[queryPreset] == nil { throw unknownPreset(queryPreset) }
        let reader = RequestBody(configuration: configuration, admission: admission)
        let (body, ticket) = try await reader.collect(request)
        defer { ticket.release() }
        let upload = try await read(consume body, request: request, reader: reader, queryPreset: queryPreset)
        guard let processor = processors[upload.preset] else { throw unknownPreset(upload.preset) }
        guard !upload.bytes.isEmpty else {
            throw ProblemResponse(.unprocessableContent, "read: the file is empty", reason: "empty", stage: "read")
        }
        var result = await processor.process(data: upload.bytes, filename: upload.filename,
                                             deadlineSeconds: configuration.deadlineSeconds)
        StageSpans.record(result)
        if let error = result.error {
            throw ProblemResponse(asset: error, retryAfter: Self.retryAfterSeconds)
        }
        if let folder = configuration.outputFolder {
            try OutputFolderWriter(folder: folder).write(&result, preset: upload.preset)
            return .json(try Self.answer(result, inline: false))
        }
        switch format {
        case .json:
            return .json(try Self.answer(result, inline: true))
        case .multipartMixed:
            let files = result.renditions.map { rendition in
                AnswerFile(name: rendition.role,
                           filename: Batch.renditionPath(source: result.source, role: rendition.role, format: rendition.format),
                           mediaType: rendition.format.mediaType, data: rendition.data)
            }
            return MultipartMixedAnswer.response(json: try Self.entryJSON(result), name: "asset", files: files)
        }
    }

    /// The upload inside `body`: the body itself, or the `file` part of a form (found on a
    /// thread of its own, and cut out of the body in place: no second copy).
    private func read(_ body: consuming [UInt8], request: Request, reader: RequestBody,
                      queryPreset: String?) async throws(ProblemResponse) -> Upload {
        let contentType = RequestBody.contentType(request)
        if contentType.essence == "multipart/form-data" {
            let box = BodyBox(consume body)
            let filename = request.headers.first { $0.name.canonicalName == "x-filename" }?.value
            return try await BlockingWork.run { () throws(ProblemResponse) -> Upload in
                try Self.formUpload(box.take(), contentType: contentType.raw, reader: reader, queryPreset: queryPreset,
                                    headerFilename: filename)
            }
        }
        if contentType.essence.hasPrefix("multipart/") {
            throw RequestBody.unsupportedMediaType(contentType.essence, expected: "multipart/form-data or the raw file")
        }
        return Upload(bytes: body, filename: Self.filename(request), preset: queryPreset ?? "default")
    }

    /// The `file` part of a form body, and the preset field.
    private static func formUpload(_ body: consuming [UInt8], contentType: String, reader: RequestBody,
                                   queryPreset: String?, headerFilename: String?) throws(ProblemResponse) -> Upload {
        let parts = try reader.parts(of: body, contentType: contentType)
        let named = parts.first { $0.name == "file" }
        let withFile = parts.filter { $0.filename != nil }
        guard let file = named ?? (withFile.count == 1 ? withFile.first : nil) else {
            throw ProblemResponse(.badRequest, "multipart: no part named \"file\" (the asset's bytes, with its filename)",
                                  reason: "invalidInput", stage: "read")
        }
        var preset = queryPreset ?? "default"
        if let field = parts.first(where: { $0.name == "preset" }) {
            guard let text = RequestBody.text(of: field, in: body), !text.isEmpty else {
                throw ProblemResponse(.badRequest, "multipart: the preset field is not a short UTF-8 name",
                                      reason: "invalidInput", stage: "read")
            }
            preset = text
        }
        // The file's bytes, moved to the front of the body's own storage.
        body.removeSubrange(file.range.upperBound...)
        body.removeSubrange(..<file.range.lowerBound)
        return Upload(bytes: body, filename: Self.filename(file.filename ?? headerFilename), preset: preset)
    }

    private func unknownPreset(_ name: String) -> ProblemResponse {
        ProblemResponse(.badRequest, "unknown preset \(name); known: \(processors.keys.sorted().joined(separator: ", "))",
                        reason: "invalidInput")
    }

    /// Seconds a refused client is told to wait.
    static let retryAfterSeconds = 1

    static func tooLarge(_ declared: Int?, limit: Int) -> ProblemResponse {
        RequestBody.tooLarge(declared, limit: limit)
    }

    /// The original name from `X-Filename` or `?filename=`, made safe by `filename(_:)`.
    static func filename(_ request: Request) -> String {
        let header = request.headers.first { $0.name.canonicalName == "x-filename" }?.value
        return filename(header ?? request.uri.queryParameters["filename"].map(String.init))
    }

    /// The original name reduced to its last path component (`/` or `\`), without control
    /// characters, at most 255 characters; `upload` when nothing is left. It names errors,
    /// drives file-name dates and, in output-folder mode, the files' names (always inside
    /// the folder).
    static func filename(_ given: String?) -> String {
        let last = (given ?? "").split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let cleaned = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "upload" : String(cleaned.prefix(255))
    }

    /// The manifest entry alone, as in manifest.json.
    static func entryJSON(_ result: AssetResult) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(result)
    }

    /// `{"asset": <manifest entry>, "renditions": [{role, format, mediaType, width, height,
    /// bytes, data (base64) | path}]}`: data inline, or the paths in the output folder.
    static func answer(_ result: AssetResult, inline: Bool) throws -> Data {
        let entry = try JSONSerialization.jsonObject(with: JSONEncoder().encode(result))
        let renditions: [[String: Any]] = result.renditions.map { rendition in
            var object: [String: Any] = [
                "role": rendition.role, "format": rendition.format.rawValue, "mediaType": rendition.format.mediaType,
                "width": rendition.width, "height": rendition.height, "bytes": rendition.bytes,
            ]
            if inline {
                object["data"] = Data(rendition.data).base64EncodedString()
            } else {
                object["path"] = rendition.path ?? NSNull()
            }
            return object
        }
        return try JSONSerialization.data(withJSONObject: ["asset": entry, "renditions": renditions],
                                          options: [.sortedKeys, .withoutEscapingSlashes])
    }
}
