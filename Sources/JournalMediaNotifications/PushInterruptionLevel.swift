/// `aps.interruption-level`: how strongly iOS presents a notification (iOS 15 and later).
/// Absent, iOS treats a notification as `active`. Parsed from flags with `parse(_:)`.
public enum PushInterruptionLevel: String, Sendable, CaseIterable, Codable {
    /// Added to the notification list silently: no sound, no lighting of the screen.
    case passive
    /// Presented at once, with sound; held back by Focus and notification summaries.
    case active
    /// Presented at once, breaking through Focus and the scheduled summary; the app needs
    /// the Time Sensitive Notifications capability.
    case timeSensitive = "time-sensitive"
    /// Presented at once, even when muted or in Focus; needs Apple's Critical Alerts
    /// entitlement, granted on request for health, safety and security uses.
    case critical

    /// Parses `passive`, `active`, `time-sensitive` or `critical` (exact, lower case).
    public static func parse(_ text: String) throws(PushPayloadError) -> PushInterruptionLevel {
        guard let level = PushInterruptionLevel(rawValue: text) else { throw .invalidInterruptionLevel(text) }
        return level
    }
}
