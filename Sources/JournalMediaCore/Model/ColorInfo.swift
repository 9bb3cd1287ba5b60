/// The text colour chosen for a background, as `journal-media color` prints it.
public struct ForegroundChoice: Codable, Sendable, Equatable {
    /// The background, `#RRGGBB` (a translucent input already composited over its base).
    public var background: String
    /// `#FFFFFF` or `#000000`: whichever has the larger APCA |Lc| on the background.
    public var foreground: String
    /// WCAG 2 contrast ratio of foreground and background, 2 decimals.
    public var wcagRatio: Double
    /// APCA 0.1.9 lightness contrast of the foreground on the background, 1 decimal.
    public var apcaLc: Double
    /// The rule that chose: always `apca` (larger |Lc| wins).
    public var rule: String
    /// Offered only when neither black nor white reaches |Lc| 60: a colour in the
    /// background's hue, tone-shifted just far enough to reach |Lc| 60, or WCAG 4.5 when
    /// no tone of that hue can reach |Lc| 60.
    public var accessibleForeground: AccessibleForeground?
}

/// A tinted foreground that reaches a contrast target on its background.
public struct AccessibleForeground: Codable, Sendable, Equatable {
    public var color: String
    public var wcagRatio: Double
    public var apcaLc: Double
    /// `apca60` or `wcag4.5`: the target it was shifted to meet.
    public var target: String
}

/// Colours drawn from an image, for cards and backgrounds (the manifest's `colors`).
public struct ColorInfo: Codable, Sendable, Equatable {
    /// Mean colour in linear light (alpha-weighted), as sRGB hex.
    public var average: String
    /// Up to 5 colours, ranked favouring colourful and frequent over grey.
    public var dominant: [DominantColor]
    /// A card background for light mode and one for dark mode, both from the first
    /// dominant colour's hue, each with a foreground meeting |Lc| ≥ 60.
    public var card: CardColors
}

public struct DominantColor: Codable, Sendable, Equatable {
    public var color: String
    /// Fraction of the (opaque) pixels nearest to this colour, 0…1, 3 decimals.
    public var share: Double
}

public struct CardColors: Codable, Sendable, Equatable {
    public var light: CardColor
    public var dark: CardColor
}

public struct CardColor: Codable, Sendable, Equatable {
    public var background: String
    public var foreground: String
}

/// A compact placeholder to show while an image loads (the manifest's `placeholder`).
public struct Placeholder: Codable, Sendable, Equatable {
    /// ThumbHash (Evan Wallace's published format), base64.
    public var thumbhash: String

    public init(thumbhash: String) {
        self.thumbhash = thumbhash
    }
}
