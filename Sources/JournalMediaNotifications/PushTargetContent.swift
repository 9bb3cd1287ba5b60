/// `aps.target-content-id`: which part of the app a tapped notification brings forward.
/// Pure data, checked when a `PushPayload` is made. Apple's rules differ for full apps and
/// App Clips:
///
/// - A full app: an identifier the app chose for a scene or piece of content; iOS matches it
///   against the scenes' `targetContentIdentifier` (UIKit's `UISceneActivationConditions`)
///   to pick the window to bring forward, and the app reads it from the notification
///   response. Any non-empty string.
/// - An App Clip serving several businesses (advanced App Clip experiences): it must be the
///   URL of the App Clip experience the notification is about, as registered in App Store
///   Connect; iOS delivers it to the launched App Clip instance whose invocation URL
///   matches it (the longest prefix), so each business's instance gets its own
///   notifications. An absolute https URL.
public enum PushTargetContent: Sendable, Equatable {
    /// A scene or content identifier of a full app.
    case content(String)
    /// The https URL of an App Clip experience.
    case appClipExperience(String)

    /// The value written under `target-content-id`.
    public var value: String {
        switch self {
        case .content(let id): return id
        case .appClipExperience(let url): return url
        }
    }
}
