import Foundation
import Hummingbird
import JournalMedia
import Logging

/// `GET /v1/render/{signature}/{preset}/{source}` (`RenderPath`): one rendition of a stored
/// original, answered as its bytes with its `Content-Type`, for a CDN to cache. In order:
///
/// 1. the signature (`URLSignature`, any configured key; `unsafe` only when unsigned URLs are
///    enabled): 403 otherwise, in time independent of the given value;
/// 2. the preset (`NAME` or `NAME.ROLE`, one of `serve`'s presets): 404 when unknown; a
///    role with `format: auto` is made as AVIF, WebP or JPEG by `Accept` (`Vary: Accept`);
/// 3. the source, admitted like an upload (`UploadAdmission`: 503 + `Retry-After` when busy,
///    413 over `maxBodyBytes`): a file below the storage root (`StorageRoot`: 404 outside
///    it) or an `http(s)` URL (`SourceFetcher`: 403 refused, 404/502/504 upstream);
/// 4. `ETag` from the source's SHA-256 and the spec: `If-None-Match` → 304 before decoding;
///    a stored file's digest is remembered by its `fstat` identity (`SourceDigestCache`), so
///    a revalidation of a file seen before reads none of it;
/// 5. the rendition, made by the upload path's `AssetProcessor` on the server's executor,
///    with the same deadline and error answers (422 input faults, 503 queue full, 504 late),
///    in its lean mode: the source's digest handed over, no metadata walk, no colours.
///
/// 2xx and 304 carry the preset's `Cache-Control`; errors `Cache-Control: no-store`. Costs
/// the source's bytes in memory, one SHA-256 of them (none for a stored file already
/// hashed), and one decode at the rendition's size (shrink-on-load) + resize + encode.
struct RenderRoutes: Sendable {
    /// The matched route (also its metrics label: no signature, no source).
    static let route = "/v1/render/**"

    let configuration: ServeConfiguration
    let admission: UploadAdmission
    /// One processor per preset, role and output format (one rendition each).
    let processors: [String: AssetProcessor]
    /// Per processor key: the `ETag` fingerprint of its rendition spec.
    let specFingerprints: [String: String]
    let storage: StorageRoot?
    let fetcher: SourceFetcher
    /// Stored files' digests by `fstat` identity.
    let digests = SourceDigestCache()

    init(configuration: ServeConfiguration, executor: AssetExecutor, admission: UploadAdmission, logger: Logger) {
        self.configuration = configuration
        self.admission = admission
        let render = configuration.render
        var processors: [String: AssetProcessor] = [:]
        var fingerprints: [String: String] = [:]
        for (preset, specs) in configuration.presets {
            let auto = render.autoFormatRoles[preset] ?? []
            for spec in specs {
                let formats = auto.contains(spec.role) ? RenditionNegotiation.autoFormats : [spec.format]
                for format in formats {
                    let made = Self.spec(spec, as: format)
                    var options = configuration.processingOptions(renditions: [made])
                    // Only the rendition's bytes are answered: no colours, no metadata walk.
                    options.analyzeColors = false
                    options.readsMetadata = false
                    let key = Self.key(preset, spec.role, format)
                    processors[key] = AssetProcessor(options: options, executor: executor, logger: logger)
                    fingerprints[key] = RenditionNegotiation.specFingerprint(made)
                }
            }
        }
        self.processors = processors
        specFingerprints = fingerprints
        storage = render.storageRoot.map { StorageRoot(root: $0) }
        fetcher = SourceFetcher(configuration: render, maxBytes: configuration.maxBodyBytes)
    }

    static func key(_ preset: String, _ role: String, _ format: RenditionFormat) -> String {
        "\(preset)|\(role)|\(format.rawValue)"
    }

    /// `spec` made in `format` (an `auto` role): transparent sources keep the format when it
    /// carries alpha, else the spec's own `formatWhenTransparent`.
    static func spec(_ spec: RenditionSpec, as format: RenditionFormat) -> RenditionSpec {
        guard format != spec.format else { return spec }
        var made = spec
        made.format = format
        made.quality = format.defaultQuality
        made.formatWhenTransparent = format.carriesAlpha ? nil : spec.formatWhenTransparent
        return made
    }

    func add(to router: some RouterMethods) {
        router.get(RouterPath(stringLiteral: Self.route)) { request, _ in
            do {
                return try await self.handle(request)
            } catch let problem as ProblemResponse {
                var problem = problem
                problem.headers[.cacheControl] = "no-store"
                return problem.response
            }
        }
    }

