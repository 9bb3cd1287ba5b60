/// The placeholder that iOS replaces with a moment's UUID in a `JSNotificationURLFormat`
/// link. Apple's pages spell it two ways, and both are accepted: the property-list key's
/// prose and the query example say `{journaling-suggestion-id}`, its path example says
/// `{journaling-suggesion-id}` (sic).
///
/// Pure data; recognising a spelling in a format is a substring search over the format.
public enum SuggestionLinkPlaceholder: String, Sendable, CaseIterable, Codable {
    /// `{journaling-suggestion-id}`, as in the key's description and query example.
    case documented = "{journaling-suggestion-id}"
    /// `{journaling-suggesion-id}`, as in the path example of the same page.
    case appleTypo = "{journaling-suggesion-id}"

    /// The placeholder text, braces included.
    public var text: String { rawValue }
}
