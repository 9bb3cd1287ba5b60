/// Why a push payload could not be made: which field or limit, and the value.
public enum PushPayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No title, subtitle or body: iOS would show nothing.
    case emptyAlert
    /// A field given as an empty string (`category`, `thread-id`, a title…).
    case emptyField(String)
    /// Not one of passive, active, time-sensitive, critical.
    case invalidInterruptionLevel(String)
    /// Not a finite number in 0…1.
    case relevanceScore(Double)
    /// A URL field that is not an absolute http(s) URL with a host (or https, where required).
    case invalidURL(field: String, value: String, requirement: String)
    /// An empty `target-content-id`.
    case emptyTargetContent
    /// A byte limit under the smallest possible payload or over APNs' largest (5120, VoIP).
    case invalidLimit(Int)
    /// Even with the body cut to an ellipsis the payload is over the limit; `bytes` is its
    /// size with an empty body.
    case fixedPartTooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .emptyAlert:
            return "the alert has no title, subtitle or body"
        case .emptyField(let field):
            return "\(field) is empty; leave it out instead"
        case .invalidInterruptionLevel(let text):
            return "interruption level \"\(text)\": use passive, active, time-sensitive or critical"
        case .relevanceScore(let value):
            return "relevance score \(value): use a number from 0 to 1"
        case .invalidURL(let field, let value, let requirement):
            return "\(field) \"\(value)\": \(requirement)"
        case .emptyTargetContent:
            return "target-content-id is empty"
        case .invalidLimit(let limit):
            return "byte limit \(limit): use 64…5120 (APNs allows 4096, 5120 for VoIP)"
        case .fixedPartTooLarge(let bytes, let limit):
            return "the payload is \(bytes) bytes without its body, over the \(limit)-byte limit: only the body is shortened, so shorten the title, subtitle, links or identifiers"
        }
    }
}
