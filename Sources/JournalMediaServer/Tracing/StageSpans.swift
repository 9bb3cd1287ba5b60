import JournalMedia
import Tracing

/// A span per pipeline stage of an asset, children of the request's span: `read`,
/// `metadata`, `decode`, `analyze`, `encode`, `write` as `StageTimings` measured them (the
/// pipeline adds each stage's seconds up, so the spans are laid end to end, the last one
/// ending when the result came back), with the asset's kind and outcome as attributes and
/// the failed stage (the last that ran) marked as an error. Called by a route right after the library returns a result;
/// without tracing (no span in the task's context) it costs one task-local read.
enum StageSpans {
    static func record(_ result: AssetResult, tracer: OTLPTracer? = OTLPTracer.current) {
        guard let tracer, let parent = InstrumentationContext.current, parent.otlpSpanContext != nil else { return }
        let end = DefaultTracerClock.now.nanosecondsSinceEpoch
        var start = end &- min(end, UInt64(max(0, result.timings.total) * 1e9))
        let ran = StageTimings.measuredStages.filter { result.timings[$0] > 0 }
        for stage in ran {
            let seconds = result.timings[stage]
            let stop = min(end, start + UInt64(seconds * 1e9))
            let span = tracer.startSpan("stage \(stage.rawValue)", context: parent, ofKind: .internal,
                                        at: DefaultTracerClock.Instant(nanosecondsSinceEpoch: start))
            span.attributes["journalmedia.stage"] = stage.rawValue
            span.attributes["journalmedia.asset.kind"] = result.kind?.rawValue ?? "unknown"
            if let error = result.error, stage == ran.last {
                span.setStatus(SpanStatus(code: .error, message: error.reason.rawValue))
            }
            span.end(at: DefaultTracerClock.Instant(nanosecondsSinceEpoch: stop))
            start = stop
        }
    }
}
