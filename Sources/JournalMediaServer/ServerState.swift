import Synchronization

/// What the routes share besides the configuration: whether the server is draining (set on
/// SIGTERM, read by `/readyz`). One per server; costs an atomic load per readiness probe.
final class ServerState: Sendable {
    private let drainingFlag = Atomic<Bool>(false)
    var isDraining: Bool { drainingFlag.load(ordering: .acquiring) }
    func startDraining() { drainingFlag.store(true, ordering: .releasing) }
}
