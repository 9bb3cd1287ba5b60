/// What a person reads and opens in a pushed notification: the alert's texts, the picture
/// the notification service extension attaches, and the suggestion link a tap opens.
///
/// Plain values, validated when a `PushPayload` is made. Built from command-line flags
/// today; a processed suggestion (its `suggestion.json`: title, date, cover rendition URL,
/// id) maps onto the same fields — title to `title`, the formatted date to `subtitle`,
/// the cover's URL to `attachmentURL`, the id through `SuggestionLinkFormat.link(for:)`
/// to `suggestionLink`.
public struct PushContent: Sendable, Equatable {
    /// `aps.alert.title`.
    public var title: String?
    /// `aps.alert.subtitle`.
    public var subtitle: String?
    /// `aps.alert.body`; the only text shortened to fit the payload limit.
    public var body: String?
    /// An http(s) URL of an image (or short movie) for the app's notification service
    /// extension to download and attach; written under `PushPayload.attachmentURLKey`, and
    /// it sets `aps.mutable-content: 1` so that iOS runs the extension.
    public var attachmentURL: String?
    /// The suggestion link (`SuggestionLinkFormat.link(for:)` or the general-reminder
    /// link), written under `PushPayload.suggestionLinkKey` for the app to open on a tap.
    public var suggestionLink: String?

    public init(title: String? = nil, subtitle: String? = nil, body: String? = nil,
                attachmentURL: String? = nil, suggestionLink: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.attachmentURL = attachmentURL
        self.suggestionLink = suggestionLink
    }
}
