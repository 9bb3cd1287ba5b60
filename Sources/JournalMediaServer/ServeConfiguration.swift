import Foundation
import JournalMedia
import NIOCore

/// Everything `journal-media serve` can be told, with its defaults: from a JSON config file
/// (`--config serve.json`), then `JM_…` environment variables, then command-line flags (the
/// later wins). Read once at start-up; invalid values stop the server before it binds.
public struct ServeConfiguration: Sendable, Equatable {
    /// Address to bind; loopback unless asked otherwise.
    public var host = "127.0.0.1"
    /// Port to bind; 0 picks a free one (printed on start-up).
    public var port = 8080
    /// Largest request body accepted (413 beyond it).
    public var maxBodyBytes = 50 * 1024 * 1024
    /// Largest image accepted, width × height from the header (422 beyond it).
    public var maxPixels = Defaults.maxPixels
    /// Seconds one asset may take once it runs (504 beyond it).
    public var deadlineSeconds = 30.0
    /// Assets processed at once.
    public var maxConcurrentAssets = ProcessInfo.processInfo.activeProcessorCount
    /// Requests allowed to wait for a slot; more get 503 with Retry-After.
    public var maxQueued = 32
    /// Most bytes of request bodies held in memory at once, across all requests (a body that
    /// would pass it is refused before it is read: 503 + Retry-After, or 413 when it is over
    /// the whole budget); nil: `defaultBodyBudgetBytes`.
    public var bodyBudgetBytes: Int?
    /// Seconds a client has to send its whole body (408 beyond it, then the connection closes).
    public var bodyTimeoutSeconds = 30.0
    /// Seconds a new connection has to send a complete request head (closed beyond it).
    public var headerTimeoutSeconds = 10.0
    /// Seconds a connection may wait for its next request after an answer (closed beyond it).
    public var idleTimeoutSeconds = 30.0
    /// Connections open at once; more are closed as they arrive. The server also keeps it
    /// 256 below the descriptor limit (`DescriptorBudget`), whose soft value it raises to the hard one.
    public var maxConnections = 1000
    /// On SIGTERM: seconds `/readyz` answers 503 before the listener closes (load balancers
    /// stop sending), then in-flight requests finish within `gracePeriodSeconds`.
    public var drainDelaySeconds = 0.0
    public var gracePeriodSeconds = 30.0
    /// The bearer token every route but the probes and `/metrics` needs; nil: no authentication.
    public var token: String?
    /// Output-folder mode: renditions (and suggestion outputs) are written below this folder
    /// and answered by path instead of inline; nil: inline answers.
    public var outputFolder: URL?
    /// Most parts a `multipart/form-data` upload may have (400 beyond).
    public var maxParts = 64
    /// Rendition presets by name; `default` is used when a request names none.
    public var presets: [String: [RenditionSpec]] = ["default": Defaults.renditions]
    /// The card size classes a preset names (its `cardClasses`), by preset name.
    public var presetCardSizes: [String: [CardSize]] = [:]
    /// Answer where assets were made (`location`); config key `"location": false` or
    /// `serve --no-location` turns it off for every route (assets and inspect; suggestion outputs carry none).
    public var includeLocation = true
    /// Log lines (the access log included) as logfmt-like text or JSON objects, on stderr.
    public var logFormat = ServeLogHandler.Format.text
    /// An OpenTelemetry collector's OTLP/HTTP base URL (`http://127.0.0.1:4318`): a span per
    /// request and per pipeline stage is sent to `<url>/v1/traces` as JSON; nil: no tracing.
    public var otlpEndpoint: URL?
    /// Seconds between two span exports.
    public var otlpExportIntervalSeconds = 2.0
    /// The on-demand route (`GET /v1/render/…`): signing keys, sources, fetch limits; config key `"render"`.
    public var render = RenderConfiguration()

    public init() {}

    /// The body budget when none is configured: 1/64 of the memory the process may use (384
    /// MiB on 24 GiB) — the machine's, or its control group's limit when smaller (a
    /// container's; `HostMemory`) — and at least one largest body (`maxBodyBytes`).
    public var defaultBodyBudgetBytes: Int { defaultBodyBudgetBytes(memory: HostMemory.available()) }

    /// `defaultBodyBudgetBytes` for a process that may use `memory` bytes.
    func defaultBodyBudgetBytes(memory: UInt64) -> Int { max(maxBodyBytes, Int(clamping: memory / 64)) }

    /// `bodyBudgetBytes`, or the default.
    public var effectiveBodyBudgetBytes: Int { bodyBudgetBytes ?? defaultBodyBudgetBytes }

