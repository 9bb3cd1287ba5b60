import Foundation
import Logging
import ServiceLifecycle

/// The bound on a graceful shutdown: the first service to hear it (SIGTERM), it waits the
/// grace period in the background and then closes every connection still open
/// (`OpenConnections.closeAll()`), so a client that stalls an upload, or never reads its
/// answer, cannot hold the server past the grace period; the service group cancels what runs
/// at the same moment. Returns at once, so the drain and the HTTP server's own shutdown go on
/// meanwhile. Costs nothing while the server runs.
struct CloseAtGraceEnd: Service {
    let connections: OpenConnections
    let graceSeconds: Double
    let logger: Logger

    func run() async throws {
        // Cancelled instead (a test stopping its server): nothing to bound.
        do { try await gracefulShutdown() } catch { return }
        let connections = connections, logger = logger
        // A plain thread: the cooperative pool may be busy with the very requests being shut down.
        let deadline = DispatchTime.now() + graceSeconds
        DispatchQueue.global().asyncAfter(deadline: deadline) {
            let open = connections.count
            guard open > 0 else { return }
            logger.notice("grace period over: closing connections", metadata: ["open": "\(open)"])
            connections.closeAll()
        }
    }
}
