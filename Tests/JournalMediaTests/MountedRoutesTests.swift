import Foundation
import Hummingbird
import Testing
import JournalMedia
import JournalMediaServer
import Logging

/// The service's routes mounted in a backend's own Hummingbird application (issue 32):
/// `JournalMediaRoutes.addRoutes(to:)` in a group with a prefix, the backend's own request
/// context and middleware, beside the backend's own route, served on 127.0.0.1. Uses only the
/// `JournalMediaServer` product's public API (no `@testable`).
@Suite(.serialized) struct MountedRoutesTests {
    /// A backend's request context: Hummingbird's core storage plus its own field.
    struct BackendContext: RequestContext {
        var coreContext: CoreRequestContextStorage
        var tenant = "none"
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    /// A backend's middleware: names the tenant and marks its answers.
    struct TenantMiddleware: RouterMiddleware {
        typealias Context = BackendContext
        func handle(_ request: Request, context: Context,
                    next: (Request, Context) async throws -> Response) async throws -> Response {
            var context = context
            context.tenant = "journal"
            var response = try await next(request, context)
            response.headers[.init("X-Tenant")!] = context.tenant
            return response
        }
    }

    /// The backend's app on a free loopback port, with the routes below `/media`.
    static func withBackend(_ configuration: ServeConfiguration, _ body: (URL) async throws -> Void) async throws {
        let router = Router(context: BackendContext.self)
        router.get("/status") { _, context in "backend up, tenant \(context.tenant)" }
        let routes = try JournalMediaRoutes(configuration: configuration)
        routes.addRoutes(to: router.group("/media").add(middleware: TenantMiddleware()))
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        // Cancelling the app at the end makes Hummingbird log errors; keep them out.
        var logger = Logger(label: "mounted-routes.test")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let running = Task { try await app.runService() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            Issue.record("the backend did not start")
            return
        }
        guard let base = URL(string: "http://127.0.0.1:\(port)") else { return }
        try await body(base)
    }

    static func url(_ base: URL, _ path: String) throws -> URL {
        try #require(URL(string: "\(base)\(path)"))
    }

    @Test func theRoutesAnswerInsideTheBackendsApp() async throws {
        let root = try TestSupport.temporaryFolder("mounted-storage")
        try FileManager.default.copyItem(at: TestSupport.sample("orientation-8-srgb.jpg"),
                                         to: root.appendingPathComponent("photo.jpg"))
        var configuration = ServeConfiguration()
        configuration.maxConcurrentAssets = 2
        configuration.render.storageRoot = root
        configuration.render.allowUnsigned = true
        let photo = try Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg"))
        try await Self.withBackend(configuration) { base in
            // The backend's own route is untouched.
            let status = try await ServerTests.request(Self.url(base, "/status"))
            #expect(status.status == 200 && status.text == "backend up, tenant none")

            // GET /v1/color, through the backend's middleware (its context reached the route).
            let color = try await ServerTests.request(Self.url(base, "/media/v1/color?background=%230A84FF"))
            #expect(color.status == 200, "\(color.text)")
            #expect(color.json["foreground"] as? String != nil && color.json["rule"] as? String != nil)
            #expect(color.headers["x-tenant"] == "journal")

            // POST /v1/assets: the manifest entry and the renditions inline.
            let asset = try await ServerTests.request(Self.url(base, "/media/v1/assets"), method: "POST", body: photo,
                                                      headers: ["X-Filename": "IMG_0001.JPG", "Content-Type": "image/jpeg"])
            #expect(asset.status == 200, "\(asset.text.prefix(300))")
            let renditions = asset.json["renditions"] as? [[String: Any]] ?? []
            #expect(renditions.compactMap { $0["role"] as? String }.contains("thumbnail"))
            #expect((asset.json["asset"] as? [String: Any])?["captureDate"] != nil)

            // POST /v1/dates.
            let dates = try await ServerTests.request(Self.url(base, "/media/v1/dates"), method: "POST", body: photo,
                                                      headers: ["X-Filename": "IMG_0001.JPG"])
            #expect(dates.status == 200 && dates.json["captureDate"] != nil, "\(dates.text)")

            // GET /v1/render/… below the prefix: the stored photo's thumbnail as WebP.
            let rendered = try await ServerTests.request(Self.url(base, "/media/v1/render/unsafe/default.thumbnail/file/photo.jpg"))
            #expect(rendered.status == 200, "\(rendered.text.prefix(300))")
            #expect(rendered.headers["content-type"] == "image/webp" && rendered.body.count > 100)

            // Failures are problem+json, turned into answers by the backend's own router.
            let missing = try await ServerTests.request(Self.url(base, "/media/v1/color"))
            #expect(missing.status == 400 && missing.headers["content-type"] == "application/problem+json")
            #expect(missing.json["reason"] as? String == "invalidInput" && missing.json["status"] as? Int == 400)
            let empty = try await ServerTests.request(Self.url(base, "/media/v1/assets"), method: "POST", body: Data(),
                                                      headers: ["X-Filename": "empty.jpg"])
            #expect(empty.status == 422 && empty.json["reason"] as? String == "empty", "\(empty.text)")
            // The server's path rule holds below the prefix too.
            let doubled = try await ServerTests.request(Self.url(base, "/media//v1/color?background=%23000000"))
            #expect(doubled.status == 400 && doubled.json["reason"] as? String == "invalidPath", "\(doubled.text)")

            // The server's own routes are not mounted: the backend has its own.
            for path in ["/media/healthz", "/media/metrics", "/media/openapi.yaml"] {
                #expect(try await ServerTests.request(Self.url(base, path)).status == 404, "\(path)")
            }
        }
    }

    @Test func anOutputFolderIsPreparedOrRefused() throws {
        let base = try TestSupport.temporaryFolder("mounted-output")
        var configuration = ServeConfiguration()
        configuration.outputFolder = base.appendingPathComponent("made/here")
        _ = try JournalMediaRoutes(configuration: configuration)
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("made/here").path, isDirectory: &isFolder)
                && isFolder.boolValue)
        let file = base.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        configuration.outputFolder = file
        #expect(throws: ServeConfiguration.Problem.self) { try JournalMediaRoutes(configuration: configuration) }
    }
}
