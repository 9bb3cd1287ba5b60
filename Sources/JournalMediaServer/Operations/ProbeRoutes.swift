import Hummingbird

/// The server's own routes for its operators: `GET /healthz` (alive), `GET /readyz` (503
/// while draining) and `GET /metrics` (Prometheus text). Added by `JournalMediaServer` only;
/// a backend mounting `JournalMediaRoutes` keeps its own. Each costs microseconds.
struct ProbeRoutes: Sendable {
    let state: ServerState
    let metrics: ServerObservability

    func add(to router: some RouterMethods) {
        router.get("/healthz") { _, _ in Response.text("ok\n") }
        router.get("/readyz") { _, _ -> Response in
            guard !state.isDraining else { throw ProblemResponse(.serviceUnavailable, "draining: the server is shutting down") }
            return Response.text("ready\n")
        }
        router.get("/metrics") { _, _ in
            Response.text(metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }
}
