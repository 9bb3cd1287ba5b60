/// What one rendered card shows, fully resolved for one appearance (light or dark): the
/// texts already formatted for the bundle's locale and time zone, the colours already
/// chosen (foregrounds by APCA), the route already projected and simplified.
///
/// The contract between the two halves of card making: `CardSpecBuilder` (JournalMediaSuggestions)
/// turns a suggestion item into a light and a dark `CardSpec`; `CardRenderer` (Cards/)
/// draws a `CardSpec` into pixels and decides nothing about content. Pure data: building
/// one costs microseconds; rendering costs the text layout and one composition.
public struct CardSpec: Sendable, Equatable, Codable {
    public enum Appearance: String, Sendable, Codable, CaseIterable {
        case light, dark
    }

    /// The suggestion item's `type` (`workout`, `reflection`, …, or an unknown type's name).
    public var itemType: String
    public var appearance: Appearance
    /// Canvas size in pixels (default 1200×1500, 4:5).
    public var width: Int
    public var height: Int
    public var background: CardBackground
    /// Colour of the headline and primary text, `#RRGGBB`.
    public var foreground: String
    /// Colour of supporting lines, chips' text and the footnote, `#RRGGBB`; reaches |Lc| 60
    /// on the background.
    public var secondaryForeground: String
    /// Colour of the route line, pins, chip outlines and glyphs, `#RRGGBB`.
    public var accent: String
    /// One headline (large, wrapped, shrunk to fit, ellipsised last). Required.
    public var headline: String
    /// Up to three supporting lines, in order of importance.
    public var lines: [String]
    /// Short labels drawn as chips (state-of-mind labels and associations); may be many:
    /// the renderer draws as many as fit and ends with "+N".
    public var chips: [String]
    /// A small text at the bottom (a time, a date range), or nil.
    public var footnote: String?
    /// A small mark beside the headline ("Work", "Hosting"), or nil.
    public var badge: String?
    /// The picture area of the card, or nil for a text-only card (reflection).
    public var hero: CardHero?
    /// The size class whose layout draws this card (`width`×`height` scale its design).
    public var sizeClass: CardSizeClass
    /// Names inside the headline that must not be broken across lines (the places of
    /// "A, B and C"): the headline breaks after a comma or before "and", never inside one.
    public var keepTogether: [String]

    public init(itemType: String, appearance: Appearance, width: Int = CardSpec.defaultWidth,
                height: Int = CardSpec.defaultHeight, background: CardBackground, foreground: String,
                secondaryForeground: String, accent: String, headline: String, lines: [String] = [],
                chips: [String] = [], footnote: String? = nil, badge: String? = nil, hero: CardHero? = nil,
                sizeClass: CardSizeClass = .portrait, keepTogether: [String] = []) {
        self.itemType = itemType
        self.appearance = appearance
        self.width = width
        self.height = height
        self.background = background
        self.foreground = foreground
        self.secondaryForeground = secondaryForeground
        self.accent = accent
        self.headline = headline
        self.lines = lines
        self.chips = chips
        self.footnote = footnote
        self.badge = badge
        self.hero = hero
        self.sizeClass = sizeClass
        self.keepTogether = keepTogether
    }

    public static let defaultWidth = 1200
    public static let defaultHeight = 1500
}

/// A card's background: one colour, or a vertical gradient (state of mind).
public enum CardBackground: Sendable, Equatable, Codable {
    case solid(String)
    /// Stops top (location 0) to bottom (location 1), colours `#RRGGBB`.
    case verticalGradient([CardGradientStop])
}

public struct CardGradientStop: Sendable, Equatable, Codable {
    public var color: String
    /// 0…1.
    public var location: Double

    public init(color: String, location: Double) {
        self.color = color
        self.location = location
    }
}

/// The picture area of a card.
public enum CardHero: Sendable, Equatable, Codable {
    /// A picture the caller supplies decoded (artwork, app icon, contact photo, poster,
    /// workout icon, fallback image), named by the item field it came from (`artwork`,
    /// `photo`, …) so the renderer can be handed the pixels beside the spec.
    case image(field: String, shape: CardImageShape)
    /// A built-in vector glyph.
    case glyph(CardGlyph)
    /// Initials on a round coloured disc (a contact without a photo).
    case initials(String, background: String, foreground: String)
    /// One or more routes, already projected (equirectangular, x scaled by cos(latitude))
    /// and simplified, in a unit frame: the larger extent spans 0…1, the other is centred
    /// in 0…1, x grows east, y grows south (north up). The renderer fits the unit square
    /// into its hero area and marks each route's first point (start) and last point (end).
    case route([[CardPoint]])
    /// Pins in the same unit frame as `route` (a location group; one pin at 0.5, 0.5 for a
    /// single place), each with an optional label.
    case pins([CardPin])
    /// A state of mind: a large flower-like form filled with the valence colours (top to
    /// bottom, `#RRGGBB`), with more and rounder petals the more pleasant the valence (−1…1).
    case mood(colors: [String], valence: Double)
    /// A place on a picture of its map (`field`, supplied decoded like `.image`), with the
    /// pins or route drawn where they are: `region` says which part of the map the picture
    /// shows. Without the picture the renderer draws the abstract frame instead.
    case map(field: String, region: CardMapRegion, pins: [CardPin], routes: [[CardPoint]])
    /// An abstract frame for a place without a map picture: a graticule with rings scaled to
    /// `spanMeters` (the distance the hero's width stands for, nil when unknown) around the
    /// pins or route, and the scale written as text (`scaleLabel`).
    case frame(pins: [CardPin], routes: [[CardPoint]], scaleLabel: String?)
}

/// The part of a map picture's area that pins and routes are projected into: the unit
/// frame's x 0…1 spans the picture's width, y 0…1 its height (north up).
public struct CardMapRegion: Sendable, Equatable, Codable {
    public var centerLatitude: Double
    public var centerLongitude: Double
    public var latitudeDelta: Double
    public var longitudeDelta: Double

    public init(centerLatitude: Double, centerLongitude: Double, latitudeDelta: Double, longitudeDelta: Double) {
        self.centerLatitude = centerLatitude
        self.centerLongitude = centerLongitude
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }

    /// Where a coordinate falls in the picture, 0…1 each way (outside when off the map).
    public func point(latitude: Double, longitude: Double) -> CardPoint {
        CardPoint(x: (longitude - centerLongitude) / max(1e-9, longitudeDelta) + 0.5,
                  y: (centerLatitude - latitude) / max(1e-9, latitudeDelta) + 0.5)
    }
}

public enum CardImageShape: String, Sendable, Equatable, Codable {
    /// Rounded-corner square or rectangle, aspect kept (artwork, posters, fallback images).
    case rounded
    /// Circle, cropped to fill (contact photos).
    case circle
    /// Drawn as is, transparency kept, centred (icons).
    case icon
}

/// A point in a card's unit frame (see `CardHero.route`).
public struct CardPoint: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

public struct CardPin: Sendable, Equatable, Codable {
    public var point: CardPoint
    public var label: String?

    public init(point: CardPoint, label: String? = nil) {
        self.point = point
        self.label = label
    }
}

/// The built-in glyphs a card can show when its item has no picture. Unknown activity
/// types and future values map to the generic member of their family.
public enum CardGlyph: String, Sendable, Equatable, Codable, CaseIterable {
    case running, walking, cycling, swimming, hiking, yoga, strength, dance, workout
    case walkRun, steps
    case pin, pins, work
    case music, podcast, media
    case person
    case calendar
    case mood
    case quote
    case unknown
    /// A picture the item references could not be read: a framed picture, struck through.
    case pictureUnavailable
}
