/// Why a `JSNotificationURLFormat` value, a suggestion id or an app identifier was refused.
/// Each case names the offending part, so the message can be shown as is
/// (`journal-media link` prints it and exits with status 2).
public enum SuggestionLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither spelling of the placeholder occurs in the format.
    case noPlaceholder(format: String)
    /// The placeholder occurs more than once (either spelling counts).
    case severalPlaceholders(format: String, count: Int)
    /// A `{…}` that is not the placeholder (a misspelling, different case, another variable).
    case unknownPlaceholder(format: String, found: String)
    /// The placeholder is written percent-encoded (`%7B…%7D`); iOS looks for the literal text.
    case encodedPlaceholder(format: String)
    /// Leading or trailing white space, which iOS would keep in the link.
    case surroundingWhitespace(format: String)
    /// The text (with a UUID in place of the placeholder) is not an absolute URL.
    case notAURL(format: String)
    /// A scheme other than `https` (or `http`, accepted with a warning).
    case unsupportedScheme(format: String, scheme: String)
    /// No host name.
    case noHost(format: String)
    /// A user name or password before the host.
    case credentials(format: String)
    /// A fixed `#fragment`, which is not part of a universal link's routing.
    case fragment(format: String)
    /// `.` or `..` as a path component, which browsers resolve away before iOS sees the link.
    case dotSegment(format: String)
    /// The placeholder is somewhere other than a whole path component or a whole query value
    /// (inside the host, part of a component, a query name, the fragment).
    case placeholderPosition(format: String, detail: String)
    /// The query names the placeholder's item twice, or has an item without a name.
    case ambiguousQuery(format: String, detail: String)
    /// The format's fixed text contains `*` or `?`, which an apple-app-site-association
    /// pattern treats as wildcards and cannot match literally.
    case wildcardInFormat(format: String, text: String)
    /// Not a UUID (`8-4-4-4-12` hexadecimal digits).
    case invalidSuggestionID(String)
    /// Not an application identifier `TEAMID.bundle.id` (10 upper-case letters or digits, a
    /// dot, a bundle identifier).
    case invalidAppID(String)

    public var description: String {
        switch self {
        case .noPlaceholder(let format):
            return "\(format): no placeholder: the format must contain {journaling-suggestion-id} (or Apple's spelling {journaling-suggesion-id}) once"
        case .severalPlaceholders(let format, let count):
            return "\(format): the placeholder occurs \(count) times; exactly one is allowed"
        case .unknownPlaceholder(let format, let found):
            return "\(format): unknown placeholder \(found): expected {journaling-suggestion-id} or {journaling-suggesion-id}, spelled exactly"
        case .encodedPlaceholder(let format):
            return "\(format): the placeholder is percent-encoded; write {journaling-suggestion-id} literally, as iOS replaces the literal text"
        case .surroundingWhitespace(let format):
            return "\"\(format)\": leading or trailing white space"
        case .notAURL(let format):
            return "\(format): not an absolute URL"
        case .unsupportedScheme(let format, let scheme):
            return "\(format): scheme \"\(scheme)\": a universal link is https (http is accepted with a warning)"
        case .noHost(let format):
            return "\(format): no host: a universal link names the app's domain"
        case .credentials(let format):
            return "\(format): a user name or password before the host is not allowed in a universal link"
        case .fragment(let format):
            return "\(format): a #fragment is not part of a universal link's routing; remove it"
        case .dotSegment(let format):
            return "\(format): \".\" and \"..\" path components are resolved away by browsers; write the path without them"
        case .placeholderPosition(let format, let detail):
            return "\(format): the placeholder must be a whole path component or a whole query value: \(detail)"
        case .ambiguousQuery(let format, let detail):
            return "\(format): \(detail)"
        case .wildcardInFormat(let format, let text):
            return "\(format): \"\(text)\" contains * or ?, which apple-app-site-association patterns read as wildcards"
        case .invalidSuggestionID(let text):
            return "\"\(text)\" is not a suggestion id: expected a UUID such as 5F2C1B9E-3A4D-4E8B-9C61-7D0A2E4F8B13"
        case .invalidAppID(let text):
            return "\"\(text)\" is not an application identifier: expected TEAMID.bundle.id, e.g. ABCDE12345.com.example.journal"
        }
    }
}
