import Foundation
import Hummingbird
import JournalMedia

/// An error answer as `application/problem+json` (RFC 9457): `type`, `title`, `status`,
/// `detail`, plus the toolkit's `reason` and `stage` when an asset failed. Thrown by the
/// routes for every non-2xx answer; an `HTTPResponseError`, so Hummingbird's router turns it
/// into its answer (also in a backend's own application, `JournalMediaRoutes`). Costs one
/// small JSON encode.
struct ProblemResponse: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var detail: String
    var reason: String?
    var stage: String?
    var headers: HTTPFields = [:]

    /// The problem for an asset that failed: 422 for the input's faults (over the pixel or
    /// byte limit, unreadable, corrupt, unsupported), 504 past the deadline, 503 when busy,
    /// 499-like cancellations as 503 too (the server was shutting down).
    init(asset error: AssetError, retryAfter: Int) {
        switch error.reason {
        case .timeout: status = .gatewayTimeout
        case .busy, .cancelled:
            status = .serviceUnavailable
            headers[.retryAfter] = "\(retryAfter)"
        case .overByteLimit: status = .contentTooLarge
        case .writeFailed: status = .internalServerError
        default: status = .unprocessableContent
        }
        detail = "\(error.stage.rawValue): \(error.message)"
        reason = error.reason.rawValue
        stage = error.stage.rawValue
    }

    init(_ status: HTTPResponse.Status, _ detail: String, reason: String? = nil, stage: String? = nil,
         headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.reason = reason
        self.stage = stage
        self.headers = headers
    }

    /// The answer, whatever the request (`HTTPResponseError`).
    func response(from request: Request, context: some RequestContext) -> Response { response }

    var response: Response {
        var object: [String: Any] = [
            "type": reason.map { "urn:journal-media:problem:\($0)" } ?? "about:blank",
            "title": status.reasonPhrase, "status": status.code, "detail": detail,
        ]
        if let reason { object["reason"] = reason }
        if let stage { object["stage"] = stage }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension Response {
    /// A JSON answer.
    static func json(_ data: Data, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A plain-text answer.
    static func text(_ text: String, status: HTTPResponse.Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: [.contentType: contentType],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
