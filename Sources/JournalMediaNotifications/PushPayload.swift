import Foundation

/// An APNs notification payload for a journaling reminder: the `aps` dictionary (alert,
/// category, thread, interruption level, relevance, target content, `mutable-content` when
/// there is an attachment) and two custom keys, the attachment URL for the app's
/// notification service extension and the suggestion link a tap opens.
///
/// Made from a `PushContent` and a `PushDelivery`, which are validated here; `encoded(maxBytes:)`
/// writes the JSON and, when it is over APNs' 4,096 bytes, shortens only the body, at a
/// character boundary, with an ellipsis. Cost: one JSON encoding of a few kilobytes, or
/// about log2(body characters) of them when the body has to be shortened.
public struct PushPayload: Sendable, Equatable {
    /// APNs' limit for a notification payload, in bytes (VoIP pushes may have 5,120).
    public static let apnsMaxBytes = 4096
    /// Custom key of the attachment's URL, read by the app's notification service extension.
    public static let attachmentURLKey = "attachment-url"
    /// Custom key of the suggestion link.
    public static let suggestionLinkKey = "suggestion-link"
    /// Appended to a shortened body: U+2026 HORIZONTAL ELLIPSIS (3 bytes in UTF-8).
    public static let ellipsis = "\u{2026}"

    public let content: PushContent
    public let delivery: PushDelivery
    /// Settings that are allowed but may not do what was meant: a critical or time-sensitive
    /// level (entitlements), an attachment for an App Clip (App Clips have no notification
    /// service extension), plain http URLs.
    public let warnings: [String]

    /// Validates the fields: some alert text, no empty strings, relevance in 0…1, absolute
    /// http(s) URLs (https for an App Clip experience), a non-empty target content id.
    public init(content: PushContent, delivery: PushDelivery = PushDelivery()) throws(PushPayloadError) {
        let texts = [content.title, content.subtitle, content.body].compactMap { $0 }
        if texts.isEmpty { throw .emptyAlert }
        for (name, value) in [("title", content.title), ("subtitle", content.subtitle), ("body", content.body),
                              ("category", delivery.category), ("thread-id", delivery.threadID)] where value?.isEmpty == true {
            throw .emptyField(name)
        }
        var warnings: [String] = []
        if let score = delivery.relevanceScore, !(score.isFinite && (0...1).contains(score)) {
            throw .relevanceScore(score)
        }
        if let url = content.attachmentURL {
            if try Self.checkURL(url, field: "attachment URL", httpsOnly: false) == "http" {
                warnings.append("attachment URL is plain http: App Transport Security blocks the extension's download unless the app allows it")
            }
        }
        if let link = content.suggestionLink {
            _ = try Self.checkURL(link, field: "suggestion link", httpsOnly: false)
        }
        switch delivery.targetContent {
        case .content(let id)? where id.isEmpty:
            throw .emptyTargetContent
        case .appClipExperience(let url)?:
            _ = try Self.checkURL(url, field: "App Clip experience URL", httpsOnly: true)
            if content.attachmentURL != nil {
                warnings.append("App Clips cannot contain a notification service extension: an App Clip shows this notification without the attachment")
            }
        default:
            break
        }
        switch delivery.interruptionLevel {
        case .critical?:
            warnings.append("critical: iOS honours it only for apps with Apple's Critical Alerts entitlement (com.apple.developer.usernotifications.critical-alerts)")
        case .timeSensitive?:
            warnings.append("time-sensitive: the app needs the Time Sensitive Notifications capability (com.apple.developer.usernotifications.time-sensitive)")
        default:
            break
        }
        self.content = content
        self.delivery = delivery
        self.warnings = warnings
    }

    /// The wire structure with `body` as the alert body.
    func body(_ body: String?) -> APNsPayloadBody {
        APNsPayloadBody(
            aps: .init(alert: .init(title: content.title, subtitle: content.subtitle, body: body),
                       category: delivery.category, threadID: delivery.threadID,
                       interruptionLevel: delivery.interruptionLevel?.rawValue,
                       relevanceScore: delivery.relevanceScore,
                       targetContentID: delivery.targetContent?.value,
                       mutableContent: content.attachmentURL == nil ? nil : 1),
            attachmentURL: content.attachmentURL, suggestionLink: content.suggestionLink)
    }

    /// Checks an absolute URL with a host; returns its lower-cased scheme.
    private static func checkURL(_ text: String, field: String, httpsOnly: Bool) throws(PushPayloadError) -> String {
        let requirement = httpsOnly ? "an absolute https URL with a host" : "an absolute http(s) URL with a host"
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              let host = url.host, !host.isEmpty,
              httpsOnly ? scheme == "https" : (scheme == "https" || scheme == "http") else {
            throw .invalidURL(field: field, value: text, requirement: requirement)
        }
        return scheme
    }
}
