import Foundation
import Testing
@testable import JournalMedia
import JournalMediaCore
@testable import JournalMediaImaging

/// The size classes as a person sees them, checked from the layout every card reports in
/// suggestion.json: each class its own canvas, type sizes that follow the size the card is
/// shown at, heroes that fill the card, no text over text or over a pin, list headlines
/// broken between names.
@Suite struct CardLayoutTests {
    /// Every card of the three sample bundles (every type, light and dark, every class).
    static func allCards() throws -> [(item: SuggestionItemOutput, card: OutputCardDrawing)] {
        var cards: [(SuggestionItemOutput, OutputCardDrawing)] = []
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let run = try SuggestionProcessorTests.run(name)
            for item in run.output.items where item.output == "card" {
                for card in item.cards { cards.append((item, card)) }
            }
        }
        return cards
    }

    @Test func everyCardItemHasEachSizeClassLightAndDarkAtItsSize() throws {
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let run = try SuggestionProcessorTests.run(name)
            for item in run.output.items where item.output == "card" {
                #expect(item.cards.map(\.sizeClass) == [.tile, .tile, .portrait, .portrait, .landscape, .landscape], "\(item.id)")
                for rendition in item.renditions {
                    let size: (Int, Int) = rendition.role.hasPrefix("thumbnail") ? (512, 512)
                        : rendition.role.hasPrefix("fallback") ? (1200, 1500) : (1600, 1000)
                    #expect(rendition.width == size.0 && rendition.height == size.1, "\(item.id) \(rendition.role)")
                    #expect(rendition.format == (rendition.role.hasPrefix("thumbnail") ? .webp : .png))
                }
                // The tile shows the hero, the headline and at most one line.
                for tile in item.cards where tile.sizeClass == .tile {
                    // (Texts inside the hero, initials and pin labels, are the hero's.)
                    let parts = tile.layout.texts.map(\.part).filter { !["initials", "pinLabel", "more"].contains($0) }
                    #expect(parts.filter { $0 == "headline" }.count == 1, "\(item.id): \(parts)")
                    #expect(parts.filter { $0 != "headline" }.allSatisfy { $0 == "line" } && parts.count <= 2, "\(item.id): \(parts)")
                }
            }
        }
    }

    @Test func noTextUnderTheSizeFloors() throws {
        let cards = try Self.allCards()
        #expect(cards.count >= 30 * 6)
        for (item, card) in cards {
            for run in card.layout.texts {
                let floor = card.sizeClass == .tile ? 24.0 : 36.0
                #expect(run.pixelSize >= floor, "\(item.id) \(card.role) \(run.part) \"\(run.text)\" at \(run.pixelSize) px")
                if run.part == "headline" {
                    #expect(run.pixelSize >= (card.sizeClass == .tile ? 44 : 60), "\(item.id) \(card.role) headline")
                }
            }
            #expect(card.missingGlyphs == 0, "\(item.id) \(card.role)")
        }
    }

    @Test func noTwoTextsAndNoTextAndPinOverlap() throws {
        for (item, card) in try Self.allCards() {
            let texts = card.layout.texts
            let canvas = CardRect(x: 0, y: 0, width: card.layout.width, height: card.layout.height)
            for (index, run) in texts.enumerated() {
                #expect(run.box.x >= 0 && run.box.y >= 0 && run.box.x + run.box.width <= canvas.width
                        && run.box.y + run.box.height <= canvas.height, "\(item.id) \(card.role) \(run.part) off the card")
                for other in texts[(index + 1)...] where run.part != "initials" && other.part != "initials" {
                    #expect(!run.box.intersects(other.box),
                            "\(item.id) \(card.role): \"\(run.text)\" \(run.box) overlaps \"\(other.text)\" \(other.box)")
                }
                for pin in card.layout.pins {
                    #expect(!run.box.intersects(pin), "\(item.id) \(card.role): \"\(run.text)\" overlaps a pin")
                }
                // Texts outside the hero stay out of it (pin labels, initials and the scale are inside).
                if let hero = card.layout.hero, !["pinLabel", "more", "initials", "scale"].contains(run.part) {
                    #expect(!run.box.intersects(hero), "\(item.id) \(card.role): \"\(run.text)\" over the hero")
                }
            }
        }
    }

    @Test func heroesFillTheUpperHalfOfTilesAndPortraitsAndTheLeftOfLandscapes() throws {
        for (item, card) in try Self.allCards() {
            guard let hero = card.layout.hero else {
                #expect(item.type == "reflection", "\(item.id) has no hero")
                continue
            }
            let (w, h) = (Double(card.layout.width), Double(card.layout.height))
            // A picture keeps its shape: its longer side spans most of the hero box' shorter one.
            let box = CardMetrics(width: card.layout.width, height: card.layout.height, sizeClass: card.sizeClass).heroBox
            if Double(max(hero.width, hero.height)) >= 0.85 * Double(min(box.width, box.height))
                && hero.y + hero.height <= box.y + box.height && hero.x + hero.width <= box.x + box.width {
                continue
            }
            switch card.sizeClass {
            case .tile, .portrait:
                // As tall as the upper half allows, or as wide as the card (a wide picture keeps its shape).
                #expect(Double(hero.height) >= 0.4 * h || Double(hero.width) >= 0.8 * w, "\(item.id) \(card.role): hero \(hero)")
                #expect(Double(hero.y + hero.height) <= 0.56 * h, "\(item.id) \(card.role): hero \(hero)")
            case .landscape:
                #expect(Double(hero.height) >= 0.6 * h || Double(hero.width) >= 0.4 * w, "\(item.id) \(card.role): hero \(hero)")
                #expect(Double(hero.x + hero.width) <= 0.52 * w, "\(item.id) \(card.role)")
            }
        }
    }

    @Test func theStateOfMindShowsTheMoodAndTheContactALargeAvatar() throws {
        let run = try SuggestionProcessorTests.run("world-scripts")
        let contact = try #require(run.item("W5")?.cards.first { $0.role == "fallback" })
        let avatar = try #require(contact.layout.hero)
        #expect(avatar.width >= 600 && avatar.width == avatar.height, "\(avatar)")
        #expect(abs(avatar.x + avatar.width / 2 - 600) <= 1, "centred")
        #expect(contact.layout.texts.first { $0.part == "initials" } != nil)
    }

    @Test(arguments: [
        ("경복궁, Bukchon and N Seoul Tower", ["경복궁", "Bukchon", "N Seoul Tower"]),
        ("Tempelhofer Feld, Markthalle Neun and Görlitzer Park", ["Tempelhofer Feld", "Markthalle Neun", "Görlitzer Park"]),
        ("東京タワー, 浅草寺 and 明治神宮", ["東京タワー", "浅草寺", "明治神宮"]),
    ])
    func listHeadlinesBreakBetweenNamesNeverInsideOne(headline: String, names: [String]) throws {
        let glued = CardHeadlineBreaks.glued(headline, keeping: names)
        let scalars = Array(glued.unicodeScalars)
        for width in stride(from: 320, through: 1100, by: 60) {
            // As the renderer fits a headline: shrunk (120 → 44 px) before any word is broken.
            let style = CardTextStyle(weight: .bold, color: "#000000", width: width, size: 120, minimumSize: 44,
                                      maxLines: 4, maxHeight: nil)
            let fitted = try #require(CardTextFitter.fit(glued, style: style))
            // A name wider than the box even at the smallest size is broken, as the last resort.
            if fitted.measurement.brokenWord {
                #expect(width < 600, "at \(width) px a name was broken")
                continue
            }
            #expect(!fitted.truncated, "at \(width) px")
            for start in fitted.measurement.lineStarts.dropFirst() {
                let rest = CardHeadlineBreaks.unglued(String(String.UnicodeScalarView(scalars[min(start, scalars.count)...])))
                #expect(names.contains { rest.hasPrefix($0) } || rest.hasPrefix("and "),
                        "at \(width) px a line starts inside a name: \"\(rest)\"")
                #expect(!names.contains { rest.hasPrefix($0) && headline.contains("and \($0)") },
                        "at \(width) px \"and\" was left at a line end before \"\(rest)\"")
            }
        }
        // Without the glue the same headline does break inside a name at some width (the check bites).
        var insideAName = false
        for width in stride(from: 320, through: 1100, by: 20) {
            let style = CardTextStyle(weight: .bold, color: "#000000", width: width, size: 120, minimumSize: 44,
                                      maxLines: 4, maxHeight: nil)
            let fitted = try #require(CardTextFitter.fit(headline, style: style))
            let plain = Array(headline.unicodeScalars)
            for start in fitted.measurement.lineStarts.dropFirst() {
                let rest = String(String.UnicodeScalarView(plain[min(start, plain.count)...]))
                if !names.contains(where: { rest.hasPrefix($0) }) && !rest.hasPrefix("and ") { insideAName = true }
            }
        }
        #expect(insideAName)
    }

    @Test func aWordIsShrunkBeforeItIsBroken() throws {
        // One long word in a box it fits only when smaller: the fitter shrinks it whole.
        let style = CardTextStyle(weight: .bold, color: "#000000", width: 600, size: 120, minimumSize: 40,
                                  maxLines: 3, maxHeight: nil)
        let fitted = try #require(CardTextFitter.fit("Donaudampfschifffahrt", style: style))
        #expect(!fitted.measurement.brokenWord && fitted.measurement.lineCount == 1 && fitted.size < 120)
        // Too long even at the smallest size: only then is it broken.
        let tiny = CardTextStyle(weight: .bold, color: "#000000", width: 200, size: 60, minimumSize: 40,
                                 maxLines: 3, maxHeight: nil)
        let broken = try #require(CardTextFitter.fit("Donaudampfschifffahrtsgesellschaft", style: tiny))
        #expect(broken.size == 40 && (broken.measurement.brokenWord || broken.truncated))
    }

    @Test func theLocationGroupHeadlineIsNotBrokenInsideANameOnAnyCard() throws {
        let run = try SuggestionProcessorTests.run("world-scripts")
        let group = try #require(run.item("W8"))
        for card in group.cards {
            let headline = try #require(card.layout.texts.first { $0.part == "headline" })
            #expect(headline.text == group.headline || headline.text.hasSuffix("…"), "\(card.role)")
        }
        // Pin labels were placed where they hit nothing, or counted in a "+N".
        let portrait = try #require(group.cards.first { $0.role == "fallback" })
        let labels = portrait.layout.texts.filter { $0.part == "pinLabel" || $0.part == "more" }
        #expect(!labels.isEmpty && portrait.layout.pins.count >= 2)
    }
}

