import Foundation
import Tracing

/// Finished spans as an OTLP/HTTP JSON `ExportTraceServiceRequest` (opentelemetry-proto's JSON
/// mapping: hex trace and span ids, 64-bit integers as decimal strings, enums as numbers),
/// under one resource (`service.name`, `service.version`) and one scope. Runs on the
/// exporter's task once per batch; costs one `JSONSerialization` of the batch.
enum OTLPJSONEncoding {
    static func request(_ spans: [OTLPSpanRecord], serviceName: String, serviceVersion: String) throws -> Data {
        let resource: [String: Any] = ["attributes": [attribute("service.name", .string(serviceName)),
                                                      attribute("service.version", .string(serviceVersion))]]
        let scope: [String: Any] = ["name": "journal-media", "version": serviceVersion]
        let object: [String: Any] = [
            "resourceSpans": [["resource": resource,
                               "scopeSpans": [["scope": scope, "spans": spans.map(span)]]]],
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func span(_ record: OTLPSpanRecord) -> [String: Any] {
        var object: [String: Any] = [
            "traceId": record.traceID, "spanId": record.spanID, "name": record.name, "kind": kind(record.kind),
            "startTimeUnixNano": String(record.startNanos), "endTimeUnixNano": String(record.endNanos ?? record.startNanos),
            "attributes": attributes(record.attributes),
        ]
        if let parent = record.parentSpanID { object["parentSpanId"] = parent }
        if let status = record.status {
            var encoded: [String: Any] = ["code": status.code == .ok ? 1 : 2]
            if let message = status.message { encoded["message"] = message }
            object["status"] = encoded
        }
        if !record.events.isEmpty {
            object["events"] = record.events.map { event -> [String: Any] in
                ["name": event.name, "timeUnixNano": String(event.nanos), "attributes": attributes(event.attributes)]
            }
        }
        return object
    }

    /// OTLP's SpanKind numbers: internal 1, server 2, client 3, producer 4, consumer 5.
    static func kind(_ kind: SpanKind) -> Int {
        switch kind {
        case .server: 2
        case .client: 3
        case .producer: 4
        case .consumer: 5
        default: 1
        }
    }

    static func attributes(_ attributes: SpanAttributes) -> [[String: Any]] {
        var list: [[String: Any]] = []
        attributes.forEach { key, value in list.append(attribute(key, value)) }
        return list.sorted { ($0["key"] as? String ?? "") < ($1["key"] as? String ?? "") }
    }

    static func attribute(_ key: String, _ value: SpanAttribute) -> [String: Any] {
        ["key": key, "value": anyValue(value)]
    }

    static func anyValue(_ value: SpanAttribute) -> [String: Any] {
        func array(_ values: [[String: Any]]) -> [String: Any] { ["arrayValue": ["values": values]] }
        switch value {
        case .int32(let number): return ["intValue": String(number)]
        case .int64(let number): return ["intValue": String(number)]
        case .double(let number): return ["doubleValue": number]
        case .bool(let flag): return ["boolValue": flag]
        case .string(let text): return ["stringValue": text]
        case .int32Array(let numbers): return array(numbers.map { ["intValue": String($0)] })
        case .int64Array(let numbers): return array(numbers.map { ["intValue": String($0)] })
        case .doubleArray(let numbers): return array(numbers.map { ["doubleValue": $0] })
        case .boolArray(let flags): return array(flags.map { ["boolValue": $0] })
        case .stringArray(let texts): return array(texts.map { ["stringValue": $0] })
        default: return ["stringValue": "\(value)"]
        }
    }
}
