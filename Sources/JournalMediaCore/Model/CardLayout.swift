/// Where things were drawn on one card, in the card's pixels: every text run (its text,
/// box and pixel size), the hero's box and the pins' boxes. Written per card into
/// `suggestion.json` so that clients can place accessibility labels over the picture and
/// checks can measure legibility (sizes) and overlaps without reading pixels.
///
/// Made by the renderer while it draws; costs nothing beyond the bookkeeping.
public struct CardLayout: Sendable, Equatable, Codable {
    public var sizeClass: CardSizeClass
    public var width: Int
    public var height: Int
    /// The hero's box (the area its picture, glyph, avatar, route or pins were fitted to), or nil.
    @ExplicitNull public var hero: CardRect?
    /// The texts in the order drawn.
    public var texts: [CardTextRun]
    /// Each pin drawn (its head and point), for overlap checks against labels.
    public var pins: [CardRect]

    public init(sizeClass: CardSizeClass, width: Int, height: Int, hero: CardRect? = nil,
                texts: [CardTextRun] = [], pins: [CardRect] = []) {
        self.sizeClass = sizeClass
        self.width = width
        self.height = height
        self.hero = hero
        self.texts = texts
        self.pins = pins
    }
}

/// A rectangle in a card's pixels (origin top left).
public struct CardRect: Sendable, Equatable, Hashable, Codable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the two rectangles share any pixel.
    public func intersects(_ other: CardRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    public func insetBy(_ d: Int) -> CardRect { CardRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
}

/// One text drawn on a card: which part of the card it is, the text as drawn (after any
/// cut, with "…"), its logical box (the lines' full height) and its font size in pixels.
public struct CardTextRun: Sendable, Equatable, Codable {
    /// `headline`, `line`, `chip`, `footnote`, `badge`, `pinLabel`, `initials` or `more` (a "+N").
    public var part: String
    public var text: String
    public var box: CardRect
    public var pixelSize: Double

    public init(part: String, text: String, box: CardRect, pixelSize: Double) {
        self.part = part
        self.text = text
        self.box = box
        self.pixelSize = pixelSize
    }
}
