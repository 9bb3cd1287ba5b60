/// An on-demand URL's path, `/v1/render/{signature}/{preset}/{source}`, taken apart:
///
/// - `signature`: unpadded base64url HMAC-SHA256 of everything after it (`URLSignature`),
///   or `unsafe` when unsigned URLs are enabled;
/// - `preset`: `NAME` (the preset's first rendition) or `NAME.ROLE`;
/// - `source`: `file/PATH…` (a file below the storage root, in plain segments), or
///   `enc/BASE64URL` whose text is an `https://` (or `http://`) URL, or `local:///PATH` (a file
///   below the storage root, for paths a plain segment cannot spell).
///
/// Parsed per request after the server's path check (`CanonicalPath`: no `%`, `.`/`..` or
/// empty segments); costs one split of the path.
struct RenderPath: Sendable, Equatable {
    enum Source: Sendable, Equatable {
        /// A path relative to the storage root, as given (checked by `StorageRoot`).
        case file(String)
        /// An `http(s)://` URL (checked by `SourceAddressPolicy` before and while fetching).
        case url(String)
    }

    /// The route's prefix.
    static let prefix = "/v1/render/"
    /// The signature segment that marks an unsigned URL.
    static let unsigned = "unsafe"

    var signature: String
    /// The part the signature covers: `/PRESET/SOURCE…`.
    var signedPath: String
    var preset: String
    var role: String?
    var source: Source

    /// Why a path is not an on-demand URL (answered as 404).
    struct Malformed: Error, Equatable {
        var detail: String
    }

    init(_ path: String) throws(Malformed) {
        guard path.hasPrefix(Self.prefix) else { throw Malformed(detail: "not a render path") }
        let segments = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 4 else {
            throw Malformed(detail: "expected /v1/render/{signature}/{preset}/file/{path} or …/enc/{base64url}")
        }
        signature = String(segments[0])
        signedPath = "/" + segments.dropFirst().joined(separator: "/")
        let presetParts = segments[1].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        preset = String(presetParts[0])
        role = presetParts.count > 1 ? String(presetParts[1]) : nil
        let rest = segments.dropFirst(3)
        switch segments[2] {
        case "file":
            source = .file(rest.joined(separator: "/"))
        case "enc":
            guard rest.count == 1, let bytes = Base64URL.decode(String(rest[rest.startIndex])),
                  let text = String(validating: bytes, as: UTF8.self) else {
                throw Malformed(detail: "enc/ takes one base64url segment holding a URL")
            }
            let lowered = text.lowercased()
            if lowered.hasPrefix("local:///") {
                source = .file(String(text.dropFirst("local:///".count)))
            } else if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
                source = .url(text)
            } else {
                throw Malformed(detail: "enc/ sources are https://, http:// or local:/// URLs")
            }
        default:
            throw Malformed(detail: "the source starts with file/ or enc/")
        }
    }

    /// A source's display name: the last path component (for file-name dates and errors).
    var sourceName: String {
        switch source {
        case .file(let path): return AssetRoutes.filename(path)
        case .url(let text):
            let withoutQuery = text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
            return AssetRoutes.filename(String(withoutQuery.dropFirst(withoutQuery.hasPrefix("https") ? 8 : 7)))
        }
    }
}
