import Foundation
import JournalMedia
import Logging
import Synchronization

/// The log lines of `journal-media serve` on standard error, one per record: JSON objects
/// (`--log-format json`: `ts`, `level`, `logger`, `msg`, then the metadata as strings) for
/// log shippers, or logfmt-like `key=value` text (the default) for people. The access log
/// (`ObservedResponder`) writes through it like every other record. Costs one small string
/// build and one locked `write(2)` per record at or above the level.
public struct ServeLogHandler: LogHandler {
    /// The two line formats.
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let format: Format
    let sink: @Sendable (String) -> Void

    /// A handler writing to standard error.
    public init(label: String, format: Format, level: Logger.Level) {
        self.init(label: label, format: format, level: level) { line in Self.writeToStandardError(line) }
    }

    /// A handler giving each finished line (newline included) to `sink`; for tests.
    init(label: String, format: Format, level: Logger.Level, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.format = format
        self.logLevel = level
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { $1 } }
        if let given = event.metadata { fields.merge(given) { $1 } }
        sink(Self.line(format: format, time: Date(), level: event.level, label: label,
                       message: "\(event.message)", metadata: fields))
    }

    /// One record as a line: the fixed fields first, then the metadata sorted by key.
    static func line(format: Format, time: Date, level: Logger.Level, label: String, message: String,
                     metadata: Logger.Metadata) -> String {
        let stamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(time)
        var pairs: [(String, String)] = [("ts", stamp), ("level", level.rawValue), ("logger", label), ("msg", message)]
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { pairs.append((key, "\(value)")) }
        switch format {
        case .json:
            return "{" + pairs.map { "\(jsonString($0.0)):\(jsonString($0.1))" }.joined(separator: ",") + "}\n"
        case .text:
            return pairs.map { "\($0.0)=\(logfmtValue($0.1))" }.joined(separator: " ") + "\n"
        }
    }

    /// `text` as a JSON string literal (the toolkit's one JSON escaper).
    static func jsonString(_ text: String) -> String { JSONText.quoted(text) }

    /// `text` bare when it is one plain token, else quoted as JSON quotes it.
    static func logfmtValue(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "=" && $0 != "\\"
        }
        return plain ? text : jsonString(text)
    }

    private static let lock = Mutex<Void>(())

    static func writeToStandardError(_ line: String) {
        lock.withLock { _ in
            let bytes = Array(line.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { raw in raw.baseAddress.map { write(2, $0 + offset, raw.count - offset) } ?? -1 }
                if written <= 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
    }
}
