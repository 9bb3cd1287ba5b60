/// How iOS files and presents a pushed notification: the `aps` keys besides the alert.
/// Plain values (no cost), validated when a `PushPayload` is made; every one is optional.
public struct PushDelivery: Sendable, Equatable {
    /// `aps.category`: a `UNNotificationCategory` identifier the app registered (its actions,
    /// its notification content extension).
    public var category: String?
    /// `aps.thread-id`: notifications with the same thread are grouped together.
    public var threadID: String?
    /// `aps.interruption-level`.
    public var interruptionLevel: PushInterruptionLevel?
    /// `aps.relevance-score`, 0…1: ranks the app's notifications in a summary (the highest is
    /// featured).
    public var relevanceScore: Double?
    /// `aps.target-content-id`.
    public var targetContent: PushTargetContent?

    public init(category: String? = nil, threadID: String? = nil,
                interruptionLevel: PushInterruptionLevel? = nil, relevanceScore: Double? = nil,
                targetContent: PushTargetContent? = nil) {
        self.category = category
        self.threadID = threadID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.targetContent = targetContent
    }
}