@Suite struct SuggestionOutputSchemaTests {
    /// Every sample bundle's suggestion.json conforms to Schemas/suggestion-output.v1.json,
    /// the contract of the layout a client reads.
    @Test func suggestionJSONConformsToItsSchema() throws {
        let schema = try TestSupport.schema("suggestion-output.v1.json")
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let run = try SuggestionProcessorTests.run(name)
            let problems = schema.problems(in: run.jsonData)
            #expect(problems.isEmpty, "\(name): \(problems.prefix(10))")
        }
    }
}

@Suite struct CoverCollageTests {
    @Test func theLayoutFollowsTheAspectRatios() {
        // Two tall pictures on a wide canvas: side by side; two wide ones on a tall canvas: stacked.
        let tall = CardCollage.plan(aspects: [[0.75], [0.75]], width: 1600, height: 1000)
        #expect(tall.cells.map(\.height) == [1, 1])
        let wide = CardCollage.plan(aspects: [[1.5], [1.5]], width: 1200, height: 1500)
        #expect(wide.cells.map(\.width) == [1, 1])
        // Three on a landscape canvas: the tall picture takes the large left cell.
        let three = CardCollage.plan(aspects: [[1.5], [0.6], [1.5]], width: 1600, height: 1000)
        #expect(three.cells[0].width > 0.5 && three.order[0] == 1)
        // A card offers its three layouts: the cell picks the closest, so nothing is cropped much.
        let cards = CardCollage.plan(aspects: [[1, 0.8, 1.6], [1, 0.8, 1.6]], width: 1600, height: 1000)
        #expect(cards.cells.count == 2)
    }

