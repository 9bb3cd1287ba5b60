import Hummingbird

/// The service's one door. Runs on every request (matched or not), before its handler and
/// before any body is read:
///
/// 1. The path must be in its one canonical spelling (`CanonicalPath`): a doubled slash, a
///    trailing slash, a `.`/`..` segment, a percent-escape or a backslash is 400
///    problem+json (`reason: invalidPath`), whatever the route, with or without a token.
///    The router would ignore empty segments (`//v1/assets` reaches `/v1/assets`), so
///    nothing that is not written exactly as a route may reach one.
/// 2. With a token configured (`--token-file`), every request needs
///    `Authorization: Bearer <token>` (401 otherwise) unless the route the router matched is
///    one of `publicRoutes` (health, readiness, metrics, the spec). The decision uses the matched
///    route, not the request's spelling, and denies by default: a new route, an unmatched
///    path, a wrong method or a case variant (`/V1/assets`, `/HEALTHZ`) needs the token.
///    The comparison takes the same time whatever the given value is (its length included).
///
/// Costs one pass over the path and, with a token, one over the header.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The token, or nil: no authentication (the path check still runs).
    let token: String?

    /// Routes answered without a token (exact matched paths; GET only, as routed). The
    /// on-demand route carries its own proof, a signature per URL (`RenderRoutes`).
    static var publicRoutes: Set<String> { ["/healthz", "/readyz", "/metrics", OpenAPIRoute.path, RenderRoutes.route] }

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if let problem = CanonicalPath.problem(request.uri.path) {
            return ProblemResponse(.badRequest, "path: \(problem); send the route exactly as openapi.yaml spells it",
                                   reason: "invalidPath").response
        }
        guard let token, !Self.publicRoutes.contains(context.endpointPath ?? "") else {
            return try await next(request, context)
        }
        let given = request.headers[.authorization] ?? ""
        guard ConstantTime.equal(given: Array(given.utf8), expected: Array("Bearer \(token)".utf8)) else {
            return ProblemResponse(.unauthorized, "a bearer token is required (Authorization: Bearer …)",
                                   headers: [.wwwAuthenticate: "Bearer"]).response
        }
        return try await next(request, context)
    }
}

/// Secret comparison for the bearer token.
enum ConstantTime {
    /// Whether `given` equals `expected`, in time that depends only on `expected`'s length:
    /// every byte of `expected` is compared (against 0 past the end of `given`), and a length
    /// difference is folded into the result rather than returned early.
    static func equal(given: [UInt8], expected: [UInt8]) -> Bool {
        var difference = UInt64(truncatingIfNeeded: given.count ^ expected.count)
        for index in expected.indices {
            let byte = index < given.count ? given[index] : 0
            difference |= UInt64(byte ^ expected[index])
        }
        return difference == 0
    }
}

/// The one spelling a request path may have: starts with `/`, no empty segment (`//`, a
/// trailing `/` except the root itself), no `.` or `..` segment, no `%` escape, no
/// backslash. Letters keep their case (routes are case-sensitive: `/V1/assets` is another,
/// unknown path). Every route the service has is written this way, so a refused path never
/// names an existing route in another spelling.
enum CanonicalPath {
    /// Why `path` is not canonical, or nil when it is.
    static func problem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return "it does not start with /" }
        if path == "/" { return nil }
        if path.contains("%") { return "percent-escapes are not accepted in paths" }
        if path.contains("\\") { return "a backslash in the path" }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) { return "an empty segment (// or a trailing /)" }
        if segments.contains(where: { $0 == "." || $0 == ".." }) { return "a . or .. segment" }
        return nil
    }
}