    /// A configuration problem, named by its key.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Reads a JSON config file over the defaults. Keys: the property names above, plus
    /// `tokenFile` (a file holding the token) and `presets` (name → a preset as accepted by
    /// `convert --preset`).
    public mutating func apply(configFile url: URL) throws(Problem) {
        let object: [String: Any]
        do {
            let data = try Data(contentsOf: url)
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw Problem(description: "\(url.path): not a JSON object")
            }
            object = parsed
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(description: "\(url.path): \(error.localizedDescription)")
        }
        for (key, value) in object {
            try apply(key: key, value: value, from: url.path)
        }
    }

    /// `JM_HOST`, `JM_PORT`, `JM_MAX_BODY_BYTES`, `JM_BODY_BUDGET_BYTES`, `JM_MAX_PIXELS`,
    /// `JM_DEADLINE_SECONDS`, `JM_MAX_CONCURRENT_ASSETS`, `JM_MAX_QUEUED`, `JM_MAX_PARTS`,
    /// `JM_OUTPUT_DIR`, `JM_TOKEN_FILE`, `JM_LOG_FORMAT`, `JM_OTLP_ENDPOINT`, and the connection limits `JM_HEADER_TIMEOUT_SECONDS`,
    /// `JM_IDLE_TIMEOUT_SECONDS`, `JM_BODY_TIMEOUT_SECONDS`, `JM_MAX_CONNECTIONS`, `JM_GRACE_PERIOD_SECONDS`.
    public mutating func apply(environment: [String: String]) throws(Problem) {
        var keys: [String: String] = ["JM_HOST": "host", "JM_PORT": "port", "JM_MAX_BODY_BYTES": "maxBodyBytes",
                    "JM_BODY_BUDGET_BYTES": "bodyBudgetBytes",
                    "JM_MAX_PIXELS": "maxPixels", "JM_DEADLINE_SECONDS": "deadlineSeconds",
                    "JM_MAX_CONCURRENT_ASSETS": "maxConcurrentAssets", "JM_MAX_QUEUED": "maxQueued",
                    "JM_MAX_PARTS": "maxParts", "JM_OUTPUT_DIR": "outputDir", "JM_TOKEN_FILE": "tokenFile",
                    "JM_LOG_FORMAT": "logFormat", "JM_OTLP_ENDPOINT": "otlpEndpoint"]
        keys.merge(Self.connectionLimitVariables) { $1 }
        for (variable, key) in keys.sorted(by: { $0.key < $1.key }) {
            guard let text = environment[variable] else { continue }
            let isText = ["host", "tokenFile", "outputDir", "logFormat", "otlpEndpoint"].contains(key)
            let value: Any = isText ? text : Double(text).map { $0 as Any } ?? text
            try apply(key: key, value: value, from: variable)
        }
    }

    /// One text setting given on the command line (`flag`), checked as the config key `key`.
    public mutating func apply(option key: String, _ value: String, flag: String) throws(Problem) {
        try apply(key: key, value: value, from: flag)
    }

    private mutating func apply(key: String, value: Any, from origin: String) throws(Problem) {
        func number(_ minimum: Double) throws(Problem) -> Double {
            guard let number = (value as? NSNumber)?.doubleValue, number.isFinite, number >= minimum else {
                throw Problem(description: "\(origin): \(key) must be a number ≥ \(minimum)")
            }
            return number
        }
        func integer(_ minimum: Int) throws(Problem) -> Int {
            let value = try number(Double(minimum))
            guard value == value.rounded(), value < 1e15 else {
                throw Problem(description: "\(origin): \(key) must be a whole number")
            }
            return Int(value)
        }
        switch key {
        case "host":
            guard let text = value as? String, !text.isEmpty else { throw Problem(description: "\(origin): host must be text") }
            host = text
        case "port":
            port = try integer(0)
            guard port <= 65535 else { throw Problem(description: "\(origin): port must be 0–65535") }
        case "maxBodyBytes": maxBodyBytes = try integer(1)
        case "bodyBudgetBytes": bodyBudgetBytes = try integer(1)
        case "maxPixels": maxPixels = try integer(1)
        case "deadlineSeconds": deadlineSeconds = try number(0.001)
        case "maxConcurrentAssets": maxConcurrentAssets = try integer(1)
        case "maxQueued": maxQueued = try integer(0)
        case "bodyTimeoutSeconds": bodyTimeoutSeconds = try number(0.001)
        case "headerTimeoutSeconds": headerTimeoutSeconds = try number(0.001)
        case "idleTimeoutSeconds": idleTimeoutSeconds = try number(0.001)
        case "maxConnections": maxConnections = try integer(1)
        case "drainDelaySeconds": drainDelaySeconds = try number(0)
        case "gracePeriodSeconds": gracePeriodSeconds = try number(0)
        case "maxParts": maxParts = try integer(1)
        case "location":
            guard let flag = value as? NSNumber, String(cString: flag.objCType) == "c" else {
                throw Problem(description: "\(origin): location must be true or false")
            }
            includeLocation = flag.boolValue
        case "outputDir":
            guard let path = value as? String, !path.isEmpty else { throw Problem(description: "\(origin): outputDir must be a path") }
            outputFolder = URL(fileURLWithPath: path)
        case "logFormat":
            guard let text = value as? String, let format = ServeLogHandler.Format(rawValue: text) else {
                throw Problem(description: "\(origin): logFormat must be text or json")
            }
            logFormat = format
        case "otlpEndpoint":
            guard let text = value as? String, let url = URL(string: text), OTLPExporter.Target(endpoint: url) != nil else {
                throw Problem(description: "\(origin): otlpEndpoint must be an http:// URL (an OTLP/HTTP collector)")
            }
            otlpEndpoint = url
        case "otlpExportIntervalSeconds": otlpExportIntervalSeconds = try number(0.01)
        case "tokenFile":
            guard let path = value as? String else { throw Problem(description: "\(origin): tokenFile must be a path") }
            try readToken(path)
        case "presets":
            guard let table = value as? [String: Any], !table.isEmpty else {
                throw Problem(description: "\(origin): presets must map names to presets")
            }
            var presets: [String: [RenditionSpec]] = [:]
            presetCardSizes = [:]
            (render.cacheControl, render.autoFormatRoles) = ([:], [:])
            for (name, given) in table {
                guard name.range(of: "^[A-Za-z0-9_-]{1,64}$", options: .regularExpression) != nil else {
                    throw Problem(description: "\(origin): preset name \(name) must be letters, digits, - or _")
                }
                let preset = try render.takeRenderSettings(ofPreset: name, from: given, origin: origin)
                do {
                    let data = try JSONSerialization.data(withJSONObject: preset)
                    let contents = try Preset.parseContents(data)
                    presets[name] = contents.renditions
                    if let sizes = contents.cardSizes { presetCardSizes[name] = sizes }
                } catch {
                    throw Problem(description: "\(origin): presets.\(name): \(error)")
                }
            }
            if presets["default"] == nil { presets["default"] = Defaults.renditions }
            self.presets = presets
        case "render": try render.apply(value, from: origin)
        default:
            throw Problem(description: "\(origin): unknown key \(key)")
        }
    }

    /// The environment variables of the connection limits and the grace period, by key.
    static let connectionLimitVariables: [String: String] = [
        "JM_HEADER_TIMEOUT_SECONDS": "headerTimeoutSeconds", "JM_IDLE_TIMEOUT_SECONDS": "idleTimeoutSeconds",
        "JM_BODY_TIMEOUT_SECONDS": "bodyTimeoutSeconds", "JM_MAX_CONNECTIONS": "maxConnections",
        "JM_GRACE_PERIOD_SECONDS": "gracePeriodSeconds",
    ]

    /// The per-connection time limits (`ConnectionTimeouts`). The body limit runs half a second
    /// past `bodyTimeoutSeconds`, so a route reading its body with that deadline answers first.
    var connectionTimeouts: ConnectionTimeouts.Limits {
        func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(min(seconds, 1e9) * 1e9)) }
        return .init(header: amount(headerTimeoutSeconds), idle: amount(idleTimeoutSeconds),
                     body: amount(bodyTimeoutSeconds + 0.5))
    }

    /// `maxConnections`, kept `DescriptorBudget.reserve` below the process's descriptor limit
    /// (raised to the hard limit first): past that, accepting would fail and starve the
    /// health checks.
    var connectionLimit: Int {
        max(1, min(maxConnections, DescriptorBudget.processLimit() - DescriptorBudget.reserve))
    }

    /// Creates the output folder when missing and checks that it is a writable folder; the
    /// server calls it before it binds. Nothing to do without an output folder.
    public func prepareOutputFolder() throws(Problem) {
        guard let folder = outputFolder else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Problem(description: "output folder \(folder.path): \(error.localizedDescription)")
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw Problem(description: "output folder \(folder.path) is not writable")
        }
    }

    /// Reads the bearer token from a file (surrounding whitespace dropped; must not be empty).
    public mutating func readToken(_ path: String) throws(Problem) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Problem(description: "cannot read the token file \(path)")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Problem(description: "the token file \(path) is empty") }
        token = trimmed
    }
}
