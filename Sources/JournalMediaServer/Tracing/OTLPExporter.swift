import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Sends finished spans to an OpenTelemetry collector over OTLP/HTTP with the JSON encoding
/// (`POST {endpoint}/v1/traces`, `Content-Type: application/json`): a batch every
/// `interval`, and the rest when the server shuts down. At most `maxQueued` spans wait;
/// beyond that new spans are dropped and counted (`dropped`), so a collector that is down
/// costs no more memory. `http://` endpoints only (a collector on the host or a sidecar);
/// a failed export is logged once per run of failures and its batch dropped.
///
/// A ServiceLifecycle service of the server's group, made when `otlpEndpoint` is set. Costs
/// one connection and one JSON encode per batch, on NIO's shared event loops.
final class OTLPExporter: Service, Sendable {
    struct Target: Sendable, Equatable {
        var host: String
        var port: Int
        var path: String

        /// `http://host[:port][/prefix]` → POST to prefix + `/v1/traces` (a URL already
        /// ending in `/v1/traces` is used as it is); nil for anything else.
        init?(endpoint: URL) {
            guard endpoint.scheme?.lowercased() == "http", let host = endpoint.host, !host.isEmpty else { return nil }
            self.host = host
            port = endpoint.port ?? 80
            var path = endpoint.path
            if !path.hasSuffix("/v1/traces") {
                if path.hasSuffix("/") { path.removeLast() }
                path += "/v1/traces"
            }
            self.path = path
        }
    }

    let target: Target
    let serviceName: String
    let serviceVersion: String
    let interval: Duration
    let maxQueued: Int
    let maxBatch = 512
    private let logger: Logger
    private let queue = Mutex<[OTLPSpanRecord]>([])
    private let counts = Mutex<(exported: Int, dropped: Int, failing: Bool)>((0, 0, false))

    init(target: Target, serviceName: String = "journal-media", serviceVersion: String, interval: Duration = .seconds(2),
         maxQueued: Int = 4096, logger: Logger) {
        self.target = target
        self.serviceName = serviceName
        self.serviceVersion = serviceVersion
        self.interval = interval
        self.maxQueued = maxQueued
        self.logger = logger
    }

    /// Spans sent and spans dropped (queue full or export failed) so far.
    var exported: Int { counts.withLock { $0.exported } }
    var dropped: Int { counts.withLock { $0.dropped } }

    func enqueue(_ span: OTLPSpanRecord) {
        let accepted = queue.withLock { queue -> Bool in
            guard queue.count < maxQueued else { return false }
            queue.append(span)
            return true
        }
        if !accepted { counts.withLock { $0.dropped += 1 } }
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: self.interval)
                await self.exportPending()
            }
        }
        await exportPending()
    }

    /// Sends everything queued now, in batches of `maxBatch`.
    func exportPending() async {
        while true {
            let batch = queue.withLock { queue -> [OTLPSpanRecord] in
                let batch = Array(queue.prefix(maxBatch))
                queue.removeFirst(batch.count)
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let body = try OTLPJSONEncoding.request(batch, serviceName: serviceName, serviceVersion: serviceVersion)
                let status = try await post(body)
                guard (200..<300).contains(status) else { throw ExportError.status(status) }
                let recovered = counts.withLock { counts -> Bool in
                    counts.exported += batch.count
                    defer { counts.failing = false }
                    return counts.failing
                }
                if recovered { logger.notice("OTLP export works again", metadata: ["endpoint": "\(target.host):\(target.port)"]) }
            } catch {
                let first = counts.withLock { counts -> Bool in
                    counts.dropped += batch.count
                    defer { counts.failing = true }
                    return !counts.failing
                }
                if first {
                    logger.warning("OTLP export failed; spans dropped until it works again",
                                   metadata: ["endpoint": "\(target.host):\(target.port)\(target.path)", "error": "\(error)"])
                }
                return
            }
        }
    }

    enum ExportError: Error, CustomStringConvertible {
        case status(Int), noAnswer
        var description: String {
            switch self {
            case .status(let code): "the collector answered \(code)"
            case .noAnswer: "the collector closed the connection without an answer"
            }
        }
    }

    /// One `POST` on a new connection (connect and answer within 10 s); the answer's status.
    private func post(_ body: Data) async throws -> Int {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: target.host, port: target.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        let host = target.port == 80 ? target.host : "\(target.host):\(target.port)"
        let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: target.path,
                                   headers: ["Host": host, "Content-Type": "application/json",
                                             "Content-Length": String(body.count), "Connection": "close"])
        return try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                try await channel.executeThenClose { inbound, outbound in
                    try await outbound.write(.head(head))
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                    try await outbound.write(.end(nil))
                    var status: Int?
                    for try await part in inbound {
                        if case .head(let answer) = part { status = Int(answer.status.code) }
                        if case .end = part { break }
                    }
                    guard let status else { throw ExportError.noAnswer }
                    return status
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                channel.channel.close(promise: nil)
                throw ExportError.noAnswer
            }
            defer { group.cancelAll() }
            guard let status = try await group.next() else { throw ExportError.noAnswer }
            return status
        }
    }
}
