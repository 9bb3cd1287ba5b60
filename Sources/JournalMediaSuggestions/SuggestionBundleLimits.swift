import JournalMediaCore

/// Bounds on what a bundle may hold, checked while reading it so a hostile bundle costs
/// bounded time and memory. The JSON Schema states the same numbers (`maxItems`,
/// `maxLength`); the file-size bound is checked before the parse.
///
/// With them, the worst accepted bundle is a 256 MiB file: about 400 MiB to read
/// a route of a million points, and cards that stay bounded because texts are shortened
/// and routes simplified before drawing.
public enum SuggestionBundleLimits {
    /// The bundle file itself.
    public static let maxFileBytes = 256 * 1024 * 1024
    /// Apple's picker gives at most 13 items per suggestion.
    public static let maxItems = 13
    /// A reflection prompt, in Unicode scalars (JSON Schema's `maxLength` unit).
    public static let maxPromptLength = 1_048_576
    /// Any other text (titles, names, ids), in Unicode scalars.
    public static let maxTextLength = 65_536
    /// A relative file path, in Unicode scalars.
    public static let maxPathLength = 4_096
    /// State-of-mind `labels`, and `associations`, each.
    public static let maxLabels = 10_000
    /// Points of one workout's `route`.
    public static let maxRoutePoints = 1_000_000
    /// `workouts` of a workout group.
    public static let maxWorkouts = 1_000
    /// `locations` of a location group.
    public static let maxLocations = 1_000
    /// Stops of a state-of-mind gradient.
    public static let maxGradientStops = 64
}
