import Foundation
import Hummingbird
import JournalMedia

/// `POST /v1/suggestions`: a suggestion bundle as `multipart/form-data` — a `bundle` part
/// holding `suggestion.json` and one part per referenced file, named by its bundle path
/// (`files/photo.jpg`) — processed by `SuggestionProcessor` exactly as
/// `journal-media suggestion` does. Answers `suggestion.json` (the same bytes the CLI writes)
/// and the files it lists: inline as JSON with base64 data (the default) or as
/// `multipart/mixed` (by `Accept`), or, with an output folder, written to
/// `<output>/suggestions/<id>/<bundleId>/` with their paths, where `<id>` is a random UUID
/// the server makes per request (answered as `folder`): two clients sending the same
/// `bundleId` never share, overwrite or mix outputs.
///
/// A refused bundle (not JSON, wrong schema version, a value out of range, over the bundle
/// limits) is 422 with its JSON path; a file part with an escaping name is 400; a referenced
/// file that was not uploaded, is corrupt or unreadable gives that item its typed error and
/// the answer is still 200 (`summary.failed` counts them). The whole bundle takes one slot
/// of the executor (items one after another, so the deadline and cancellation reach every
/// stage): 503 + `Retry-After` when the queue is full, 504 past `deadlineSeconds` per item.
/// Query: `?preset=NAME` (renditions of media and pictures), `?redactLocation=true`.
/// Admission, budget and limits as for `/v1/assets` (`UploadAdmission`, `RequestBody`).
/// Costs the body once in memory, its files staged once on disk in a private folder
/// (`PrivateStaging`, removed afterwards), and the processing.
struct SuggestionRoutes: Sendable {
    let configuration: ServeConfiguration
    let executor: AssetExecutor
    let admission: UploadAdmission

    func add(to router: some RouterMethods) {
        router.post("/v1/suggestions") { request, _ in try await self.handle(request) }
    }

