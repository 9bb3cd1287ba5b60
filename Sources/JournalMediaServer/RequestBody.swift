import Hummingbird

/// Reads a request body for the upload routes: refused past `maxBodyBytes` (413, from
/// `Content-Length` before anything is read when the client declared it), and required to
/// arrive within `bodyTimeoutSeconds` (408). Then, for `multipart/form-data`, its parts.
/// Runs once per upload; costs one copy of the body in memory (at most `maxBodyBytes`).
struct RequestBody {
    let configuration: ServeConfiguration

    /// The whole body.
    func collect(_ request: Request) async throws -> ByteBuffer {
        let limit = configuration.maxBodyBytes
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw Self.tooLarge(declared, limit: limit)
        }
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

    /// The parts of a `multipart/form-data` body whose `Content-Type` header is `contentType`.
    func parts(of body: ByteBuffer, contentType: String) throws(ProblemResponse) -> [MultipartFormParser.Part] {
        let outcome: Result<[MultipartFormParser.Part], MultipartError>
        do throws(MultipartError) {
            let parser = MultipartFormParser(boundary: try MultipartFormParser.boundary(in: contentType),
                                             maxParts: configuration.maxParts,
                                             maxHeaderBytes: MultipartFormParser.maxHeaderBytes)
            outcome = body.withUnsafeReadableBytes { bytes in Result { () throws(MultipartError) in try parser.parse(bytes) } }
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let parts): return parts
        case .failure(let error): throw ProblemResponse(.badRequest, "multipart: \(error.message)",
                                                        reason: error.reason.rawValue, stage: "read")
        }
    }

    /// A part's bytes.
    static func bytes(of part: MultipartFormParser.Part, in body: ByteBuffer) -> [UInt8] {
        body.getBytes(at: body.readerIndex + part.range.lowerBound, length: part.range.count) ?? []
    }

    /// A short text field (a preset name): nil when over `limit` bytes or not UTF-8.
    static func text(of part: MultipartFormParser.Part, in body: ByteBuffer, limit: Int = 256) -> String? {
        guard part.range.count <= limit else { return nil }
        return String(validating: bytes(of: part, in: body), as: UTF8.self)
    }

    static func tooLarge(_ declared: Int?, limit: Int) -> ProblemResponse {
        let size = declared.map { "\($0) bytes" } ?? "the body"
        return ProblemResponse(.contentTooLarge, "limits: \(size) is over the limit of \(limit) bytes",
                               reason: "overByteLimit", stage: "limits")
    }

    /// The request's `Content-Type` as essence and parameters (empty when absent).
    static func contentType(_ request: Request) -> (essence: String, raw: String) {
        let raw = request.headers[.contentType] ?? ""
        return (MediaTypeHeader(raw).essence, raw)
    }

    /// 406 for an `Accept` the route cannot satisfy.
    static func notAcceptable(_ offered: [AnswerFormat]) -> ProblemResponse {
        ProblemResponse(.notAcceptable, "accept: this route answers \(offered.map(\.rawValue).joined(separator: " or "))",
                        reason: "notAcceptable")
    }

    /// 415 for a multipart type other than form-data.
    static func unsupportedMediaType(_ essence: String, expected: String) -> ProblemResponse {
        ProblemResponse(.unsupportedMediaType, "content-type: \(essence) is not accepted here; send \(expected)",
                        reason: "unsupportedMediaType")
    }
}
