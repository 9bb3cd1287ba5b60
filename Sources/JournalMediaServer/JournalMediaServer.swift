import Foundation
import Hummingbird
import JournalMedia
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

/// The HTTP service behind `journal-media serve`: Hummingbird 2 routes over the library
/// (`AssetProcessor` with one bounded `AssetExecutor`), Prometheus metrics, bearer-token
/// auth for `/v1/…`, and a graceful shutdown on SIGTERM/SIGINT (readiness off, listener
/// closed, in-flight requests finished within the grace period, exit 0). The contract is
/// `openapi.yaml` at the package root.
///
/// Made once per process by the CLI (or a test); costs the event loop threads NIO starts
/// plus the executor's N asset slots.
public struct JournalMediaServer: Sendable {
    public let configuration: ServeConfiguration
    let state = ServerState()
    let registry: PrometheusCollectorRegistry
    let executor: AssetExecutor
    let logger: Logger

    /// Builds the server; `registry` receives the library's and the routes' metrics when the
    /// caller bootstrapped `MetricsSystem` with it (`bootstrapMetrics()` does).
    public init(configuration: ServeConfiguration, registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
                logger: Logger = Logger(label: "journal-media.serve")) {
        self.configuration = configuration
        self.registry = registry
        self.logger = logger
        executor = AssetExecutor(maxConcurrentAssets: configuration.maxConcurrentAssets,
                                 maxQueued: configuration.maxQueued, label: "serve")
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
        router.add(middleware: MetricsMiddleware())
        if let token = configuration.token {
            router.add(middleware: BearerTokenMiddleware(token: token))
        }
        var processors: [String: AssetProcessor] = [:]
        for (name, renditions) in configuration.presets {
            var options = ProcessingOptions(renditions: renditions, maxPixels: configuration.maxPixels,
                                            maxBytes: configuration.maxBodyBytes)
            options.includeLocation = configuration.includeLocation
            processors[name] = AssetProcessor(options: options, executor: executor, logger: logger)
        }
        AssetRoutes(configuration: configuration, processors: processors).add(to: router)
        SuggestionRoutes(configuration: configuration, executor: executor).add(to: router)
        UtilityRoutes(configuration: configuration, state: state, registry: registry).add(to: router)
        return router
    }

    /// Runs until one of `signals` (or the task is cancelled). `onListening` gets the bound
    /// port once the listener is up (the port may have been 0).
    public func run(signals: [UnixSignal] = [.sigterm, .sigint],
                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try configuration.prepareOutputFolder()
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "journal-media"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Shut down in reverse order: the drain marker first, then the HTTP server.
        var group = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: DrainOnShutdown(
                state: state, drainDelaySeconds: configuration.drainDelaySeconds, logger: logger))],
            gracefulShutdownSignals: signals, logger: logger)
        group.maximumGracefulShutdownDuration = Duration.milliseconds(Int64(configuration.gracePeriodSeconds * 1000))
        try await ServiceGroup(configuration: group).run()
    }

    /// Whether a graceful shutdown has begun.
    public var isDraining: Bool { state.isDraining }
}
