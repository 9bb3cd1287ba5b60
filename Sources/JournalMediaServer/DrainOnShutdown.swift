import Logging
import ServiceLifecycle

/// The first service to hear a graceful shutdown (SIGTERM): marks the server draining so
/// `/readyz` answers 503, waits `drainDelaySeconds` for load balancers to notice, and
/// returns; the service group then shuts the HTTP server down, which stops accepting and
/// lets the requests in flight finish. Costs nothing while the server runs.
struct DrainOnShutdown: Service {
    let state: ServerState
    let drainDelaySeconds: Double
    let logger: Logger

    func run() async throws {
        // Returns when the group starts its graceful shutdown (or throws when cancelled).
        try? await gracefulShutdown()
        state.startDraining()
        logger.info("draining", metadata: ["delaySeconds": "\(drainDelaySeconds)"])
        if drainDelaySeconds > 0 {
            try? await Task.sleep(nanoseconds: UInt64(drainDelaySeconds * 1e9))
        }
    }
}
