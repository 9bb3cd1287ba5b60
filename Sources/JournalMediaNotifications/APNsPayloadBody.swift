import Foundation

/// The JSON structure APNs receives: Apple's `aps` dictionary and the toolkit's custom keys
/// beside it. Encoded compactly, keys sorted, slashes unescaped, so the size measured is the
/// size sent.
struct APNsPayloadBody: Encodable {
    struct Alert: Encodable {
        var title: String?
        var subtitle: String?
        var body: String?
    }

    struct APS: Encodable {
        var alert: Alert
        var category: String?
        var threadID: String?
        var interruptionLevel: String?
        var relevanceScore: Double?
        var targetContentID: String?
        var mutableContent: Int?

        enum CodingKeys: String, CodingKey {
            case alert, category
            case threadID = "thread-id"
            case interruptionLevel = "interruption-level"
            case relevanceScore = "relevance-score"
            case targetContentID = "target-content-id"
            case mutableContent = "mutable-content"
        }
    }

    var aps: APS
    var attachmentURL: String?
    var suggestionLink: String?

    /// Must equal `PushPayload.attachmentURLKey` and `PushPayload.suggestionLinkKey`.
    enum CodingKeys: String, CodingKey {
        case aps
        case attachmentURL = "attachment-url"
        case suggestionLink = "suggestion-link"
    }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, integers and a finite Double (checked when the payload was made): encoding
        // cannot fail.
        return (try? encoder.encode(self)) ?? Data()
    }
}
