import Foundation
import Hummingbird
import JournalMedia

/// The small routes: `GET /v1/color?background=#0A84FF[&base=#FFFFFF]` (the `color`
/// command's answer) and `POST /v1/dates` (the first bytes of a file, with `X-Filename`: its
/// capture date as `inspect` reads it, headers only). `/v1/color` costs microseconds and runs
/// where the request arrives. `/v1/dates` reads the metadata of the bytes it is sent (a body
/// read like the uploads' — `RequestBody`, within the body budget — of at most 4 MiB; for a
/// movie, libavformat's header parse) in a slot of the routes' `AssetExecutor`, as the uploads
/// are processed: never on the threads that answer other requests, and within the same
/// bound on work in flight (503 when `maxQueued` requests already wait). The probes and
/// `/metrics` are the server's own (`ProbeRoutes`).
struct UtilityRoutes: Sendable {
    let configuration: ServeConfiguration
    let executor: AssetExecutor
    let admission: UploadAdmission

    /// What `/v1/dates` reads at most: metadata sits in the first bytes of a file.
    static let datesBodyLimit = 4 * 1024 * 1024

    func add(to router: some RouterMethods) {
        router.get("/v1/color") { request, _ in try Self.color(request) }
        router.post("/v1/dates") { request, _ in
            let limit = min(Self.datesBodyLimit, configuration.maxBodyBytes)
            let reader = RequestBody(configuration: configuration, admission: admission)
            let (bytes, ticket) = try await reader.collect(request, limit: limit, countsAsUpload: false)
            defer { ticket.release() }
            let name = AssetRoutes.filename(request)
            var inspection = try await inspect(bytes, name: name)
            if !configuration.includeLocation { inspection = inspection.withoutLocation() }
            if let error = inspection.error, inspection.captureDate == nil {
                throw ProblemResponse(asset: error, retryAfter: AssetRoutes.retryAfterSeconds)
            }
            return Response.json(Data(inspection.jsonLine(source: name).utf8))
        }
    }

    /// `bytes`' inspection, read in a slot of the executor under a guard that the request's
    /// cancellation trips; a full queue or a cancelled wait is a 503.
    private func inspect(_ bytes: [UInt8], name: String) async throws(ProblemResponse) -> Inspection {
        let stop = DecodeGuard()
        switch await executor.run(under: stop, { CaptureDateReader.inspect(ProbedAsset(data: bytes, name: name, modified: nil, stop: stop)) }) {
        case .success(let inspection):
            return inspection
        case .failure(let refusal):
            throw ProblemResponse(asset: refusal.error(file: name, stop: stop, waiting: "requests"),
                                  retryAfter: AssetRoutes.retryAfterSeconds)
        }
    }

    static func color(_ request: Request) throws -> Response {
        guard let text = request.uri.queryParameters["background"].map(String.init) else {
            throw ProblemResponse(.badRequest, "background is required, e.g. ?background=%230A84FF", reason: "invalidInput")
        }
        let baseText = request.uri.queryParameters["base"].map(String.init) ?? "#FFFFFF"
        for (name, value) in [("background", text), ("base", baseText)] where !isColorText(value) {
            throw ProblemResponse(.badRequest, "\(name): not a colour (#RGB, #RRGGBB, #RRGGBBAA or R,G,B)", reason: "invalidInput")
        }
        let base: RGBColor, background: RGBColor
        do {
            base = try RGBColor.parse(baseText)
            background = try RGBColor.parse(text, over: base)
        } catch {
            throw ProblemResponse(.badRequest, "\(error)", reason: "invalidInput")
        }
        let choice = ForegroundChooser.choose(for: background)
        var object: [String: Any] = [
            "background": "\(choice.background)", "foreground": "\(choice.foreground)",
            "wcagRatio": choice.wcagRatio, "apcaLc": choice.apcaLc, "rule": "\(choice.rule)",
        ]
        if let a = choice.accessibleForeground {
            object["accessibleForeground"] = ["color": "\(a.color)", "wcagRatio": a.wcagRatio, "apcaLc": a.apcaLc,
                                              "target": "\(a.target)"]
        }
        return .json(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }
}
