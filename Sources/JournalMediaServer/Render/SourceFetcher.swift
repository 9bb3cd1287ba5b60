import AsyncHTTPClient
import Foundation
import NIOCore

/// Fetches an on-demand URL source with async-http-client, within the SSRF rules of
/// `SourceAddressPolicy`: each URL (the first and every redirect, at most `maxRedirects`) is
/// checked, then fetched from exactly the address that was checked (a client per hop whose
/// `dnsOverride` pins the host to that address; TLS still verifies the host's certificate
/// and sends its name), with connect and read timeouts, one deadline for the whole fetch,
/// and the body bounded by `maxBytes` (from `Content-Length` first, then as it streams) and
/// by the server's body budget (`UploadAdmission.Ticket`). Runs per URL request; costs a
/// DNS lookup, a connection (and TLS handshake) per hop, and the body in memory.
struct SourceFetcher: Sendable {
    let policy: SourceAddressPolicy
    let maxRedirects: Int
    let connectTimeout: TimeAmount
    let readTimeout: TimeAmount
    let fetchTimeout: TimeAmount
    let maxBytes: Int

    init(configuration: RenderConfiguration, maxBytes: Int) {
        policy = SourceAddressPolicy(allowedHosts: configuration.allowedHosts, allowHTTP: configuration.allowHTTP)
        maxRedirects = configuration.maxRedirects
        connectTimeout = Self.amount(configuration.connectTimeoutSeconds)
        readTimeout = Self.amount(configuration.readTimeoutSeconds)
        fetchTimeout = Self.amount(configuration.fetchTimeoutSeconds)
        self.maxBytes = maxBytes
    }

    static func amount(_ seconds: Double) -> TimeAmount { .nanoseconds(Int64(min(seconds, 1e6) * 1e9)) }

    /// The source's bytes, or the problem to answer (403 refused by the policy, 404 missing
    /// upstream, 413 over the byte limit, 502 other upstream failures, 503 over the body
    /// budget, 504 past a timeout).
    func fetch(_ text: String, ticket: UploadAdmission.Ticket) async throws(ProblemResponse) -> [UInt8] {
        let deadline = NIODeadline.now() + fetchTimeout
        var current = text
        var hops = 0
        while true {
            let target: SourceAddressPolicy.Target
            do throws(SourceAddressPolicy.Refusal) { target = try await policy.check(current) } catch {
                throw ProblemResponse(.forbidden, error.detail, reason: "sourceNotAllowed", stage: "read")
            }
            switch try await fetchOnce(target, deadline: deadline, ticket: ticket) {
            case .body(let bytes):
                return bytes
            case .redirect(let location):
                hops += 1
                guard hops <= maxRedirects else {
                    throw ProblemResponse(.badGateway, "source: more than \(maxRedirects) redirects",
                                          reason: "sourceFailed", stage: "read")
                }
                guard let next = URL(string: location, relativeTo: target.url)?.absoluteURL.absoluteString else {
                    throw ProblemResponse(.badGateway, "source: a redirect to an unusable URL",
                                          reason: "sourceFailed", stage: "read")
                }
                current = next
            }
        }
    }

    private enum Hop { case body([UInt8]), redirect(String) }

    private func fetchOnce(_ target: SourceAddressPolicy.Target, deadline: NIODeadline,
                           ticket: UploadAdmission.Ticket) async throws(ProblemResponse) -> Hop {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: connectTimeout, read: readTimeout)
        configuration.dnsOverride = [target.host: target.address]
        configuration.decompression = .disabled
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let outcome: Result<Hop, ProblemResponse>
        do {
            outcome = .success(try await read(client: client, target: target, deadline: deadline, ticket: ticket))
        } catch let problem as ProblemResponse {
            outcome = .failure(problem)
        } catch {
            outcome = .failure(Self.problem(error, host: target.host))
        }
        try? await client.shutdown()
        return try outcome.get()
    }

    private func read(client: HTTPClient, target: SourceAddressPolicy.Target, deadline: NIODeadline,
                      ticket: UploadAdmission.Ticket) async throws -> Hop {
        var request = HTTPClientRequest(url: target.url.absoluteString)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "journal-media")
        let response = try await client.execute(request, deadline: deadline)
        switch response.status.code {
        case 200:
            break
        case 301, 302, 303, 307, 308:
            guard let location = response.headers.first(name: "location") else {
                throw ProblemResponse(.badGateway, "source: a redirect without Location", reason: "sourceFailed", stage: "read")
            }
            return .redirect(location)
        case 404, 410:
            throw ProblemResponse(.notFound, "source: \(target.host) answered \(response.status.code)",
                                  reason: "notFound", stage: "read")
        default:
            throw ProblemResponse(.badGateway, "source: \(target.host) answered \(response.status.code)",
                                  reason: "sourceFailed", stage: "read")
        }
        if let declared = response.headers.first(name: "content-length").flatMap(Int.init) {
            guard declared <= maxBytes else { throw Self.tooLarge(declared, limit: maxBytes) }
            guard ticket.grow(to: declared) else { throw UploadAdmission.busy("the server's body budget is used up") }
        }
        var bytes: [UInt8] = []
        for try await buffer in response.body {
            guard bytes.count + buffer.readableBytes <= maxBytes else { throw Self.tooLarge(nil, limit: maxBytes) }
            guard ticket.grow(to: bytes.count + buffer.readableBytes) else {
                throw UploadAdmission.busy("the server's body budget is used up")
            }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return .body(bytes)
    }

    static func tooLarge(_ declared: Int?, limit: Int) -> ProblemResponse {
        ProblemResponse(.contentTooLarge,
                        "limits: the source is \(declared.map { "\($0) bytes, " } ?? "")over the limit of \(limit) bytes",
                        reason: "overByteLimit", stage: "limits")
    }

    /// A client error as the answer: timeouts 504, everything else 502.
    static func problem(_ error: any Error, host: String) -> ProblemResponse {
        if let client = error as? HTTPClientError,
           [.connectTimeout, .readTimeout, .deadlineExceeded, .tlsHandshakeTimeout].contains(client) {
            return ProblemResponse(.gatewayTimeout, "source: \(host) did not answer in time (\(client))",
                                   reason: "timeout", stage: "read")
        }
        return ProblemResponse(.badGateway, "source: fetching from \(host) failed (\(error))",
                               reason: "sourceFailed", stage: "read")
    }
}
