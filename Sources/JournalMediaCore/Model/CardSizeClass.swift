import Foundation

/// The sizes a card is drawn at, each with its own layout (not a downscale of another):
///
/// | class | default | what shows it | roles (light / dark) |
/// |---|---|---|---|
/// | `tile` | 512×512 | a journal's grid (≈ 170 pt on a 3× phone) | `thumbnail` / `thumbnailDark` (WebP) |
/// | `portrait` | 1200×1500 | the card on its own, a phone held upright | `fallback` / `fallbackDark` (PNG) |
/// | `landscape` | 1600×1000 | a wide picker, a header, a tablet | `landscape` / `landscapeDark` (PNG) |
///
/// The tile shows the hero, the headline and at most one short line, no text under 24 px
/// (≈ 8 pt on a 3× display) and a headline of at least 44 px; the larger classes add the
/// detail (lines, chips, badge, footnote, pin labels), no text under 36 px. Sizes other than
/// the defaults scale the class' design (`designWidth`×`designHeight`) by the smaller ratio.
public enum CardSizeClass: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case tile, portrait, landscape

    /// The size the class' layout is designed at, in pixels (also its default size).
    public var designWidth: Int {
        switch self {
        case .tile: return 512
        case .portrait: return 1200
        case .landscape: return 1600
        }
    }

    public var designHeight: Int {
        switch self {
        case .tile: return 512
        case .portrait: return 1500
        case .landscape: return 1000
        }
    }

    /// The rendition role of the class' card in one appearance (`suggestion.json`, the manifest).
    public func role(dark: Bool) -> String {
        let base: String
        switch self {
        case .tile: base = "thumbnail"
        case .portrait: base = "fallback"
        case .landscape: base = "landscape"
        }
        return base + (dark ? "Dark" : "")
    }

    /// The smallest text drawn on a card of this class, in design pixels.
    public var minimumTextSize: Double { self == .tile ? 24 : 36 }
    /// The smallest headline, in design pixels.
    public var minimumHeadlineSize: Double { self == .tile ? 44 : 60 }
}

/// One size class at one size in pixels: what `SuggestionOptions.cardSizes` lists.
public struct CardSize: Sendable, Equatable, Hashable, Codable {
    public var sizeClass: CardSizeClass
    public var width: Int
    public var height: Int

    public init(_ sizeClass: CardSizeClass, width: Int? = nil, height: Int? = nil) {
        self.sizeClass = sizeClass
        self.width = width ?? sizeClass.designWidth
        self.height = height ?? sizeClass.designHeight
    }

    /// Every class at its default size: tile, portrait, landscape.
    public static let defaults: [CardSize] = CardSizeClass.allCases.map { CardSize($0) }

    /// The scale of this size against the class' design (the smaller ratio of the sides).
    public var scale: Double {
        min(Double(width) / Double(sizeClass.designWidth), Double(height) / Double(sizeClass.designHeight))
    }
}

extension CardSize {
    /// Reads a list of size classes, each optionally with its size: `tile,portrait,landscape`
    /// or `tile=384x384,portrait=1080x1350` (sides 128–4096 px; each class at most once).
    /// What the CLI's `--card-classes` and the service's `cardClasses` query take.
    public static func parseList(_ text: String) throws(CardSizeListError) -> [CardSize] {
        var sizes: [CardSize] = []
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard let sizeClass = CardSizeClass(rawValue: pieces[0]) else {
                throw CardSizeListError(message: "unknown card size class \"\(pieces[0])\" (tile, portrait, landscape)")
            }
            guard !sizes.contains(where: { $0.sizeClass == sizeClass }) else {
                throw CardSizeListError(message: "card size class \(sizeClass.rawValue) is listed twice")
            }
            var size = CardSize(sizeClass)
            if pieces.count == 2 {
                let sides = pieces[1].lowercased().split(separator: "x")
                guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
                      (128...4096).contains(width), (128...4096).contains(height) else {
                    throw CardSizeListError(message: "\(sizeClass.rawValue): size must be WIDTHxHEIGHT with sides of 128–4096 pixels, not \"\(pieces[1])\"")
                }
                size = CardSize(sizeClass, width: width, height: height)
            }
            sizes.append(size)
        }
        guard !sizes.isEmpty else { throw CardSizeListError(message: "no card size class given") }
        return sizes
    }
}

/// Why a list of card size classes was refused.
public struct CardSizeListError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
