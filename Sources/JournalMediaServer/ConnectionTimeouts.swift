import Foundation
import HTTPTypes
import JournalMedia
import NIOCore
import NIOHTTPTypes
import Synchronization

/// Per-connection time limits for every route, below the router: a client that is slow or
/// silent cannot hold a connection (a descriptor, a buffer) for ever.
///
/// - header: from the connection's start until its first request head is complete (a
///   "slowloris" client trickling header bytes is closed);
/// - idle: from the end of a response until the next request head is complete;
/// - body: from a request's head until its last body byte (a stalled or endless body). When
///   it passes before any answer was sent, the connection gets `408` (problem+json) and is
///   closed; routes that read their body with a deadline of their own (`RequestBody`) answer
///   first, a moment earlier, and this closes what they left unread.
///
/// No limit runs while a request has been read and its answer is being made (the asset
/// deadline bounds that). Also counts the connection against `OpenConnections`, which closes
/// it at once when the server is full of busy connections. One per connection, on its event loop, between the HTTP codec
/// and Hummingbird; costs one scheduled task per phase.
final class ConnectionTimeouts: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The three limits.
    struct Limits: Sendable {
        var header: TimeAmount
        var idle: TimeAmount
        var body: TimeAmount
    }

    private enum Phase {
        /// Waiting for a request head: the first (header limit) or a next one (idle limit).
        case awaitingHead
        /// A head arrived; its body has not ended.
        case readingBody
        /// The request was read; its answer is being made.
        case answering
    }

    private let limits: Limits
    private let connections: OpenConnections
    private var phase = Phase.awaitingHead
    private var answerStarted = false
    private var started = false
    private var timer: Scheduled<Void>?

    init(limits: Limits, connections: OpenConnections) {
        self.limits = limits
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancelTimer() }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimer()
        context.fireChannelInactive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard connections.admit(context.channel) else {
            context.close(promise: nil)
            return
        }
        arm(context, after: limits.header)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            phase = .readingBody
            answerStarted = false
            connections.setWaiting(context.channel, false)
            arm(context, after: limits.body)
        case .body:
            break
        case .end:
            cancelTimer()
            phase = .answering
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head:
            answerStarted = true
        case .body:
            break
        case .end:
            // An answer given before its body ended (413, 408) leaves the body limit running:
            // it closes the connection if the rest of the body never comes.
            if phase == .answering {
                phase = .awaitingHead
                connections.setWaiting(context.channel, true)
                arm(context, after: limits.idle)
            }
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount) {
        cancelTimer()
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            timer = nil
            expire(context)
        }
    }

    private func cancelTimer() {
        timer?.cancel()
        timer = nil
    }

    private func expire(_ context: ChannelHandlerContext) {
        switch phase {
        case .answering:
            return
        case .awaitingHead:
            context.close(promise: nil)
        case .readingBody:
            if !answerStarted {
                answerStarted = true
                let seconds = Double(limits.body.nanoseconds) / 1e9
                for part in Self.requestTimeout(seconds: seconds) {
                    context.write(wrapOutboundOut(part), promise: nil)
                }
                context.flush()
            }
            context.close(promise: nil)
        }
    }

    /// The 408 problem answer for a body that did not end in time, as response parts.
    static func requestTimeout(seconds: Double) -> [HTTPResponsePart] {
        let object: [String: Any] = [
            "type": "urn:journal-media:problem:timeout", "title": "Request Timeout", "status": 408,
            "detail": "the body did not arrive within \(seconds) s", "reason": "timeout",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        let head = HTTPResponse(status: .requestTimeout, headerFields: [
            .contentType: "application/problem+json", .contentLength: "\(data.count)", .connection: "close",
        ])
        return [.head(head), .body(ByteBuffer(bytes: data)), .end(nil)]
    }
}

/// The connections the server holds open: at most `limit`, and all closed at once when a
/// shutdown's grace period ends (`closeAll()`). When a connection arrives to a full server,
/// the one that has waited longest for a request head (a slowloris client, an idle
/// keep-alive) is closed to make room; when every connection is busy with a request, the
/// newcomer is closed instead. So a flood of connections that never send a head cannot keep
/// a health check out. Shared by every connection's `ConnectionTimeouts`; costs one lock round
/// per connection opened, per request, and per close, and a scan of the open connections
/// when the server is full.
final class OpenConnections: Sendable {
    let limit: Int

    private struct Entry {
        let channel: any Channel
        /// Monotonic nanoseconds since when it has waited for a request head; nil while a request runs.
        var waitingSince: UInt64?
    }

    private let open = Mutex<[ObjectIdentifier: Entry]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts `channel` in (until it closes), waiting for its first head; false when the
    /// server is full of busy connections.
    func admit(_ channel: any Channel) -> Bool {
        let key = ObjectIdentifier(channel)
        let now = DecodeGuard.monotonicNow()
        let (admitted, evicted) = open.withLock { open -> (Bool, (any Channel)?) in
            var evicted: (any Channel)?
            if open.count >= limit {
                guard let oldest = open.filter({ $0.value.waitingSince != nil })
                    .min(by: { ($0.value.waitingSince ?? 0) < ($1.value.waitingSince ?? 0) }) else { return (false, nil) }
                evicted = open.removeValue(forKey: oldest.key)?.channel
            }
            open[key] = Entry(channel: channel, waitingSince: now)
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        if admitted {
            channel.closeFuture.whenComplete { _ in _ = self.open.withLock { $0.removeValue(forKey: key) } }
        }
        return admitted
    }

    /// Marks `channel` as waiting for a request head (true) or running a request (false).
    func setWaiting(_ channel: any Channel, _ waiting: Bool) {
        let key = ObjectIdentifier(channel)
        let now = DecodeGuard.monotonicNow()
        open.withLock { $0[key]?.waitingSince = waiting ? now : nil }
    }

    /// Connections open now.
    var count: Int { open.withLock { $0.count } }

    /// Closes every open connection (the end of a shutdown's grace period).
    func closeAll() {
        for entry in open.withLock({ Array($0.values) }) { entry.channel.close(promise: nil) }
    }
}
