/// Every metric `GET /metrics` serves, with its `# HELP` text: one place, the one
/// docs/operations.md lists. Names follow Prometheus' conventions (base units in the name:
/// `_seconds`, `_bytes`; counters end in `_total`). The server's own metrics are registered
/// with this text; the library's (made through swift-metrics, whose Prometheus back end has
/// no help text) get their `# HELP` line added at scrape time (`withHelp`).
enum MetricCatalog {
    // HTTP, recorded by `ObservedResponder` once per answer.
    static let requests = "journalmedia_http_requests_total"
    static let requestDuration = "journalmedia_http_request_duration_seconds"
    static let responseBytes = "journalmedia_http_response_body_bytes_total"
    static let inFlight = "journalmedia_http_requests_in_flight"
    // The executor, read at scrape time (`ProcessMetrics`).
    static let executorSlots = "journalmedia_executor_slots"
    static let executorRefused = "journalmedia_executor_refused_total"

    static let help: [String: String] = [
        requests: "HTTP requests answered, by method, route pattern and status code.",
        requestDuration: "Seconds from a request's head to the end of its answer's body, by method and route pattern.",
        responseBytes: "Bytes of answer bodies written, by method and route pattern.",
        inFlight: "HTTP requests being answered now.",
        executorSlots: "Assets the executor processes at once (its capacity).",
        executorRefused: "Asset requests refused because the executor's queue was full (answered 503).",
        "journalmedia_executor_running": "Assets being processed now (in flight on the executor).",
        "journalmedia_executor_waiting": "Asset requests waiting for an executor slot (queue depth).",
        "journalmedia_assets_total": "Assets processed, by kind and outcome (ok, or the error's reason).",
        "journalmedia_stage_duration_seconds": "Seconds each pipeline stage took, per asset, by stage.",
        "journalmedia_input_bytes_total": "Bytes of input assets read.",
        "journalmedia_output_bytes_total": "Bytes of renditions made.",
        "process_cpu_seconds_total": "User and system CPU time the process has used, in seconds.",
        "process_resident_memory_bytes": "Resident memory of the process, in bytes.",
        "process_virtual_memory_bytes": "Virtual memory of the process, in bytes.",
        "process_open_fds": "File descriptors the process has open.",
        "process_max_fds": "The process's descriptor limit (soft).",
        "process_start_time_seconds": "When the process started, in seconds since the Unix epoch.",
        "process_threads": "Threads of the process.",
    ]

    /// Prometheus text with a `# HELP` line put before each `# TYPE` line that has none and
    /// whose metric the catalog knows. Costs one pass over the text per scrape.
    static func withHelp(_ exposition: String) -> String {
        var out = ""
        out.reserveCapacity(exposition.utf8.count + 2048)
        var previous: Substring = ""
        for line in exposition.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst(7).prefix { $0 != " " }
                if !previous.hasPrefix("# HELP \(name) "), let text = help[String(name)] {
                    out += "# HELP \(name) \(text)\n"
                }
            }
            out += line
            out += "\n"
            previous = line
        }
        if out.hasSuffix("\n\n") { out.removeLast() }
        return out
    }
}
