import Foundation
import Hummingbird
import JournalMedia
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// The HTTP service behind `journal-media serve`: the API routes (`JournalMediaRoutes`, which
/// a backend can also mount in its own application), Prometheus metrics, canonical paths
/// and bearer-token auth on every route but the probes (`BearerTokenMiddleware`), uploads
/// admitted before their body is read within a body budget (`UploadAdmission`), header,
/// idle and body time limits and a connection cap on every connection
/// (`ConnectionTimeouts`), and a graceful shutdown on SIGTERM/SIGINT (readiness off,
/// listener closed, in-flight requests finished within the grace period, then every
/// connection closed, exit 0); every request observed outside the router (request id, access
/// log, metrics, spans, 404/405 problems: `ObservedResponder`). The contract is
/// `openapi.yaml` at the package root, served at `GET /openapi.yaml`.
///
/// Made once per process by the CLI (or a test); costs the event loop threads NIO starts
/// plus the executor's N asset slots.
public struct JournalMediaServer: Sendable {
    public let configuration: ServeConfiguration
    let state = ServerState()
    let registry: PrometheusCollectorRegistry
    let routes: JournalMediaRoutes
    let logger: Logger
    var executor: AssetExecutor { routes.executor }
    var admission: UploadAdmission { routes.admission }
    let observability: ServerObservability

    /// Builds the server; `registry` receives the library's and the routes' metrics when the
    /// caller bootstrapped `MetricsSystem` with it (`bootstrapMetrics()` does).
    public init(configuration: ServeConfiguration, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                logger: Logger = Logger(label: "journal-media.serve")) {
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        routes = JournalMediaRoutes(unprepared: configuration, executor: nil, logger: logger)
        observability = ServerObservability(configuration: configuration, registry: registry, executor: routes.executor,
                                            logger: logger)
    }

    /// Bootstraps swift-metrics with a Prometheus registry (once per process) and returns it.
    public static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [.milliseconds(5), .milliseconds(10), .milliseconds(25),
                                                   .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                                   .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
                                                   .seconds(10), .seconds(30)]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: BearerTokenMiddleware(token: configuration.token))
        routes.add(to: router)
        ProbeRoutes(state: state, metrics: observability).add(to: router)
        OpenAPIRoute().add(to: router)
        return router
    }

    /// Runs until one of `signals` (or the task is cancelled). `onListening` gets the bound
    /// port once the listener is up (the port may have been 0).
    public func run(signals: [UnixSignal] = [.sigterm, .sigint],
                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try configuration.prepareOutputFolder()
        let connections = OpenConnections(limit: configuration.connectionLimit)
        let limits = configuration.connectionTimeouts
        let app = Application(
            responder: observability.responder(router()),
            server: .http1(configuration: .init(additionalChannelHandlers: [
                ConnectionTimeouts(limits: limits, connections: connections),
            ])),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "journal-media"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Shut down in reverse order: the grace-period bound first, then the drain marker, then
        // the HTTP server.
        // The span exporter first, so it stops last and sends the final requests' spans.
        let exporter: [ServiceGroupConfiguration.ServiceConfiguration] = observability.exporter.map { [.init(service: $0)] } ?? []
        var group = ServiceGroupConfiguration(
            services: exporter + [.init(service: app),
                       .init(service: DrainOnShutdown(state: state, drainDelaySeconds: configuration.drainDelaySeconds,
                                                      logger: logger)),
                       .init(service: CloseAtGraceEnd(connections: connections,
                                                      graceSeconds: configuration.gracePeriodSeconds, logger: logger))],
            gracefulShutdownSignals: signals, logger: logger)
        group.maximumGracefulShutdownDuration = Duration.milliseconds(Int64(configuration.gracePeriodSeconds * 1000))
        try await ServiceGroup(configuration: group).run()
    }

    /// Whether a graceful shutdown has begun.
    public var isDraining: Bool { state.isDraining }
}
