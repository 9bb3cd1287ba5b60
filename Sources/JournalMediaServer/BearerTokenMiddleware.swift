import Hummingbird

/// Checks `Authorization: Bearer <token>` on the `/v1/…` routes when a token is configured
/// (`--token-file`); health, readiness and metrics stay open for probes and scrapers.
/// Compares in constant time for equal lengths. Runs before every request; costs one header read.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.uri.path.hasPrefix("/v1/") else { return try await next(request, context) }
        let given = request.headers[.authorization] ?? ""
        let expected = "Bearer \(token)"
        guard Self.equal(Array(given.utf8), Array(expected.utf8)) else {
            return ProblemResponse(.unauthorized, "a bearer token is required (Authorization: Bearer …)",
                                   headers: [.wwwAuthenticate: "Bearer"]).response
        }
        return try await next(request, context)
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
