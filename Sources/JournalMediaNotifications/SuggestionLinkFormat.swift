import Foundation

/// A validated `JSNotificationURLFormat`: the universal link an app declares in its
/// Info.plist so that a tapped Journaling Suggestions reminder opens it, with the
/// placeholder `{journaling-suggestion-id}` standing for the moment's UUID (replaced by
/// nothing for a general reminder).
///
/// Made once per app (a backend keeps one), from the Info.plist string; building a link is a
/// substring replacement, matching an incoming link (`match(_:)`) parses one URL, and
/// `appSiteAssociation(appIDs:)` writes the apple-app-site-association entry that routes
/// exactly these links to the app. Each is at most one URL parse plus a pass over the
/// path and query; Foundation only.
///
/// Accepted formats: `https://HOST/PATH/{journaling-suggestion-id}` (the placeholder is one
/// whole path component, anywhere in the path) or
/// `https://HOST/PATH/?NAME={journaling-suggestion-id}` (the placeholder is one whole query
/// value; other fixed query items may stand beside it). `http` is accepted with a warning.
public struct SuggestionLinkFormat: Sendable, Equatable, CustomStringConvertible {
    /// Where the placeholder stands.
    public enum Placement: Sendable, Equatable {
        /// The `index`-th path component (0 is the first after the host).
        case pathComponent(index: Int)
        /// The value of the query item `name`.
        case queryValue(name: String)
    }

    /// The format exactly as given (and as iOS reads it from the Info.plist).
    public let text: String
    /// Which spelling of the placeholder the format uses.
    public let placeholder: SuggestionLinkPlaceholder
    public let placement: Placement
    /// Lower-cased scheme: `https` (or `http`).
    public let scheme: String
    /// Lower-cased host name.
    public let host: String
    /// The port when the format names one.
    public let port: Int?
    /// Things that are allowed but probably not meant (an `http` link, a path that does not
    /// scope the link). Empty for a format like Apple's examples.
    public let warnings: [String]

    /// Path components as written (percent-encoded), the placeholder as nil; a trailing
    /// slash is a trailing empty component.
    let pathComponents: [String?]
    /// Fixed query items (decoded), in order; the placeholder's item is not among them.
    let fixedQueryItems: [QueryItem]

    struct QueryItem: Sendable, Equatable {
        var name: String
        var value: String
    }

    public var description: String { text }

    /// Validates a format. Throws naming what is wrong: the scheme, the host, the number or
    /// spelling of placeholders, or where the placeholder stands.
    public init(_ text: String) throws(SuggestionLinkError) {
        guard text.trimmingCharacters(in: .whitespacesAndNewlines) == text else {
            throw .surroundingWhitespace(format: text)
        }
        var counts: [(SuggestionLinkPlaceholder, Int)] = []
        for spelling in SuggestionLinkPlaceholder.allCases {
            counts.append((spelling, text.components(separatedBy: spelling.text).count - 1))
        }
        let total = counts.reduce(0) { $0 + $1.1 }
        if total > 1 { throw .severalPlaceholders(format: text, count: total) }
        guard let found = counts.first(where: { $0.1 == 1 })?.0 else {
            if let brace = Self.firstBraced(in: text) { throw .unknownPlaceholder(format: text, found: brace) }
            if text.lowercased().contains("%7bjournaling-sugges") { throw .encodedPlaceholder(format: text) }
            throw .noPlaceholder(format: text)
        }
        let sentinel = "jmsuggestionidsentinel"
        let substituted = text.replacingOccurrences(of: found.text, with: sentinel)
        if let brace = Self.firstBraced(in: substituted) { throw .unknownPlaceholder(format: text, found: brace) }
        guard !text.lowercased().contains(sentinel),
              let components = URLComponents(string: substituted),
              let rawScheme = components.scheme else {
            throw .notAURL(format: text)
        }
        var warnings: [String] = []
        let scheme = rawScheme.lowercased()
        switch scheme {
        case "https": break
        case "http":
            warnings.append("http: iOS opens only https links as universal links; http is accepted only because Apple's examples show it")
        default:
            throw .unsupportedScheme(format: text, scheme: rawScheme)
        }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            throw .credentials(format: text)
        }
        guard let rawHost = components.percentEncodedHost, !rawHost.isEmpty else { throw .noHost(format: text) }
        if rawHost.lowercased().contains(sentinel) {
            throw .placeholderPosition(format: text, detail: "it is in the host")
        }
        if let fragment = components.percentEncodedFragment {
            if fragment.contains(sentinel) { throw .placeholderPosition(format: text, detail: "it is in the #fragment") }
            throw .fragment(format: text)
        }

