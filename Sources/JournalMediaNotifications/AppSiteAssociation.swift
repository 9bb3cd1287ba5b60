import Foundation

/// The `applinks` part of an `apple-app-site-association` file, as Apple documents it for
/// iOS 13 and later (`applinks.details[].appIDs` + `components`), which a backend serves at
/// `https://HOST/.well-known/apple-app-site-association` (JSON, no redirect) so that iOS
/// opens matching links in the app. Pure data with Codable; `jsonData()` writes it with
/// sorted keys and unescaped slashes.
public struct AppSiteAssociation: Sendable, Equatable, Codable {
    public var applinks: AppLinks

    public init(applinks: AppLinks) {
        self.applinks = applinks
    }

    /// Pretty-printed JSON, keys sorted, `/` not escaped (patterns stay readable).
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings, booleans, arrays and dictionaries only: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}

/// `applinks`: the apps of this domain and the links each opens. Pure data.
public struct AppLinks: Sendable, Equatable, Codable {
    public var details: [AppLinksDetail]

    public init(details: [AppLinksDetail]) {
        self.details = details
    }
}

/// `applinks.details[]`: apps (`TEAMID.bundle.id`) and the URL patterns they open, tried in
/// order; the first component that matches decides (an `exclude` match keeps the link in
/// the browser). Pure data.
public struct AppLinksDetail: Sendable, Equatable, Codable {
    public var appIDs: [String]
    public var components: [AppLinksComponent]

    public init(appIDs: [String], components: [AppLinksComponent]) {
        self.appIDs = appIDs
        self.components = components
    }
}

/// `applinks.details[].components[]`: patterns for the path (`/`), query (`?`, a pattern or
/// a dictionary of item names to value patterns) and fragment (`#`), where `*` matches any
/// run of characters and `?` exactly one; an absent key matches anything. `exclude: true`
/// stops matching and keeps the link out of the app; `comment` is ignored by iOS. Pure data;
/// iOS evaluates these patterns, not this toolkit.
public struct AppLinksComponent: Sendable, Equatable, Codable {
    public var path: String?
    public var query: Query?
    public var fragment: String?
    public var exclude: Bool?
    public var comment: String?

    /// The `?` key: one pattern for the whole query, or value patterns by item name.
    public enum Query: Sendable, Equatable, Codable {
        case pattern(String)
        case items([String: String])

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .pattern(text)
            } else {
                self = .items(try container.decode([String: String].self))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .pattern(let text): try container.encode(text)
            case .items(let items): try container.encode(items)
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case path = "/"
        case query = "?"
        case fragment = "#"
        case exclude, comment
    }

    public init(path: String? = nil, query: Query? = nil, fragment: String? = nil,
                exclude: Bool? = nil, comment: String? = nil) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.comment = comment
    }
}
