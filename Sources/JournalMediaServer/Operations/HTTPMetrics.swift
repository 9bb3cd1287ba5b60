import Prometheus
import Synchronization

/// The per-request metrics (`MetricCatalog`): requests by method, route pattern and status,
/// their duration histogram, answer bytes, and the requests in flight. Registered directly
/// in the server's Prometheus registry (with help text), not through swift-metrics. Handles
/// are cached per label set: a request costs one lock round and a few atomic adds.
final class HTTPMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let inFlight: Gauge
    private let handles = Mutex<[String: Handles]>([:])
    /// Request buckets: from a millisecond to a minute (uploads run up to the deadline).
    static let buckets: [Duration] = [.milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25),
                                      .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                                      .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30), .seconds(60)]

    private struct Handles: Sendable {
        let duration: DurationHistogram
        let bytes: Counter
    }

    init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        inFlight = registry.makeGauge(descriptor: Self.descriptor(MetricCatalog.inFlight))
    }

    static func help(_ name: String) -> String { MetricCatalog.help[name] ?? "" }

    /// `name` as it is exposed (no namespace or unit added), with its `# HELP` text.
    static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help(name))
    }

    func started() { inFlight.increment() }

    /// Records one answered request (`route`: the matched pattern, or `unmatched`).
    func finished(method: String, route: String, status: Int, bytes: Int, seconds: Double) {
        inFlight.decrement()
        let key = method + " " + route
        let handles = handles.withLock { cache in
            if let found = cache[key] { return found }
            let labels = [("method", method), ("route", route)]
            let made = Handles(
                duration: registry.makeDurationHistogram(descriptor: Self.descriptor(MetricCatalog.requestDuration),
                                                         labels: labels, buckets: Self.buckets),
                bytes: registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.responseBytes), labels: labels))
            cache[key] = made
            return made
        }
        registry.makeCounter(descriptor: Self.descriptor(MetricCatalog.requests),
                             labels: [("method", method), ("route", route), ("status", String(status))]).increment()
        handles.duration.recordNanoseconds(Int64(seconds * 1e9))
        handles.bytes.increment(by: Int64(bytes))
    }
}
