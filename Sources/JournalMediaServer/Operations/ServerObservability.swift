import Foundation
import Hummingbird
import JournalMedia
import Logging
import Prometheus

/// The server's operations side, made once with the server: HTTP and process metrics over
/// its Prometheus registry, the `/metrics` text, the OTLP exporter and tracer when
/// `otlpEndpoint` is set, and the responder that observes every request (`ObservedResponder`).
struct ServerObservability: Sendable {
    let registry: PrometheusCollectorRegistry
    let http: HTTPMetrics
    let process: ProcessMetrics
    let exporter: OTLPExporter?
    let logger: Logger

    init(configuration: ServeConfiguration, registry: PrometheusCollectorRegistry, executor: AssetExecutor, logger: Logger) {
        self.registry = registry
        self.logger = logger
        http = HTTPMetrics(registry: registry)
        process = ProcessMetrics(registry: registry, executor: executor)
        exporter = configuration.otlpEndpoint.flatMap(OTLPExporter.Target.init(endpoint:)).map { target in
            OTLPExporter(target: target, serviceVersion: Version.toolkit,
                         interval: .milliseconds(Int64(configuration.otlpExportIntervalSeconds * 1000)), logger: logger)
        }
    }

    var tracer: OTLPTracer? { exporter.map(OTLPTracer.init(exporter:)) }

    /// `router`'s responder inside the observing one; call after every route is added.
    func responder(_ router: Router<BasicRequestContext>) -> ObservedResponder<RouterResponder<BasicRequestContext>> {
        ObservedResponder(inner: router.buildResponder(), allowed: AllowedMethods(router.routes), metrics: http,
                          tracer: tracer, logger: logger)
    }

    /// The Prometheus text `/metrics` answers: process and executor figures brought up to
    /// date, every metric with its `# HELP` line.
    func exposition() -> String {
        process.update()
        return MetricCatalog.withHelp(registry.emitToString())
    }
}
