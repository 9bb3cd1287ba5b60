import JournalMediaCore

/// A card drawn by `CardRenderer`: the picture, ready for `RenditionStep` like any decoded
/// source, and what the drawing had to give up (missing glyphs, shrunk or cut text, chips
/// left out), so a caller can report it beside the card.
public struct RenderedCard: Sendable {
    /// `spec.width`×`spec.height`, 8-bit sRGB, opaque, upright, no metadata.
    public let image: DecodedImage
    /// Pango's unknown-glyph count over all text drawn: characters no installed font has.
    public let missingGlyphs: Int
    /// The headline's size in pixels after shrink-to-fit.
    public let headlineFontSize: Double
    /// Some text was cut and ends in an ellipsis.
    public let truncated: Bool
    /// What was left out or could not be drawn, e.g. "chips: 7 of 40 shown".
    public let warnings: [String]
    /// Where every text, the hero and the pins were drawn, in the card's pixels.
    public let layout: CardLayout
}

/// Why a card could not be drawn. The message names the part of the spec or the drawing
/// stage at fault; the caller adds the item.
public enum CardRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The spec cannot be drawn as given (a malformed colour, a canvas size out of range).
    case invalidSpec(String)
    /// libvips or Pango failed while drawing `stage` (background, text, hero, chips, …).
    case drawing(stage: String, message: String)

    public var message: String {
        switch self {
        case .invalidSpec(let message): return "card spec: \(message)"
        case .drawing(let stage, let message): return "card \(stage): \(message)"
        }
    }

    public var description: String { message }
}

// A DecodedImage wraps a libvips image that is complete in memory and never changed after
// it is made (no field is set or removed once a decode or a card returns it); libvips
// images are reference-counted with atomic counts and safe to read from several threads.
extension DecodedImage: @unchecked Sendable {}
