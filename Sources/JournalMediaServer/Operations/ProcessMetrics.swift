import Foundation
import JournalMedia
import Prometheus
import Synchronization

/// The gauges Prometheus' process collector names (`process_resident_memory_bytes`,
/// `process_cpu_seconds_total`, `process_open_fds`, `process_start_time_seconds`, …) and the
/// executor's capacity and refusals, read from /proc and the executor's counters when
/// `/metrics` is scraped (the executor's running and waiting gauges are kept current by the
/// executor itself). Linux only; costs a few small /proc reads and a directory listing of
/// /proc/self/fd per scrape.
final class ProcessMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    private let executor: AssetExecutor
    /// What the counters were last moved to: Prometheus counters only go up, so each scrape
    /// adds the difference. The CPU time is the process's, whichever server scrapes it.
    private static let lastCPU = Mutex<Double>(0)
    private let lastRefused = Mutex<Int>(0)

    init(registry: PrometheusCollectorRegistry, executor: AssetExecutor) {
        self.registry = registry
        self.executor = executor
    }

    private func gauge(_ name: String, _ labels: [(String, String)] = []) -> Gauge {
        registry.makeGauge(descriptor: HTTPMetrics.descriptor(name), labels: labels)
    }

    private func counter(_ name: String, _ labels: [(String, String)] = []) -> Counter {
        registry.makeCounter(descriptor: HTTPMetrics.descriptor(name), labels: labels)
    }

    /// Brings every gauge and counter up to date; called before the registry is emitted.
    func update() {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        if let stat = Self.statFields(), stat.count > 21, ticks > 0 {
            // Fields after the command's closing parenthesis, from field 3 (state) on:
            // utime 14, stime 15, num_threads 20, starttime 22, vsize 23, rss 24.
            let cpu = ((Double(stat[11]) ?? 0) + (Double(stat[12]) ?? 0)) / ticks
            let delta = Self.lastCPU.withLock { last -> Double in
                let delta = max(0, cpu - last)
                last = max(last, cpu)
                return delta
            }
            counter("process_cpu_seconds_total").increment(by: delta)
            gauge("process_threads").set(to: Double(stat[17]) ?? 0)
            if let boot = Self.bootTime() {
                gauge("process_start_time_seconds").set(to: boot + (Double(stat[19]) ?? 0) / ticks)
            }
            gauge("process_virtual_memory_bytes").set(to: Double(stat[20]) ?? 0)
            gauge("process_resident_memory_bytes").set(to: (Double(stat[21]) ?? 0) * page)
        }
        if let fds = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            // The listing's own descriptor is among them.
            gauge("process_open_fds").set(to: Double(max(0, fds.count - 1)))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            gauge("process_max_fds").set(to: Double(limit.rlim_cur))
        }
        let labels = [("executor", executor.label)]
        gauge(MetricCatalog.executorSlots, labels).set(to: Double(executor.maxConcurrentAssets))
        let refused = executor.counters.refused
        let newRefusals = lastRefused.withLock { last -> Int in
            let delta = max(0, refused - last)
            last = max(last, refused)
            return delta
        }
        counter(MetricCatalog.executorRefused, labels).increment(by: Int64(newRefusals))
    }

    /// /proc/self/stat's fields after the command name (which may hold spaces).
    static func statFields() -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// The boot time in seconds since the epoch (/proc/stat `btime`).
    static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