        // Path: "" or "/a/b/" -> [], ["a", "b", ""].
        let path = components.percentEncodedPath
        var pathComponents: [String?] = []
        var placement: Placement?
        if !path.isEmpty {
            for (index, part) in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).enumerated() {
                let part = String(part)
                if part == sentinel {
                    placement = .pathComponent(index: index)
                    pathComponents.append(nil)
                } else if part.contains(sentinel) {
                    throw .placeholderPosition(format: text, detail: "path component \"\(part.replacingOccurrences(of: sentinel, with: found.text))\" has other text beside it")
                } else if URLPath.isDot(part) || URLPath.isDoubleDot(part) {
                    throw .dotSegment(format: text)
                } else {
                    pathComponents.append(part)
                }
            }
        }

        // Query: fixed items and at most the placeholder's item.
        var fixedItems: [QueryItem] = []
        var queryName: String?
        for item in URLQuery.items(components.percentEncodedQuery) {
            if item.name.contains(sentinel) {
                throw .placeholderPosition(format: text, detail: "it is in the name of a query item")
            }
            if item.name.isEmpty {
                throw .ambiguousQuery(format: text, detail: "a query item has no name")
            }
            if item.value == sentinel {
                queryName = item.name
            } else if item.value.contains(sentinel) {
                throw .placeholderPosition(format: text, detail: "query value \"\(item.value.replacingOccurrences(of: sentinel, with: found.text))\" has other text beside it")
            } else {
                fixedItems.append(QueryItem(name: item.name, value: item.value))
            }
        }
        if let queryName {
            if fixedItems.contains(where: { $0.name == queryName }) {
                throw .ambiguousQuery(format: text, detail: "the query item \"\(queryName)\" appears more than once")
            }
            placement = .queryValue(name: queryName)
        }
        guard let placement else {
            throw .placeholderPosition(format: text, detail: "it is not where a URL parser finds a path component or query value")
        }

        let fixedPath = pathComponents.compactMap { $0 }.filter { !$0.isEmpty }
        if fixedPath.isEmpty {
            warnings.append("no fixed path component scopes the link: every such link on \(rawHost.lowercased()) would be taken for a suggestion link (Apple's format is a base URL with a unique path)")
        }

        self.text = text
        self.placeholder = found
        self.placement = placement
        self.scheme = scheme
        self.host = rawHost.lowercased()
        self.port = components.port
        self.warnings = warnings
        self.pathComponents = pathComponents
        self.fixedQueryItems = fixedItems
    }

    /// The link iOS opens for the moment `id`: the placeholder replaced by the UUID in
    /// upper case (as `UUID.uuidString` writes it; matching accepts either case).
    public func link(for id: UUID) -> String {
        text.replacingOccurrences(of: placeholder.text, with: id.uuidString)
    }

    /// The link iOS opens for a general reminder: the placeholder replaced by nothing.
    public var generalReminderLink: String {
        text.replacingOccurrences(of: placeholder.text, with: "")
    }

    /// Parses a suggestion id given on its own (`8-4-4-4-12` hexadecimal digits, either case).
    public static func suggestionID(_ text: String) throws(SuggestionLinkError) -> UUID {
        guard let id = uuid(text) else { throw .invalidSuggestionID(text) }
        return id
    }

    /// A UUID from exactly 36 characters `8-4-4-4-12` of hexadecimal digits, or nil.
    static func uuid(_ text: String) -> UUID? {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) {
                guard b == UInt8(ascii: "-") else { return nil }
            } else {
                let hex = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
                guard hex else { return nil }
            }
        }
        return UUID(uuidString: text)
    }

    /// The first `{…}` (or lone brace) in `text`, for error messages.
    private static func firstBraced(in text: String) -> String? {
        guard let open = text.firstIndex(where: { $0 == "{" || $0 == "}" }) else { return nil }
        if text[open] == "{", let close = text[open...].firstIndex(of: "}") {
            return String(text[open...close])
        }
        return String(text[open])
    }
}
