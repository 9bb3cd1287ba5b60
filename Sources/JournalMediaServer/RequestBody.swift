import Hummingbird

/// Reads a request body for the upload routes, once admitted (`UploadAdmission`: 503 +
/// `Retry-After` or 413 before any byte is read when the server is busy or the body cannot
/// fit the memory budget): refused past `limit` (413, from `Content-Length` before anything
/// is read when the client declared it), and required to arrive within `bodyTimeoutSeconds`
/// (408). The bytes go straight into one array, sized from `Content-Length` when given, and
/// the budget is reserved as it grows. Then, for `multipart/form-data`, its parts, found on a
/// thread of their own (`BlockingWork`). Runs once per upload; costs the body once in memory
/// (at most `limit`), held until the request ends.
struct RequestBody {
    let configuration: ServeConfiguration
    let admission: UploadAdmission

    /// Admits the request and reads its whole body. The caller releases the ticket when it
    /// no longer holds the bytes (the end of the request).
    func collect(_ request: Request, limit: Int? = nil,
                 countsAsUpload: Bool = true) async throws -> (bytes: [UInt8], ticket: UploadAdmission.Ticket) {
        let limit = limit ?? configuration.maxBodyBytes
        let declared = request.headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit { throw Self.tooLarge(declared, limit: limit) }
        let ticket: UploadAdmission.Ticket
        switch admission.admit(declared: declared, countsAsUpload: countsAsUpload) {
        case .success(let admitted): ticket = admitted
        case .failure(let problem): throw problem
        }
        do {
            return (try await read(request, declared: declared, limit: limit, ticket: ticket), ticket)
        } catch {
            ticket.release()
            throw error
        }
    }

    private func read(_ request: Request, declared: Int?, limit: Int, ticket: UploadAdmission.Ticket) async throws -> [UInt8] {
        let timeout = configuration.bodyTimeoutSeconds
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(declared ?? 0)
                for try await chunk in request.body {
                    let needed = bytes.count + chunk.readableBytes
                    guard needed <= limit else { throw Self.tooLarge(nil, limit: limit) }
                    if needed > bytes.capacity {
                        // Unknown length: grow as Array would (doubling), within the budget.
                        let capacity = min(limit, max(needed, bytes.capacity * 2))
                        guard ticket.grow(to: capacity) else {
                            throw UploadAdmission.busy("the bytes of the bodies being read are at the server's budget")
                        }
                        bytes.reserveCapacity(capacity)
                    }
                    // As typed bytes: Array copies a contiguous buffer with one memcpy (a raw
                    // buffer would be appended byte by byte in a debug build).
                    chunk.withUnsafeReadableBytes { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
                }
                return bytes
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
    /// Call it off the cooperative pool (`BlockingWork`): it is one pass over the body.
    func parts(of body: [UInt8], contentType: String) throws(ProblemResponse) -> [MultipartFormParser.Part] {
        let outcome: Result<[MultipartFormParser.Part], MultipartError>
        do throws(MultipartError) {
            let parser = MultipartFormParser(boundary: try MultipartFormParser.boundary(in: contentType),
                                             maxParts: configuration.maxParts,
                                             maxHeaderBytes: MultipartFormParser.maxHeaderBytes)
            outcome = body.withUnsafeBytes { bytes in Result { () throws(MultipartError) in try parser.parse(bytes) } }
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let parts): return parts
        case .failure(let error): throw ProblemResponse(.badRequest, "multipart: \(error.message)",
                                                        reason: error.reason.rawValue, stage: "read")
        }
    }

    /// A short text field (a preset name): nil when over `limit` bytes or not UTF-8.
    static func text(of part: MultipartFormParser.Part, in body: [UInt8], limit: Int = 256) -> String? {
        guard part.range.count <= limit else { return nil }
        return String(validating: body[part.range], as: UTF8.self)
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
