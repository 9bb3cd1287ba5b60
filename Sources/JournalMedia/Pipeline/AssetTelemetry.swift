import JournalMediaCore
import Logging
import Metrics

/// What the library reports about each processed asset, through swift-log and
/// swift-metrics (both no-ops until the application bootstraps a back end):
///
/// - log, `debug`: one line per asset (source, kind, outcome, milliseconds, renditions);
///   `trace`: the seconds of each stage; failures carry stage, reason and message.
/// - metrics (labels are Prometheus-style names):
///   `journalmedia_assets_total{kind, outcome}` (outcome `ok` or the error's reason),
///   `journalmedia_stage_duration_seconds{stage}` (a timer per stage that ran),
///   `journalmedia_input_bytes_total`, `journalmedia_output_bytes_total` (rendition bytes).
///
/// Runs once at the end of each asset `AssetProcessor` processes (and each `Batch` unit);
/// costs a handful of metric handle look-ups and, when the level is enabled, one log line.
enum AssetTelemetry {
    static let assetsCounter = "journalmedia_assets_total"
    static let stageTimer = "journalmedia_stage_duration_seconds"
    static let inputBytesCounter = "journalmedia_input_bytes_total"
    static let outputBytesCounter = "journalmedia_output_bytes_total"

    static func record(_ result: AssetResult, logger: Logger) {
        let kind = result.kind?.rawValue ?? "unknown"
        let outcome = result.error?.reason.rawValue ?? "ok"
        Counter(label: assetsCounter, dimensions: [("kind", kind), ("outcome", outcome)]).increment()
        for stage in StageTimings.measuredStages where result.timings[stage] > 0 {
            Timer(label: stageTimer, dimensions: [("stage", stage.rawValue)])
                .recordSeconds(result.timings[stage])
        }
        if let bytes = result.bytes { Counter(label: inputBytesCounter).increment(by: bytes) }
        let written = result.renditions.reduce(0) { $0 + $1.bytes }
        if written > 0 { Counter(label: outputBytesCounter).increment(by: written) }

        var metadata: Logger.Metadata = [
            "source": "\(result.source)", "kind": "\(kind)", "outcome": "\(outcome)",
            "ms": "\(Int((result.timings.total * 1000).rounded()))", "renditions": "\(result.renditions.count)",
        ]
        if let error = result.error {
            metadata["stage"] = "\(error.stage.rawValue)"
            metadata["message"] = "\(error.message)"
        }
        logger.debug("asset processed", metadata: metadata)
        if logger.logLevel <= .trace {
            var stages: Logger.Metadata = ["source": "\(result.source)"]
            for stage in StageTimings.measuredStages {
                stages[stage.rawValue] = "\(result.timings[stage])"
            }
            logger.trace("asset stage seconds", metadata: stages)
        }
    }
}
