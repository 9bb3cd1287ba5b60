import Hummingbird
import JournalMedia
import Logging

/// The service's API routes for a backend that runs its own Hummingbird 2 application:
/// `POST /v1/assets`, `POST /v1/suggestions`, `GET /v1/color`, `POST /v1/dates` and
/// `GET /v1/render/…`, answering as `openapi.yaml` describes, mounted by `addRoutes(to:)` in
/// the backend's router or in a group of it (a path prefix, the backend's own middleware and
/// request context).
///
/// What the routes share lives here: the configuration (presets, limits, output folder,
/// on-demand keys and storage root), one bounded `AssetExecutor` that runs their assets, and
/// the upload admission (at most `maxConcurrentAssets + maxQueued` uploads in progress,
/// within the body budget). Failures are thrown as problem+json answers (Hummingbird's
/// `HTTPResponseError`), which the backend's router turns into responses.
///
/// What stays with `journal-media serve` (`JournalMediaServer`, which mounts these same
/// routes): the bearer token, `/healthz`, `/readyz`, `/metrics`, `/openapi.yaml`, access logs,
/// spans, connection limits and time-outs, and the graceful shutdown — a backend has its
/// own. The routes keep the server's path rule (a `//`, `.`/`..` segment, `%` escape or
/// backslash is 400) and, with an `outputFolder`, expect it prepared
/// (`ServeConfiguration.prepareOutputFolder()`, which the initializer calls).
///
/// Made once per application; cheap (a thread per asset while it runs, none at rest; a
/// processor per preset). The library product `JournalMedia` does not include
/// this type: only consumers of the `JournalMediaServer` product build Hummingbird and SwiftNIO.
public struct JournalMediaRoutes: Sendable {
    public let configuration: ServeConfiguration
    /// Runs the routes' assets and bundles; share it with the backend's own `AssetProcessor`s
    /// to bound all of the process's media work together.
    public let executor: AssetExecutor
    let admission: UploadAdmission
    let logger: Logger

    /// Routes over `configuration`; its output folder, when set, is created and checked here.
    /// `executor`: nil makes one of `maxConcurrentAssets` slots and `maxQueued` waiting places.
    public init(configuration: ServeConfiguration, executor: AssetExecutor? = nil,
                logger: Logger = Logger(label: "journal-media.routes")) throws(ServeConfiguration.Problem) {
        try configuration.prepareOutputFolder()
        self.init(unprepared: configuration, executor: executor, logger: logger)
    }

    /// The server's: it prepares the output folder when it starts.
    init(unprepared configuration: ServeConfiguration, executor: AssetExecutor?, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.executor = executor ?? AssetExecutor(maxConcurrentAssets: configuration.maxConcurrentAssets,
                                                  maxQueued: configuration.maxQueued, label: "serve")
        admission = UploadAdmission(budgetBytes: configuration.effectiveBodyBudgetBytes,
                                    maxUploads: configuration.maxConcurrentAssets + configuration.maxQueued)
    }

    /// Adds the routes to `router` (a `Router` or a `RouterGroup`, with any request context),
    /// at `openapi.yaml`'s paths below the group's prefix, behind the path rule.
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        add(to: router.group().add(middleware: BearerTokenMiddleware<Context>(token: nil)))
    }

    /// The routes alone: the server's router already has the path rule (and the token).
    func add(to router: some RouterMethods) {
        var processors: [String: AssetProcessor] = [:]
        for (name, renditions) in configuration.presets {
            processors[name] = AssetProcessor(options: configuration.processingOptions(renditions: renditions),
                                              executor: executor, logger: logger)
        }
        AssetRoutes(configuration: configuration, processors: processors, admission: admission).add(to: router)
        SuggestionRoutes(configuration: configuration, executor: executor, admission: admission).add(to: router)
        UtilityRoutes(configuration: configuration, executor: executor, admission: admission).add(to: router)
        RenderRoutes(configuration: configuration, executor: executor, admission: admission, logger: logger).add(to: router)
    }
}

extension RenderPath {
    /// The on-demand path in `path` as mounted: from the first `/v1/render/` on, so the route
    /// also answers below a backend's group prefix (`/media/v1/render/…`). The signature
    /// covers what follows the signature segment, never the prefix.
    init(mounted path: String) throws(Malformed) {
        let start = path.range(of: Self.prefix)?.lowerBound ?? path.startIndex
        try self.init(String(path[start...]))
    }
}