    func handle(_ request: Request) async throws -> Response {
        let path: RenderPath
        do throws(RenderPath.Malformed) { path = try RenderPath(mounted: request.uri.path) } catch {
            throw ProblemResponse(.notFound, "render: \(error.detail)", reason: "notFound")
        }
        try checkSignature(path)
        let render = configuration.render
        let specs = configuration.presets[path.preset] ?? []
        guard let spec = path.role == nil ? specs.first : specs.first(where: { $0.role == path.role }) else {
            throw ProblemResponse(.notFound, "render: no preset \(path.preset)\(path.role.map { " with role \($0)" } ?? "")",
                                  reason: "notFound")
        }
        let isAuto = render.autoFormatRoles[path.preset]?.contains(spec.role) == true
        let format = isAuto ? RenditionNegotiation.autoFormat(accept: request.headers[.accept]) : spec.format
        let key = Self.key(path.preset, spec.role, format)
        guard let processor = processors[key], let fingerprint = specFingerprints[key] else {
            throw ProblemResponse(.notFound, "render: no processor for \(path.preset).\(spec.role)", reason: "notFound")
        }
        var headers: HTTPFields = [.cacheControl: render.cacheControl(ofPreset: path.preset)]
        if isAuto { headers[.vary] = "Accept" }

        let ifNoneMatch = request.headers[.ifNoneMatch]
        func notModified(_ digest: String) -> Response? {
            let tag = RenditionNegotiation.entityTag(sourceDigest: digest, specFingerprint: fingerprint)
            headers[.eTag] = tag
            return RenditionNegotiation.matches(ifNoneMatch: ifNoneMatch, tag: tag)
                ? Response(status: .notModified, headers: headers) : nil
        }
        let loaded: Loaded
        switch path.source {
        case .file(let relative):
            let file = try await open(relative)
            let known = digests.digest(for: file.version)
            // A file hashed before: a revalidation is answered without reading it.
            if let known, let answer = notModified(known) { return answer }
            loaded = try await read(file, knownDigest: known)
        case .url(let text):
            loaded = try await fetch(text)
        }
        defer { loaded.ticket.release() }
        if let answer = notModified(loaded.digest) { return answer }
        guard !loaded.bytes.isEmpty else {
            throw ProblemResponse(.unprocessableContent, "read: the source is empty", reason: "empty", stage: "read")
        }
        let result = await processor.process(data: loaded.bytes, filename: path.sourceName, sha256: loaded.digest,
                                             deadlineSeconds: configuration.deadlineSeconds)
        if let error = result.error {
            throw ProblemResponse(asset: error, retryAfter: AssetRoutes.retryAfterSeconds)
        }
        guard let rendition = result.renditions.first(where: { $0.role == spec.role }) else {
            throw ProblemResponse(.unprocessableContent, "encode: no \(spec.role) rendition was made for this source",
                                  reason: "encodeFailed", stage: "encode")
        }
        headers[.contentType] = rendition.format.mediaType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: rendition.data)))
    }

    /// 403 unless the signature is valid under a configured key, or the URL is unsigned and
    /// unsigned URLs are enabled.
    private func checkSignature(_ path: RenderPath) throws(ProblemResponse) {
        let render = configuration.render
        if path.signature == RenderPath.unsigned && render.allowUnsigned { return }
        guard URLSignature.isValid(path.signature, path: path.signedPath, keys: render.keys) else {
            throw ProblemResponse(.forbidden, "render: the signature does not match this path", reason: "badSignature")
        }
    }

    /// A source's bytes and SHA-256 (hex), read within the server's admission rules; the
    /// ticket holds their place in the body budget until the answer is made.
    struct Loaded {
        var bytes: [UInt8]
        var digest: String
        var ticket: UploadAdmission.Ticket
    }

    /// `relative` opened below the storage root (404 outside it or without one; 413 over
    /// `maxBodyBytes`, from `fstat`).
    private func open(_ relative: String) async throws(ProblemResponse) -> StorageRoot.OpenFile {
        guard let storage else {
            throw ProblemResponse(.notFound, "render: file sources are not configured (render.storageRoot)",
                                  reason: "notFound")
        }
        let limit = configuration.maxBodyBytes
        return try await BlockingWork.run { () throws(ProblemResponse) -> StorageRoot.OpenFile in
            do throws(StorageRoot.Refusal) {
                return try storage.open(relative, maxBytes: limit)
            } catch { throw Self.problem(error, limit: limit) }
        }
    }

    /// The stored file's bytes, admitted like an upload; hashed unless `knownDigest` (from
    /// `digests`) says what they hash to. A digest made here is remembered when the file's
    /// `fstat` is the same after the read as at the open.
    private func read(_ file: StorageRoot.OpenFile, knownDigest: String?) async throws(ProblemResponse) -> Loaded {
        let limit = configuration.maxBodyBytes
        let ticket = try admission.admit(declared: file.size, countsAsUpload: true).get()
        do throws(ProblemResponse) {
            let digests = self.digests
            let (bytes, digest) = try await BlockingWork.run { () throws(ProblemResponse) -> ([UInt8], String) in
                do throws(StorageRoot.Refusal) {
                    let bytes = try file.read()
                    if let knownDigest { return (bytes, knownDigest) }
                    let digest = ContentDigest.sha256(bytes)
                    if file.isUnchanged() { digests.record(digest, for: file.version) }
                    return (bytes, digest)
                } catch { throw Self.problem(error, limit: limit) }
            }
            return Loaded(bytes: bytes, digest: digest, ticket: ticket)
        } catch {
            ticket.release()
            throw error
        }
    }

    /// An `http(s)` source's bytes (`SourceFetcher`), admitted like an upload, and their digest.
    private func fetch(_ text: String) async throws(ProblemResponse) -> Loaded {
        let ticket = try admission.admit(declared: nil, countsAsUpload: true).get()
        do throws(ProblemResponse) {
            let bytes = try await fetcher.fetch(text, ticket: ticket)
            let digest = await BlockingWork.run { ContentDigest.sha256(bytes) }
            return Loaded(bytes: bytes, digest: digest, ticket: ticket)
        } catch {
            ticket.release()
            throw error
        }
    }

    private static func problem(_ refusal: StorageRoot.Refusal, limit: Int) -> ProblemResponse {
        switch refusal {
        case .notFound:
            ProblemResponse(.notFound, "render: no such file below the storage root", reason: "notFound")
        case .tooLarge(let size):
            ProblemResponse(.contentTooLarge, "limits: the source is \(size) bytes, over the limit of \(limit) bytes",
                            reason: "overByteLimit", stage: "limits")
        case .unreadable(let why):
            ProblemResponse(.unprocessableContent, "read: \(why)", reason: "unreadable", stage: "read")
        }
    }
}
