import JournalMediaCore

/// What `SuggestionProcessor` makes of a bundle. Defaults: the toolkit's renditions for
/// media (`Defaults.renditions`), cards of 1200×1500 with a WebP thumbnail in a 512 box and
/// a PNG fallback at the card's size, coordinates written on location cards, items
/// processed two at a time.
public struct SuggestionOptions: Sendable, Equatable {
    /// Renditions of media items and of the pictures inside items.
    public var renditions: [RenditionSpec]
    /// Card canvas size in pixels.
    public var cardWidth: Int
    public var cardHeight: Int
    /// Draw routes and pins, but write no coordinates on cards.
    public var redactLocation: Bool
    /// Items processed at once (each with one libvips thread).
    public var jobs: Int
    public var maxPixels: Int

    public init(renditions: [RenditionSpec] = Defaults.renditions, cardWidth: Int = CardSpec.defaultWidth,
                cardHeight: Int = CardSpec.defaultHeight, redactLocation: Bool = false, jobs: Int = 2,
                maxPixels: Int = Defaults.maxPixels) {
        self.renditions = renditions
        self.cardWidth = cardWidth
        self.cardHeight = cardHeight
        self.redactLocation = redactLocation
        self.jobs = max(1, jobs)
        self.maxPixels = maxPixels
    }

    /// The renditions of one appearance of a card: `thumbnail` (WebP, 512 box, encoder
    /// effort 2: half the CPU of effort 4 for 4 % more bytes on a card) and `fallback` (PNG
    /// at the card's size, written by `CardSource` with its own deflate coder); the dark
    /// card's roles end in `Dark`. Figures in Benchmarks/RESULTS.md, cards.
    public func cardRenditions(dark: Bool) -> [RenditionSpec] {
        let suffix = dark ? "Dark" : ""
        var thumbnail = RenditionSpec(role: "thumbnail" + suffix, format: .webp, width: 512, height: 512)
        thumbnail.effort = 2
        return [thumbnail, RenditionSpec(role: "fallback" + suffix, format: .png, width: cardWidth, height: cardHeight)]
    }
}
