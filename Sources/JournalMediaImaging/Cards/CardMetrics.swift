import JournalMediaCore

/// Where things go on a card of one size class, in pixels: each class has its own design
/// (`CardSizeClass.designWidth`×`designHeight`), scaled by the smaller ratio of the sides
/// when the card is drawn at another size. The tile puts the hero in its upper half and
/// the headline below; the portrait gives the hero the upper half and stacks the texts
/// under it; the landscape sets the hero on the left and the texts in a column beside it.
///
/// Pure arithmetic, made once per card.
struct CardMetrics {
    let width: Int
    let height: Int
    let sizeClass: CardSizeClass
    let scale: Double

    init(width: Int, height: Int, sizeClass: CardSizeClass = .portrait) {
        self.width = width
        self.height = height
        self.sizeClass = sizeClass
        scale = min(Double(width) / Double(sizeClass.designWidth), Double(height) / Double(sizeClass.designHeight))
    }

    func px(_ design: Double) -> Int { max(1, Int((design * scale).rounded())) }
    func size(_ design: Double) -> Double { max(6, (design * scale).rounded()) }

    var margin: Int {
        switch sizeClass {
        case .tile: return px(32)
        case .portrait: return px(88)
        case .landscape: return px(80)
        }
    }

    var contentWidth: Int { width - 2 * margin }
    var heroGap: Int { sizeClass == .tile ? px(18) : px(56) }

    /// The hero's box: the upper half and more of a tile or portrait, the left half of a landscape.
    var heroBox: CardBox {
        switch sizeClass {
        case .tile:
            return CardBox(x: margin, y: margin, width: contentWidth, height: Int((Double(height) * 0.5).rounded()) - margin + px(4))
        case .portrait:
            return CardBox(x: margin, y: margin, width: contentWidth, height: Int((Double(height) * 0.5).rounded()))
        case .landscape:
            return CardBox(x: margin, y: margin, width: Int((Double(width) * 0.5).rounded()) - margin,
                           height: height - 2 * margin)
        }
    }

    /// Where the texts go when the card has a hero (the column beside or the area below it).
    var textArea: CardBox {
        let hero = heroBox
        switch sizeClass {
        case .tile, .portrait:
            let top = hero.y + hero.height + heroGap
            return CardBox(x: margin, y: top, width: contentWidth, height: height - margin - top)
        case .landscape:
            let left = hero.x + hero.width + px(72)
            return CardBox(x: left, y: margin, width: width - margin - left, height: height - 2 * margin)
        }
    }

    /// The whole content area (a card without a hero).
    var fullArea: CardBox { CardBox(x: margin, y: margin, width: contentWidth, height: height - 2 * margin) }

    /// Text sizes of the class, in pixels: (largest, smallest) of each part.
    func headline(hasHero: Bool) -> (size: Double, minimum: Double, lines: Int) {
        switch (sizeClass, hasHero) {
        case (.tile, true): return (size(56), size(44), 2)
        case (.tile, false): return (size(64), size(44), 6)
        case (.portrait, true): return (size(108), size(64), 3)
        case (.portrait, false): return (size(120), size(64), 8)
        case (.landscape, true): return (size(96), size(60), 4)
        case (.landscape, false): return (size(112), size(60), 6)
        }
    }

    var line: (size: Double, minimum: Double) {
        switch sizeClass {
        case .tile: return (size(30), size(26))
        case .portrait: return (size(48), size(40))
        case .landscape: return (size(44), size(38))
        }
    }

    /// Footnote, badge, chips and pin labels: the class' floor (36 px; none on a tile).
    var small: Double { size(sizeClass == .tile ? 26 : 38) }
    var floor: Double { size(sizeClass == .tile ? 24 : 36) }
}

/// A rectangle on the canvas, in pixels.
struct CardBox {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var rect: CardRect { CardRect(x: x, y: y, width: width, height: height) }
}
