import Foundation
import Synchronization
import Tracing

/// The identity of a span as W3C trace context carries it: 16-byte trace id, 8-byte span id,
/// hex-encoded. Stored in the `InstrumentationContext` under `OTLPSpanContextKey`, so child
/// spans (and `StageSpans`) find their parent, and read from an incoming `traceparent`.
struct OTLPSpanContext: Sendable, Hashable {
    var traceID: String
    var spanID: String
    /// Whether the caller asked for the trace to be sampled (`traceparent` flags bit 0).
    var sampled = true

    /// `00-TRACEID-SPANID-FLAGS`, the W3C `traceparent` header; nil when malformed or all zero.
    init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16,
              parts[3].count == 2, parts.prefix(4).allSatisfy({ $0.allSatisfy(\.isHexDigit) }),
              parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" }),
              let flags = UInt8(parts[3], radix: 16) else { return nil }
        traceID = parts[1].lowercased()
        spanID = parts[2].lowercased()
        sampled = flags & 1 == 1
    }

    init(traceID: String, spanID: String, sampled: Bool = true) {
        self.traceID = traceID
        self.spanID = spanID
        self.sampled = sampled
    }

    var traceparent: String { "00-\(traceID)-\(spanID)-\(sampled ? "01" : "00")" }

    static func newTraceID() -> String { RequestID.generate() }
    static func newSpanID() -> String {
        var generator = SystemRandomNumberGenerator()
        return RequestID.hex(generator.next(upperBound: UInt64.max - 1) + 1)
    }
}

/// The context key of the current span (ours, or the caller's from `traceparent`).
enum OTLPSpanContextKey: InstrumentationContextKey {
    typealias Value = OTLPSpanContext
    static var nameOverride: String? { "traceparent" }
}

extension InstrumentationContext {
    var otlpSpanContext: OTLPSpanContext? {
        get { self[OTLPSpanContextKey.self] }
        set { self[OTLPSpanContextKey.self] = newValue }
    }
}

/// A swift-distributed-tracing `Tracer` whose finished spans go to an `OTLPExporter`: a span
/// per request (`ObservedResponder`) and per pipeline stage (`StageSpans`). Extracts and
/// injects W3C `traceparent`. Made once per server when an OTLP endpoint is configured (off
/// by default); a span costs two random ids, a lock round per change and a queue append.
struct OTLPTracer: Tracer {
    let exporter: OTLPExporter

    /// The tracer of the request being answered (set by `ObservedResponder`), for
    /// `StageSpans`; nil when tracing is off.
    @TaskLocal static var current: OTLPTracer?

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> OTLPSpan {
        var context = context()
        let parent = context.otlpSpanContext
        let own = OTLPSpanContext(traceID: parent?.traceID ?? OTLPSpanContext.newTraceID(),
                                  spanID: OTLPSpanContext.newSpanID(), sampled: parent?.sampled ?? true)
        context.otlpSpanContext = own
        return OTLPSpan(name: operationName, kind: kind, context: context, identity: own, parentSpanID: parent?.spanID,
                        start: instant().nanosecondsSinceEpoch, exporter: own.sampled ? exporter : nil)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext,
                                              using extractor: Extract) where Extract.Carrier == Carrier {
        if let header = extractor.extract(key: "traceparent", from: carrier), let parent = OTLPSpanContext(traceparent: header) {
            context.otlpSpanContext = parent
        }
    }

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier,
                                           using injector: Inject) where Inject.Carrier == Carrier {
        if let own = context.otlpSpanContext { injector.inject(own.traceparent, forKey: "traceparent", into: &carrier) }
    }
}

/// One span being recorded; handed to the exporter as an `OTLPSpanRecord` when it ends.
final class OTLPSpan: Span {
    let context: InstrumentationContext
    let identity: OTLPSpanContext
    private let exporter: OTLPExporter?
    private let state: Mutex<OTLPSpanRecord>

    init(name: String, kind: SpanKind, context: InstrumentationContext, identity: OTLPSpanContext,
         parentSpanID: String?, start: UInt64, exporter: OTLPExporter?) {
        self.context = context
        self.identity = identity
        self.exporter = exporter
        state = Mutex(OTLPSpanRecord(name: name, kind: kind, traceID: identity.traceID, spanID: identity.spanID,
                                     parentSpanID: parentSpanID, startNanos: start))
    }

    var operationName: String {
        get { state.withLock { $0.name } }
        set { state.withLock { $0.name = newValue } }
    }

    var attributes: SpanAttributes {
        get { state.withLock { $0.attributes } }
        set { state.withLock { $0.attributes = newValue } }
    }

    var isRecording: Bool { state.withLock { $0.endNanos == nil } }

    func setStatus(_ status: SpanStatus) { state.withLock { $0.status = status } }

    func addEvent(_ event: SpanEvent) {
        state.withLock { $0.events.append((event.name, event.nanosecondsSinceEpoch, event.attributes)) }
    }

    func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes,
                                             at instant: @autoclosure () -> Instant) {
        var attributes = attributes
        attributes["exception.type"] = "\(type(of: error))"
        attributes["exception.message"] = "\(error)"
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
    }

    func addLink(_ link: SpanLink) {}

    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        let end = instant().nanosecondsSinceEpoch
        let finished = state.withLock { record -> OTLPSpanRecord? in
            guard record.endNanos == nil else { return nil }
            record.endNanos = max(end, record.startNanos)
            return record
        }
        if let finished { exporter?.enqueue(finished) }
    }
}

/// A span's data: what the OTLP encoding needs.
struct OTLPSpanRecord: @unchecked Sendable {
    var name: String
    var kind: SpanKind
    var traceID: String
    var spanID: String
    var parentSpanID: String?
    var startNanos: UInt64
    var endNanos: UInt64?
    var attributes: SpanAttributes = [:]
    var status: SpanStatus?
    var events: [(name: String, nanos: UInt64, attributes: SpanAttributes)] = []
}
