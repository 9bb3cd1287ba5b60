import Metrics
import MetricsTestKit
import Prometheus

/// The test process's one swift-metrics back end (bootstrap may happen once per process):
/// swift-metrics' `TestMetrics`, for assertions on handles, multiplexed with a Prometheus
/// registry, for the server's `/metrics`.
enum TestMetricsBackend {
    struct Backends: Sendable {
        let test: TestMetrics
        let registry: PrometheusCollectorRegistry
    }

    static let shared: Backends = {
        let backends = Backends(test: TestMetrics(), registry: PrometheusCollectorRegistry())
        MetricsSystem.bootstrap(MultiplexMetricsHandler(factories: [
            backends.test, PrometheusMetricsFactory(registry: backends.registry),
        ]))
        return backends
    }()
}
