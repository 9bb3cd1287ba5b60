import ArgumentParser
import Foundation
import JournalMediaServer
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the toolkit over HTTP (the contract: GET /openapi.yaml).",
        discussion: """
            Every route but GET /healthz, /readyz, /metrics and /openapi.yaml needs the bearer token when \
            --token-file is given; a path not spelled exactly as a route (//, a trailing /, \
            . or .., %-escapes) is 400. Uploads are admitted before their body is read: 503 + \
            Retry-After when --max-concurrent-assets + --max-queued uploads are in progress or \
            the body budget is used up.

            Routes: POST /v1/assets (the raw file with an X-Filename header, or \
            multipart/form-data with a "file" part and an optional "preset" field; ?preset=NAME), \
            POST /v1/suggestions (multipart/form-data: a "bundle" part holding suggestion.json \
            and one part per referenced file, named by its bundle path), GET /v1/color, \
            POST /v1/dates, GET /healthz, GET /readyz, GET /metrics (Prometheus text), \
            GET /openapi.yaml (the OpenAPI contract this binary was built with; the .deb also \
            installs it as /usr/share/journal-media/openapi.yaml). Errors are \
            application/problem+json; a known path with another method is 405 with Allow.

            Operations: one access-log line per request on stderr (method, route pattern, \
            status, bytes, duration, request id; --log-format json for JSON lines); \
            X-Request-Id is kept when valid (1-128 of A-Z a-z 0-9 -_.:+/=@) or made, and \
            returned; --otlp-endpoint sends a span per request and per pipeline stage to an \
            OpenTelemetry collector (OTLP/HTTP JSON; off by default). Details: \
            docs/operations.md.

            On demand: GET /v1/render/SIGNATURE/PRESET/file/PATH (below render.storageRoot) or \
            …/enc/BASE64URL (an https:// URL within render.allowedHosts) answers the rendition's \
            bytes, signed by HMAC-SHA256 (config key "render"; no bearer token needed); see \
            docs/on-demand.md.

            Answers: JSON with the renditions base64-encoded (the default), or multipart/mixed \
            (the JSON part, then one part per file) when Accept asks for it; 406 when Accept \
            allows neither. With --output-dir the files are written there instead (atomically; \
            assets as PRESET/SHA256-16/NAME.ROLE.EXT, suggestions as suggestions/ID/BUNDLEID/… \
            with ID a UUID the server makes per request) \
            and the JSON gives their paths, relative to the folder. Binds 127.0.0.1 unless --host says otherwise; prints \
            "listening on http://HOST:PORT" once up. SIGTERM or SIGINT: /readyz turns 503, \
            the listener closes after --drain-delay, requests in flight finish (up to the \
            grace period, after which every connection is closed), exit 0.

            Settings come from --config FILE.json, then JM_* environment variables (JM_HOST, \
            JM_PORT, JM_MAX_BODY_BYTES, JM_BODY_BUDGET_BYTES, JM_MAX_PIXELS, JM_DEADLINE_SECONDS, \
            JM_MAX_CONCURRENT_ASSETS, JM_MAX_QUEUED, JM_MAX_PARTS, JM_OUTPUT_DIR, JM_TOKEN_FILE, \
            JM_HEADER_TIMEOUT_SECONDS, JM_IDLE_TIMEOUT_SECONDS, JM_BODY_TIMEOUT_SECONDS, \
            JM_MAX_CONNECTIONS, JM_GRACE_PERIOD_SECONDS, JM_LOG_FORMAT, JM_OTLP_ENDPOINT), then \
            these flags.

            Every connection has a header, an idle and a body time limit and counts against \
            --max-connections; the descriptor limit's soft value is raised to the hard one at \
            start-up (a systemd unit should still ask for LimitNOFILE=65536).
            """)

    @Option(help: ArgumentHelp("JSON configuration file (keys as in docs/service.md; presets by name).", valueName: "file"))
    var config: String?
    @Option(help: "Address to bind (default 127.0.0.1).") var host: String?
    @Option(help: "Port to bind; 0 picks a free one (default 8080).") var port: Int?
    @Option(help: ArgumentHelp("File holding the bearer token /v1/ requests must carry.", valueName: "file"))
    var tokenFile: String?
    @Option(help: "Assets processed at once (default: cores).") var maxConcurrentAssets: Int?
    @Option(help: "Requests that may wait for a slot; more get 503 (default 32).") var maxQueued: Int?
    @Option(help: "Largest request body in bytes (413 beyond; default 50 MiB).") var maxBodyBytes: Int?
    @Option(help: "Most bytes of request bodies held at once, all requests together (503 + Retry-After beyond, before the body is read; default 1/64 of physical memory or of the cgroup's memory limit when smaller, at least --max-body-bytes).")
    var bodyBudgetBytes: Int?
    @OptionGroup var pixels: PixelLimitOption
    @Option(help: ArgumentHelp("Write renditions below this folder and answer their paths (default: answer them inline).",
                               valueName: "dir"))
    var outputDir: String?
    @Option(help: "Most parts of a multipart/form-data upload (400 beyond; default 64).") var maxParts: Int?
    @Option(help: "Seconds per asset request, waiting included, and per item of a suggestion bundle (504 beyond; default 30).") var deadline: Double?
    @Option(help: "Seconds /readyz reports 503 on SIGTERM before the listener closes (default 0).") var drainDelay: Double?
    @Option(help: "Seconds in-flight requests get to finish on SIGTERM; then every connection is closed (default 30).")
    var gracePeriod: Double?
    @Option(help: "Seconds a new connection has to send a whole request head; closed beyond (default 10).")
    var headerTimeout: Double?
    @Option(help: "Seconds a connection may wait for its next request after an answer; closed beyond (default 30).")
    var idleTimeout: Double?
    @Option(help: "Seconds a client has to send a whole request body; 408 and closed beyond (default 30).")
    var bodyTimeout: Double?
    @Option(help: "Connections open at once, more are closed (default 1000; at most the descriptor limit less 256).")
    var maxConnections: Int?
    @Flag(name: .long, help: "Answer no location or place (null) for any asset (config key \"location\": false).")
    var noLocation = false
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (default info).") var logLevel: String?
    @Option(help: "Log lines as text (logfmt-like key=value, the default) or json (one object per line).")
    var logFormat: String?
    @Option(help: ArgumentHelp("Send spans to this OTLP/HTTP collector (http://host:4318; off by default).", valueName: "url"))
    var otlpEndpoint: String?

    func run() async throws {
        var settings = ServeConfiguration()
        do {
            if let config { try settings.apply(configFile: URL(fileURLWithPath: config)) }
            try settings.apply(environment: ProcessInfo.processInfo.environment)
            if let tokenFile { try settings.readToken(tokenFile) }
        } catch {
            throw ValidationError(error.description)
        }
        if let host { settings.host = host }
        if let port {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0–65535") }
            settings.port = port
        }
        if let value = maxConcurrentAssets { settings.maxConcurrentAssets = max(1, value) }
        if let value = maxQueued { settings.maxQueued = max(0, value) }
        if let value = maxBodyBytes { settings.maxBodyBytes = max(1, value) }
        if let value = bodyBudgetBytes { settings.bodyBudgetBytes = max(1, value) }
        if let value = pixels.maxPixels { settings.maxPixels = value }
        if let value = outputDir { settings.outputFolder = URL(fileURLWithPath: value) }
        if let value = maxParts { settings.maxParts = max(1, value) }
        if let value = deadline { settings.deadlineSeconds = max(0.001, value) }
        if let value = drainDelay { settings.drainDelaySeconds = max(0, value) }
        if let value = gracePeriod { settings.gracePeriodSeconds = max(0, value) }
        if let value = headerTimeout { settings.headerTimeoutSeconds = max(0.001, value) }
        if let value = idleTimeout { settings.idleTimeoutSeconds = max(0.001, value) }
        if let value = bodyTimeout { settings.bodyTimeoutSeconds = max(0.001, value) }
        if let value = maxConnections { settings.maxConnections = max(1, value) }
        do {
            if let value = logFormat { try settings.apply(option: "logFormat", value, flag: "--log-format") }
            if let value = otlpEndpoint { try settings.apply(option: "otlpEndpoint", value, flag: "--otlp-endpoint") }
        } catch {
            throw ValidationError(error.description)
        }
        let level = logLevel.flatMap { Logger.Level(rawValue: $0) } ?? .info
        if logLevel != nil && Logger.Level(rawValue: logLevel ?? "") == nil {
            throw ValidationError("--log-level: one of trace, debug, info, notice, warning, error, critical")
        }
        let format = settings.logFormat
        LoggingSystem.bootstrap { label in ServeLogHandler(label: label, format: format, level: level) }
        do { try settings.prepareOutputFolder() } catch { throw ValidationError(error.description) }
        let registry = JournalMediaServer.bootstrapMetrics()
        let server = JournalMediaServer(configuration: settings, registry: registry)
        let host = settings.host
        try await server.run { port in
            // Unbuffered: a supervisor or test reads this line to learn the port.
            FileHandle.standardOutput.write(Data("listening on http://\(host):\(port)\n".utf8))
        }
    }
}
