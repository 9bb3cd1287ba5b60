import JournalMediaCore
import JournalMediaSuggestions

/// `DIR/<bundleId>/suggestion.json`: the bundle's items in order, each with its renditions,
/// the texts drawn on its card, the colours and contrast figures, its dates formatted in
/// the bundle's locale and zone beside the raw values, and its error and warnings; plus
/// the `cover`. Keys sorted, every documented field present (`null` when absent); no times
/// of the run, so the same bundle gives the same bytes.
public struct SuggestionOutput: Codable, Sendable, Equatable {
    public var schemaVersion = 1
    public var generator: String
    public var bundleId: String
    public var title: String
    public var timeZone: String
    public var locale: String
    @ExplicitNull public var date: OutputInterval?
    /// The item a journal entry's header shows: the first photo, Live Photo or video that
    /// succeeded, else the first item with a card.
    @ExplicitNull public var cover: OutputCover?
    /// Per size class, up to four items composed for a header (`CoverCollage`); empty when
    /// fewer than two items have a picture.
    public var coverCollage: [OutputCollage]
    public var items: [SuggestionItemOutput]
    public var summary: OutputSummary
}

public struct OutputInterval: Codable, Sendable, Equatable {
    public var start: FormattedDate
    public var end: FormattedDate
}

public struct OutputCover: Codable, Sendable, Equatable {
    public var itemId: String
    public var index: Int
    public var renditions: [OutputRendition]
}

public struct OutputSummary: Codable, Sendable, Equatable {
    public var items: Int
    public var succeeded: Int
    public var failed: Int
    public var cards: Int
    public var missingGlyphs: Int
}

/// One file written for an item: `path` is relative to the bundle's output folder.
public struct OutputRendition: Codable, Sendable, Equatable {
    public var role: String
    public var path: String
    public var format: RenditionFormat
    public var width: Int
    public var height: Int
    public var bytes: Int
}

/// Why an item (or one of its files) could not be produced.
public struct OutputError: Codable, Sendable, Equatable {
    /// The item field whose file failed (`photo`, `artwork`, `workouts[1].icon`), or null.
    @ExplicitNull public var field: String?
    public var stage: ProcessingStage
    public var reason: AssetErrorReason
    public var message: String
}

/// A picture inside an item (artwork, icon, contact photo, poster, fallback image) or a
/// media item's own file, run through the pipeline.
public struct OutputPicture: Codable, Sendable, Equatable {
    public var field: String
    /// The reference as the bundle wrote it.
    public var source: String
    @ExplicitNull public var kind: AssetKind?
    @ExplicitNull public var width: Int?
    @ExplicitNull public var height: Int?
    @ExplicitNull public var captureDate: CaptureDate?
    @ExplicitNull public var video: VideoRecord?
    @ExplicitNull public var livePhoto: LivePhotoRecord?
    public var renditions: [OutputRendition]
    @ExplicitNull public var colors: ColorInfo?
    @ExplicitNull public var placeholder: Placeholder?
    @ExplicitNull public var error: OutputError?
}

/// One card as drawn in one size class and appearance: its role, what the renderer
/// reported, and its layout (every text run with its box and pixel size, the hero's box,
/// the pins), so clients can place accessibility labels and checks can measure legibility.
public struct OutputCardDrawing: Codable, Sendable, Equatable {
    public var sizeClass: CardSizeClass
    public var appearance: CardSpec.Appearance
    /// The rendition's role (`thumbnail`, `fallbackDark`, `landscape`, …).
    public var role: String
    public var missingGlyphs: Int
    public var headlineFontSize: Double
    public var truncated: Bool
    public var layout: CardLayout
}

/// One card's figures: colours with their APCA Lc, and what the renderer reported (for
/// the portrait card, or the first size class drawn).
public struct OutputCard: Codable, Sendable, Equatable {
    public var colors: CardColorReport
    public var missingGlyphs: Int
    public var headlineFontSize: Double
    public var truncated: Bool
}

public struct SuggestionItemOutput: Codable, Sendable, Equatable {
    public var id: String
    public var type: String
    /// `media` (the item's own photo, Live Photo or video) or `card` (a rendered card).
    public var output: String
    /// `thumbnail` and `fallback` for every item; cards add `thumbnailDark`, `fallbackDark`
    /// and `landscape`, `landscapeDark` (the tile, portrait and landscape size classes).
    public var renditions: [OutputRendition]
    /// The texts on the card, as plain strings (null for media items).
    @ExplicitNull public var headline: String?
    public var lines: [String]
    public var chips: [String]
    @ExplicitNull public var footnote: String?
    @ExplicitNull public var badge: String?
    @ExplicitNull public var light: OutputCard?
    @ExplicitNull public var dark: OutputCard?
    /// Every card drawn: each size class in light and dark, with its layout.
    public var cards: [OutputCardDrawing]
    /// Missing glyphs of both cards together (0 when every character had a glyph).
    public var missingGlyphs: Int
    public var dates: [FormattedDate]
    public var pictures: [OutputPicture]
    @ExplicitNull public var error: OutputError?
    public var warnings: [String]
}