    func handle(_ request: Request) async throws -> Response {
        let offered: [AnswerFormat] = configuration.outputFolder == nil ? [.json, .multipartMixed] : [.json]
        guard let format = AnswerFormat.negotiate(request.headers[.accept], offered: offered) else {
            throw RequestBody.notAcceptable(offered)
        }
        let options = try options(request)
        let contentType = RequestBody.contentType(request)
        guard contentType.essence == "multipart/form-data" else {
            throw RequestBody.unsupportedMediaType(contentType.essence.isEmpty ? "a body without Content-Type" : contentType.essence,
                                                   expected: "multipart/form-data (a bundle part and the files)")
        }
        let reader = RequestBody(configuration: configuration, admission: admission)
        let (body, ticket) = try await reader.collect(request)
        defer { ticket.release() }
        let staging = try PrivateStaging.make()
        defer { staging.remove() }
        let input = staging.url.appendingPathComponent("input", isDirectory: true)
        let bundle = try await BlockingWork.run { () throws(ProblemResponse) -> SuggestionBundle in
            try Self.stage(body, contentType: contentType.raw, reader: reader, in: staging)
        }
        // Output-folder mode: a folder of the server's making per request, so no client can
        // name (and overwrite) another's outputs, whatever bundleId it sends.
        let submission = UUID().uuidString.lowercased()
        let output = configuration.outputFolder?.appendingPathComponent("suggestions/\(submission)", isDirectory: true)
            ?? staging.url.appendingPathComponent("output", isDirectory: true)
        let result = try await run(bundle, options: options, input: input, output: output)
        let folder = output.appendingPathComponent(bundle.bundleId, isDirectory: true)
        let json = try Self.encode(result)
        var files: [AnswerFile] = []
        for rendition in Self.renditions(of: result) {
            let data: [UInt8]
            if configuration.outputFolder != nil {
                data = []
            } else {
                guard let read = FileManager.default.contents(atPath: folder.appendingPathComponent(rendition.path).path) else {
                    throw ProblemResponse(.internalServerError, "read: \(rendition.path) was not written",
                                          reason: "writeFailed", stage: "write")
                }
                data = Array(read)
            }
            files.append(AnswerFile(name: rendition.path, filename: rendition.path, mediaType: rendition.format.mediaType,
                                    data: data))
        }
        if format == .multipartMixed {
            return MultipartMixedAnswer.response(json: json, name: "suggestion.json", files: files)
        }
        var object: [String: Any] = ["suggestion": try JSONSerialization.jsonObject(with: json)]
        object["files"] = zip(files, Self.renditions(of: result)).map { file, rendition -> [String: Any] in
            var entry: [String: Any] = ["path": file.name, "mediaType": file.mediaType, "bytes": rendition.bytes]
            if configuration.outputFolder == nil { entry["data"] = Data(file.data).base64EncodedString() }
            return entry
        }
        if configuration.outputFolder != nil { object["folder"] = "suggestions/\(submission)/\(bundle.bundleId)" }
        return .json(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    /// Parses the form, reads its `bundle` part and stages the referenced files below
    /// `staging`'s `input/` (on a `BlockingWork` thread: one pass over the body, then disk).
    private static func stage(_ body: [UInt8], contentType: String, reader: RequestBody,
                              in staging: PrivateStaging) throws(ProblemResponse) -> SuggestionBundle {
        let parts = try reader.parts(of: body, contentType: contentType)
        guard let bundleIndex = parts.firstIndex(where: { $0.name == "bundle" }) else {
            throw ProblemResponse(.badRequest, "multipart: no part named \"bundle\" (the suggestion.json)",
                                  reason: "invalidInput", stage: "read")
        }
        let bundle: SuggestionBundle
        do {
            bundle = try SuggestionBundleReader.read(Data(body[parts[bundleIndex].range]))
        } catch {
            throw ProblemResponse(.unprocessableContent, "bundle: \(error)", reason: "invalidInput", stage: "read")
        }
        try BundleUpload.stage(parts, except: bundleIndex, of: body, bundle: bundle, in: staging, under: "input")
        return bundle
    }

    /// The processor's options from the query: `preset` (a configured name),
    /// `redactLocation` (`true`/`false`) and `cardClasses` (`tile,portrait,landscape`, sizes
    /// optional: `tile=384x384`; default: the preset's `cardClasses`, else every class).
    private func options(_ request: Request) throws(ProblemResponse) -> SuggestionOptions {
        let presetName = request.uri.queryParameters["preset"].map(String.init) ?? "default"
        guard let renditions = configuration.presets[presetName] else {
            throw ProblemResponse(.badRequest, "unknown preset \(presetName); known: \(configuration.presets.keys.sorted().joined(separator: ", "))",
                                  reason: "invalidInput")
        }
        var redact = false
        if let text = request.uri.queryParameters["redactLocation"] {
            guard let value = Bool(String(text)) else {
                throw ProblemResponse(.badRequest, "redactLocation must be true or false", reason: "invalidInput")
            }
            redact = value
        }
        var sizes = configuration.presetCardSizes[presetName] ?? CardSize.defaults
        if let text = request.uri.queryParameters["cardClasses"] {
            do { sizes = try CardSize.parseList(String(text)) } catch {
                throw ProblemResponse(.badRequest, "cardClasses: \(error.message)", reason: "invalidInput")
            }
        }
        return SuggestionOptions(renditions: renditions, cardSizes: sizes, redactLocation: redact, jobs: 1,
                                 maxPixels: configuration.maxPixels)
    }

    /// Processes the bundle in one executor slot under a guard that the deadline and the
    /// request's cancellation trip.
    private func run(_ bundle: SuggestionBundle, options: SuggestionOptions, input: URL,
                     output: URL) async throws(ProblemResponse) -> SuggestionOutput {
        let stop = DecodeGuard(deadlineSeconds: configuration.deadlineSeconds * Double(max(1, bundle.suggestion.items.count)))
        let processor = SuggestionProcessor(options: options)
        switch await executor.run(under: stop, { processor.process(bundle, folder: input, output: output, stop: stop) }) {
        case .failure(let refusal):
            throw ProblemResponse(asset: refusal.error(file: bundle.bundleId, stop: stop, waiting: "requests"),
                                  retryAfter: AssetRoutes.retryAfterSeconds)
        case .success(let result):
            if let reason = stop.stopReason {
                throw ProblemResponse(asset: stop.error(file: bundle.bundleId, stage: .encode, reason: reason),
                                      retryAfter: AssetRoutes.retryAfterSeconds)
            }
            return result
        }
    }

    /// `suggestion.json` as the CLI writes it.
    static func encode(_ result: SuggestionOutput) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(result)
        data.append(0x0A)
        return data
    }

    /// Every file `suggestion.json` lists (item renditions, their pictures', the cover collages), once each.
    static func renditions(of result: SuggestionOutput) -> [OutputRendition] {
        var seen = Set<String>()
        var list: [OutputRendition] = []
        for item in result.items {
            for rendition in item.renditions + item.pictures.flatMap(\.renditions) where seen.insert(rendition.path).inserted {
                list.append(rendition)
            }
        }
        // The cover collages too.
        for collage in result.coverCollage where seen.insert(collage.rendition.path).inserted {
            list.append(collage.rendition)
        }
        return list
    }
}
