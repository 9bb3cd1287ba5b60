import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization
import Tracing

/// What every request passes through, outside the router: its request id (`RequestID`,
/// kept in the answer's `X-Request-Id` and the route's logger), a span when tracing is on
/// (W3C `traceparent` continued), the problem+json answer for a path no route has (404) or
/// a method the path does not take (405 with `Allow`), and, once the answer's body is
/// written, the HTTP metrics (`HTTPMetrics`) and one access-log line: method, route pattern
/// (never the raw path, so no signature or token in a URL reaches the log), status, body
/// bytes, duration, request id (and trace id). Costs a few microseconds per request: the
/// id, two clock reads, a metrics look-up, one log line.
struct ObservedResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == BasicRequestContext {
    typealias Context = BasicRequestContext

    let inner: Inner
    let allowed: AllowedMethods
    let metrics: HTTPMetrics
    let tracer: OTLPTracer?
    /// Where access-log lines go (at `info`).
    let logger: Logger

    /// The route label of a request no route took.
    static var unmatched: String { "unmatched" }

    func respond(to request: Request, context: Context) async throws -> Response {
        let start = ContinuousClock.now
        let id = RequestID.resolve(request.headers)
        let method = request.method.rawValue
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        metrics.started()
        let span = tracer.map { tracer in
            var parent = InstrumentationContext.topLevel
            tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
            return tracer.startSpan(method, context: parent, ofKind: .server)
        }
        if let span { context.logger[metadataKey: "trace_id"] = .string(span.identity.traceID) }
        var response: Response
        do {
            response = try await InstrumentationContext.withValue(span?.context) {
                try await OTLPTracer.$current.withValue(tracer) {
                    try await inner.respond(to: request, context: context)
                }
            }
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)"])
            span?.recordError(error)
            response = ProblemResponse(.internalServerError, "the server failed to answer").response
        }
        // Hummingbird's not-found responder names its route "NotFound".
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        if route == nil && response.status == .notFound {
            response = notFound(method: method, path: request.uri.path)
        }
        response.headers[RequestID.header] = id
        let status = response.status.code
        let finish = Finish(id: id, method: method, route: route ?? Self.unmatched, status: status, start: start,
                            span: span, metrics: metrics, logger: logger)
        let body = response.body
        let tally = ByteTally()
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer.map { buffer in
                    tally.add(buffer.readableBytes)
                    return buffer
                })
                finish(bytes: tally.value, error: nil)
            } catch {
                finish(bytes: tally.value, error: error)
                throw error
            }
        }
        return response
    }

    /// 405 with `Allow` when some route takes the path with another method, else 404; both
    /// as problem+json (the router's own 404 has an empty body).
    func notFound(method: String, path: String) -> Response {
        let methods = allowed.methods(for: path)
        guard !methods.isEmpty else {
            return ProblemResponse(.notFound, "no route answers this path", reason: "notFound").response
        }
        let list = methods.joined(separator: ", ")
        return ProblemResponse(.methodNotAllowed, "\(method) is not allowed on this route; allowed: \(list)",
                               reason: "methodNotAllowed", headers: [.allow: list]).response
    }

    /// Records the metrics, ends the span and writes the access-log line, once the body is
    /// written (or failed to be).
    struct Finish: Sendable {
        let id: String, method: String, route: String, status: Int
        let start: ContinuousClock.Instant
        let span: OTLPSpan?
        let metrics: HTTPMetrics
        let logger: Logger

        func callAsFunction(bytes: Int, error: (any Error)?) {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            metrics.finished(method: method, route: route, status: status, bytes: bytes, seconds: seconds)
            if let span {
                span.operationName = route == ObservedResponder<Inner>.unmatched ? method : "\(method) \(route)"
                span.attributes["http.request.method"] = method
                span.attributes["http.route"] = route
                span.attributes["http.response.status_code"] = status
                span.attributes["http.response.body.size"] = bytes
                span.attributes["journalmedia.request_id"] = id
                if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
                if let error { span.recordError(error) }
                span.end()
            }
            var fields: Logger.Metadata = [
                "request_id": .string(id), "method": .string(method), "route": .string(route),
                "status": .stringConvertible(status), "bytes": .stringConvertible(bytes),
                "duration_ms": .string(String(format: "%.3f", seconds * 1000)),
            ]
            if let span { fields["trace_id"] = .string(span.identity.traceID) }
            if let error { fields["error"] = .string("\(error)") }
            logger.info("request", metadata: fields)
        }
    }
}

/// Bytes written so far by one answer (the body writer runs on one task at a time).
final class ByteTally: Sendable {
    private let count = Atomic<Int>(0)
    func add(_ bytes: Int) { count.add(bytes, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// Reads `traceparent` (and any other key) from a request's header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
