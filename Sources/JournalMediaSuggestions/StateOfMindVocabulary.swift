import JournalMediaCore

/// Readable words for HealthKit's state-of-mind values (`HKStateOfMind.Kind`, `.Label`,
/// `.Association`, `.ValenceClassification`), and the 7-step valence scale. Unknown values
/// (newer HealthKit) are kept and shown neutrally, as their identifier split into words.
/// Dictionary lookups.
public enum StateOfMindVocabulary {
    public static let kinds = ["momentaryEmotion": "Momentary emotion", "dailyMood": "Daily mood"]

    /// The classes from most unpleasant to most pleasant (HealthKit's order).
    public static let valenceClasses = [
        "veryUnpleasant", "unpleasant", "slightlyUnpleasant", "neutral", "slightlyPleasant", "pleasant", "veryPleasant",
    ]

    public static let labels: Set<String> = [
        "amazed", "amused", "angry", "annoyed", "anxious", "ashamed", "brave", "calm", "confident", "content",
        "disappointed", "discouraged", "disgusted", "drained", "embarrassed", "excited", "frustrated", "grateful",
        "guilty", "happy", "hopeful", "hopeless", "indifferent", "irritated", "jealous", "joyful", "lonely",
        "overwhelmed", "passionate", "peaceful", "proud", "relieved", "sad", "satisfied", "scared", "stressed",
        "surprised", "worried",
    ]

    public static let associations: [String: String] = [
        "community": "Community", "currentEvents": "Current events", "dating": "Dating", "education": "Education",
        "family": "Family", "fitness": "Fitness", "friends": "Friends", "health": "Health", "hobbies": "Hobbies",
        "identity": "Identity", "money": "Money", "partner": "Partner", "selfCare": "Self-care",
        "spirituality": "Spirituality", "tasks": "Tasks", "travel": "Travel", "work": "Work", "weather": "Weather",
    ]

    public static func kind(_ value: String) -> String { kinds[value] ?? CardTextFormatter.words(value) }

    public static func label(_ value: String) -> String { CardTextFormatter.words(value) }

    public static func association(_ value: String) -> String {
        associations[value] ?? CardTextFormatter.words(value)
    }

    /// The class's index 0…6, from the bundle's classification when known, else from the
    /// valence in seven equal bins of −1…1.
    public static func classIndex(classification: String?, valence: Double) -> Int {
        if let classification, let index = valenceClasses.firstIndex(of: classification) { return index }
        return min(6, max(0, Int(((valence + 1) / 2 * 7).rounded(.down))))
    }

    /// "Very unpleasant" … "Very pleasant"; an unknown classification in words.
    public static func valenceClass(classification: String?, valence: Double) -> String {
        if let classification, !valenceClasses.contains(classification) { return CardTextFormatter.words(classification) }
        return CardTextFormatter.words(valenceClasses[classIndex(classification: classification, valence: valence)])
    }
}
