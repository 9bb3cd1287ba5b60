import Foundation
import JournalMediaCore

/// Turns a suggestion item into a light and a dark `CardSpec` (the renderer's input): the
/// texts formatted for the bundle's locale and time zone, the hero (picture, glyph,
/// initials, route or pins), and colours whose contrast reaches the targets
/// (`CardPalette`). What each type shows is in `CardContentBuilder`.
///
/// Runs once per non-media item, before rendering; pure computation, microseconds for most
/// items and linear in the route's points for workouts (a million points: tens of ms).
public struct CardSpecBuilder: Sendable {
    public var formatter: CardTextFormatter
    public var suggestionTitle: String
    public var suggestionDate: SuggestionInterval?
    /// Draw routes and pins but write no coordinates on the card.
    public var redactLocation: Bool
    public var width: Int
    public var height: Int

    /// Longest headline handed to the renderer (characters); a 1 MB prompt is cut here
    /// with "…", so layout time stays bounded. The renderer shrinks and ellipsises further.
    public static let maxHeadlineLength = 600
    /// Longest supporting line, footnote or chip.
    public static let maxLineLength = 200
    /// Chips handed to the renderer; it draws as many as fit and ends with "+N".
    public static let maxChips = 200

    public init(bundle: SuggestionBundle, redactLocation: Bool = false, width: Int = CardSpec.defaultWidth,
                height: Int = CardSpec.defaultHeight) {
        formatter = CardTextFormatter(locale: bundle.locale, timeZone: bundle.timeZone)
        suggestionTitle = bundle.suggestion.title
        suggestionDate = bundle.suggestion.date
        self.redactLocation = redactLocation
        self.width = width
        self.height = height
    }

    /// The item's light and dark cards. `pictures` says which of its files decoded (and
    /// their colours); a picture that did not decode is replaced by the type's glyph.
    public func cards(for item: SuggestionItem, pictures: CardPictures = .none) -> CardPair {
        let content = CardContentBuilder(builder: self, pictures: pictures).content(for: item)
        let (lightSeed, darkSeed) = CardPalette.typeBackgrounds(seed: content.seed)
        let light = CardPalette.resolve(background: content.lightBackground ?? [lightSeed], accent: content.seed)
        let dark = CardPalette.resolve(background: content.darkBackground ?? [darkSeed], accent: content.seed)
        func spec(_ appearance: CardSpec.Appearance, _ resolved: CardPalette.Resolved) -> CardSpec {
            let background: CardBackground
            if resolved.stops.count == 1 {
                background = .solid(resolved.stops[0].hex)
            } else {
                let locations = content.stopLocations(count: resolved.stops.count, appearance: appearance)
                background = .verticalGradient(zip(resolved.stops, locations).map {
                    CardGradientStop(color: $0.0.hex, location: $0.1)
                })
            }
            let short = { (text: String) in CardTextFormatter.shortened(text, limit: Self.maxLineLength) }
            return CardSpec(
                itemType: item.type, appearance: appearance, width: width, height: height, background: background,
                foreground: resolved.report.foreground, secondaryForeground: resolved.report.secondaryForeground,
                accent: resolved.report.accent,
                headline: CardTextFormatter.shortened(content.headline, limit: Self.maxHeadlineLength),
                lines: Array(content.lines.filter { !$0.isEmpty }.prefix(3).map(short)),
                chips: Array(content.chips.prefix(Self.maxChips).map { CardTextFormatter.shortened($0, limit: 60) }),
                footnote: content.footnote.map(short), badge: content.badge, hero: content.hero,
                keepTogether: content.keepTogether)
        }
        return CardPair(light: spec(.light, light), dark: spec(.dark, dark), lightColors: light.report,
                        darkColors: dark.report, dates: content.dates, warnings: content.warnings)
    }
}
