import JournalMediaCore

/// What `SuggestionProcessor` makes of a bundle. Defaults: the toolkit's renditions for
/// media (`Defaults.renditions`), cards in every size class (`CardSize.defaults`: a 512×512
/// tile as the WebP `thumbnail`, a 1200×1500 portrait as the PNG `fallback`, a 1600×1000
/// landscape as the PNG `landscape`; dark roles end in `Dark`), coordinates written on
/// location cards, items processed two at a time.
public struct SuggestionOptions: Sendable, Equatable {
    /// Renditions of media items and of the pictures inside items.
    public var renditions: [RenditionSpec]
    /// The portrait card's size in pixels (`cardSizes`' portrait entry).
    public var cardWidth: Int {
        get { cardSizes.first { $0.sizeClass == .portrait }?.width ?? CardSpec.defaultWidth }
        set { setSize(.portrait, width: newValue, height: cardHeight) }
    }
    public var cardHeight: Int {
        get { cardSizes.first { $0.sizeClass == .portrait }?.height ?? CardSpec.defaultHeight }
        set { setSize(.portrait, width: cardWidth, height: newValue) }
    }
    /// The size classes drawn for every card item, and their sizes (one of each class at most).
    public var cardSizes: [CardSize]
    /// Draw routes and pins, but write no coordinates on cards.
    public var redactLocation: Bool
    /// Items processed at once (each with one libvips thread).
    public var jobs: Int
    /// The decode limits of the media items and pictures (`ProcessingOptions`' of the same
    /// names; the defaults are `Defaults`').
    public var maxPixels: Int
    public var maxTiledPixels = Defaults.maxTiledPixels
    public var maxBytes = Defaults.maxBytes
    public var timeoutSeconds = Defaults.decodeTimeoutSeconds

    /// `cardWidth`, `cardHeight`: the portrait's size (overriding its entry in `cardSizes`).
    public init(renditions: [RenditionSpec] = Defaults.renditions, cardWidth: Int? = nil,
                cardHeight: Int? = nil, cardSizes: [CardSize] = CardSize.defaults,
                redactLocation: Bool = false, jobs: Int = 2, maxPixels: Int = Defaults.maxPixels) {
        self.renditions = renditions
        var unique: [CardSize] = []
        for size in cardSizes where !unique.contains(where: { $0.sizeClass == size.sizeClass }) {
            var size = size
            if size.sizeClass == .portrait {
                size.width = cardWidth ?? size.width
                size.height = cardHeight ?? size.height
            }
            unique.append(size)
        }
        self.cardSizes = unique
        self.redactLocation = redactLocation
        self.jobs = max(1, jobs)
        self.maxPixels = maxPixels
    }

    /// The options of the asset processor that makes `renditions` of an item's media or pictures.
    func processingOptions(renditions: [RenditionSpec], analyzeColors: Bool = true) -> ProcessingOptions {
        var options = ProcessingOptions(renditions: renditions, maxPixels: maxPixels, maxBytes: maxBytes,
                                        timeoutSeconds: timeoutSeconds, analyzeColors: analyzeColors)
        options.maxTiledPixels = maxTiledPixels
        return options
    }

    private mutating func setSize(_ sizeClass: CardSizeClass, width: Int, height: Int) {
        if let index = cardSizes.firstIndex(where: { $0.sizeClass == sizeClass }) {
            cardSizes[index] = CardSize(sizeClass, width: width, height: height)
        }
    }

    /// The rendition of one card at `size` in one appearance, at the card's own size: the
    /// tile as WebP (`thumbnail`, encoder effort 2: half the CPU of effort 4 for 4 % more
    /// bytes on a card), the portrait and landscape as PNG (`fallback`, `landscape`, written
    /// by `CardSource` with its own deflate coder); dark roles end in `Dark`.
    public static func cardRendition(_ size: CardSize, dark: Bool) -> RenditionSpec {
        let role = size.sizeClass.role(dark: dark)
        if size.sizeClass == .tile {
            var tile = RenditionSpec(role: role, format: .webp, width: size.width, height: size.height)
            tile.effort = 2
            return tile
        }
        return RenditionSpec(role: role, format: .png, width: size.width, height: size.height)
    }
}
