import JournalMediaCore

/// What `CardSpecBuilder` makes of one item: the light and dark `CardSpec`, the colours
/// and contrast figures of each, the item's dates formatted beside their raw values, and
/// warnings (an unknown type or value shown neutrally, a missing picture).
public struct CardPair: Sendable, Equatable {
    public var light: CardSpec
    public var dark: CardSpec
    public var lightColors: CardColorReport
    public var darkColors: CardColorReport
    public var dates: [FormattedDate]
    public var warnings: [String]

    /// The item fields whose pictures the cards show (`CardHero.image`), light and dark alike.
    public var imageFields: [String] {
        var fields: [String] = []
        if case .image(let field, _) = light.hero { fields.append(field) }
        if case .map(let field, _, _, _) = light.hero { fields.append(field) }
        return fields
    }

    /// The pair drawn at `size`: the same content in that size class' layout.
    public func at(_ size: CardSize) -> (light: CardSpec, dark: CardSpec) {
        var light = self.light, dark = self.dark
        for index in 0..<2 {
            var spec = index == 0 ? light : dark
            spec.width = size.width
            spec.height = size.height
            spec.sizeClass = size.sizeClass
            if index == 0 { light = spec } else { dark = spec }
        }
        return (light, dark)
    }
}

/// One of an item's dates, as the bundle wrote it and as the card shows it.
public struct FormattedDate: Sendable, Equatable, Codable {
    /// The field (`date`, `date.start`, `details.date.end`, `start`).
    public var field: String
    /// The RFC 3339 text of the bundle.
    public var raw: String
    /// In the bundle's locale and time zone.
    public var formatted: String

    public init(field: String, raw: String, formatted: String) {
        self.field = field
        self.raw = raw
        self.formatted = formatted
    }
}

/// The pictures of an item that decoded, by field, and the card colours the pipeline
/// computed for each (`colors.card`), which media cards (song, podcast, genericMedia) use.
public struct CardPictures: Sendable, Equatable {
    public var colors: [String: CardColors]
    public var fields: Set<String>
    /// Fields whose referenced picture is missing, unreadable, corrupt or outside the
    /// bundle: their cards show the "picture unavailable" glyph where the picture was the point.
    public var failed: Set<String>

    public init(fields: Set<String> = [], colors: [String: CardColors] = [:], failed: Set<String> = []) {
        self.fields = fields
        self.colors = colors
        self.failed = failed
    }

    public static let none = CardPictures()
}
