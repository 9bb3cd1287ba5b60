import Foundation
import Hummingbird
import JournalMedia

/// `POST /v1/assets`: one asset as the raw request body; the original file name in the
/// `X-Filename` header (or `?filename=`), a preset by name in `?preset=` (default
/// `default`). Answers the manifest entry and the renditions inline (base64) as JSON.
///
/// Limits: the body is refused past `maxBodyBytes` (413, from `Content-Length` before
/// reading when given) and must arrive within `bodyTimeoutSeconds` (408); the asset's own
/// failures are 422 (over the pixel limit, unreadable, corrupt, unsupported), 504 past
/// `deadlineSeconds`, 503 + `Retry-After` when `maxQueued` requests already wait.
/// Costs one copy of the body plus the processing of the asset.
struct AssetRoutes: Sendable {
    let configuration: ServeConfiguration
    let processors: [String: AssetProcessor]

    func add(to router: Router<BasicRequestContext>) {
        router.post("/v1/assets") { request, _ in
            do {
                return try await self.handle(request)
            } catch let problem as ProblemResponse {
                return problem.response
            }
        }
    }

    func handle(_ request: Request) async throws -> Response {
        let presetName = request.uri.queryParameters["preset"].map(String.init) ?? "default"
        guard let processor = processors[presetName] else {
            throw ProblemResponse(.badRequest, "unknown preset \(presetName); known: \(processors.keys.sorted().joined(separator: ", "))",
                                  reason: "invalidInput")
        }
        let filename = Self.filename(request)
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > configuration.maxBodyBytes {
            throw Self.tooLarge(declared, limit: configuration.maxBodyBytes)
        }
        let body = try await collect(request)
        guard body.readableBytes > 0 else {
            throw ProblemResponse(.unprocessableContent, "read: the body is empty", reason: "empty")
        }
        let bytes = body.getBytes(at: body.readerIndex, length: body.readableBytes) ?? []
        let result = await processor.process(data: bytes, filename: filename,
                                             deadlineSeconds: configuration.deadlineSeconds)
        if let error = result.error {
            throw ProblemResponse(asset: error, retryAfter: Self.retryAfterSeconds)
        }
        return .json(try Self.answer(result))
    }

    /// Seconds a refused client is told to wait.
    static let retryAfterSeconds = 1

    /// The body, up to the limit, within the body timeout.
    private func collect(_ request: Request) async throws -> ByteBuffer {
        let limit = configuration.maxBodyBytes
        let timeout = configuration.bodyTimeoutSeconds
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await request.body.collect(upTo: limit)
                } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                    throw Self.tooLarge(nil, limit: limit)
                }
            }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(timeout * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let body = first else {
                throw ProblemResponse(.requestTimeout, "the body did not arrive within \(timeout) s", reason: "timeout")
            }
            return body
        }
    }

    static func tooLarge(_ declared: Int?, limit: Int) -> ProblemResponse {
        let size = declared.map { "\($0) bytes" } ?? "the body"
        return ProblemResponse(.contentTooLarge, "limits: \(size) is over the limit of \(limit) bytes",
                               reason: "overByteLimit")
    }

    /// The original name, reduced to its last path component (it names errors and drives
    /// file-name dates; it never reaches the file system).
    static func filename(_ request: Request) -> String {
        let header = request.headers.first { $0.name.canonicalName == "x-filename" }?.value
        let given = header ?? request.uri.queryParameters["filename"].map(String.init) ?? ""
        let last = given.split(separator: "/").last.map(String.init) ?? ""
        let cleaned = last.filter { !$0.isNewline && $0 != "\0" }
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "upload" : String(cleaned.prefix(255))
    }

    /// `{"asset": <manifest entry>, "renditions": [{role, format, mediaType, width, height, bytes, data}]}`.
    static func answer(_ result: AssetResult) throws -> Data {
        let entry = try JSONSerialization.jsonObject(with: JSONEncoder().encode(result))
        let renditions: [[String: Any]] = result.renditions.map { rendition in
            ["role": rendition.role, "format": rendition.format.rawValue, "mediaType": "image/\(rendition.format.rawValue)",
             "width": rendition.width, "height": rendition.height, "bytes": rendition.bytes,
             "data": Data(rendition.data).base64EncodedString()]
        }
        return try JSONSerialization.data(withJSONObject: ["asset": entry, "renditions": renditions], options: [.sortedKeys])
    }
}