    @Test func eachSampleBundleGetsACollagePerSizeClass() throws {
        let run = try SuggestionProcessorTests.run("morning-run")
        let collages = run.output.coverCollage
        #expect(collages.map(\.sizeClass) == [.tile, .portrait, .landscape])
        for collage in collages {
            // The photo and the Live Photo first, then cards; up to four.
            #expect(collage.itemIds == ["A1", "A2", "6F0E", "A4"], "\(collage.sizeClass)")
            let size = CardSize(collage.sizeClass)
            #expect(collage.rendition.width == size.width && collage.rendition.height == size.height)
            let image = try TestImage([UInt8](try run.file(collage.rendition.path)))
            #expect(image.width == size.width && image.height == size.height)
            // Cells inside the canvas, none overlapping.
            for (index, cell) in collage.cells.enumerated() {
                #expect(cell.x >= 0 && cell.y >= 0 && cell.x + cell.width <= size.width && cell.y + cell.height <= size.height)
                for other in collage.cells[(index + 1)...] { #expect(!cell.intersects(other)) }
            }
        }
        // A bundle whose items are all cards still gets one.
        #expect(try SuggestionProcessorTests.run("world-scripts").output.coverCollage.count == 3)
    }
}

@Suite struct CardSizeListTests {
    @Test func classesAndSizesAreReadAndBadOnesRefused() throws {
        #expect(try CardSize.parseList("tile,portrait,landscape") == CardSize.defaults)
        #expect(try CardSize.parseList("tile=384x384, landscape") == [CardSize(.tile, width: 384, height: 384), CardSize(.landscape)])
        for bad in ["", "square", "tile,tile", "tile=10x10", "portrait=1200"] {
            #expect(throws: CardSizeListError.self, "\(bad)") { try CardSize.parseList(bad) }
        }
        // The processor draws only the classes asked for, at their sizes.
        let options = SuggestionOptions(cardSizes: try CardSize.parseList("tile=384x384"))
        #expect(options.cardSizes == [CardSize(.tile, width: 384, height: 384)])
        #expect(SuggestionOptions.cardRendition(options.cardSizes[0], dark: true).role == "thumbnailDark")
    }
}
