import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaSuggestions
@testable import JournalMediaImaging

/// The card renderer on real renderings: sizes, heroes, text fitting, routes, determinism,
/// metadata and colours, read back from the pixels.
@Suite struct CardRendererTests {
    let background = CardSamples.rgb(CardSamples.background)
    let foreground = CardSamples.rgb(CardSamples.foreground)
    let accent = CardSamples.rgb(CardSamples.accent)

    @Test func textCardIsTheSpecsSizeEightBitSRGBOpaque() throws {
        let card = try CardRenderer.render(CardSamples.spec(headline: "What made you smile today?",
                                                            lines: ["A second line"], footnote: "Sat 4 Oct"),
                                           images: [:])
        let image = card.image.image
        #expect(image.width == 600 && image.height == 750)
        #expect(image.bands == 3 && image.format == VIPS_FORMAT_UCHAR)
        #expect(image.interpretation == VIPS_INTERPRETATION_sRGB)
        #expect(card.missingGlyphs == 0 && !card.truncated && card.warnings.isEmpty)
        // Text was drawn: the headline's rows are not plain background.
        let pixels = try CardPixels(card)
        #expect(pixels.count(differingFrom: background) > 2000)
        // The margins stay clear.
        #expect(pixels.count(in: CardBox(x: 0, y: 0, width: 600, height: 40), differingFrom: background) == 0)
        #expect(pixels.count(in: CardBox(x: 0, y: 0, width: 40, height: 750), differingFrom: background) == 0)
    }

    @Test func headlinePixelsAreTheSpecsForeground() throws {
        let card = try CardRenderer.render(CardSamples.spec(headline: "Legible headline text"), images: [:])
        let pixels = try CardPixels(card)
        // The glyphs' solid interiors carry exactly the foreground colour (antialiased edges
        // blend towards the background); nothing else on a text card is that colour.
        #expect(pixels.count(equalTo: foreground) > 1500)
        let darkest = stride(from: 0, to: pixels.bytes.count, by: 3).map {
            Int(pixels.bytes[$0]) + Int(pixels.bytes[$0 + 1]) + Int(pixels.bytes[$0 + 2])
        }.min() ?? 0
        #expect(darkest == foreground.map(Int.init).reduce(0, +))
    }

    @Test func backgroundIsTheSpecsColourAndGradientRunsTopToBottom() throws {
        let solid = try CardPixels(CardRenderer.render(CardSamples.spec(headline: "A"), images: [:]))
        #expect(solid.pixel(5, 5) == background)
        let spec = CardSamples.spec(headline: "Pleasant", background: .verticalGradient([
            CardGradientStop(color: "#ff0000", location: 0), CardGradientStop(color: "#0000ff", location: 1)]))
        let gradient = try CardPixels(CardRenderer.render(spec, images: [:]))
        let top = gradient.pixel(5, 0), bottom = gradient.pixel(5, 749), middle = gradient.pixel(5, 375)
        #expect(top[0] >= 250 && top[2] <= 5)
        #expect(bottom[2] >= 250 && bottom[0] <= 5)
        #expect(abs(Int(middle[0]) - 127) <= 3 && abs(Int(middle[2]) - 127) <= 3)
    }

    @Test func everyGlyphRendersInTheAccentColour() throws {
        for glyph in CardGlyph.allCases {
            let card = try CardRenderer.render(CardSamples.spec(headline: "Glyph", hero: .glyph(glyph)), images: [:])
            let pixels = try CardPixels(card)
            let hero = try #require(card.layout.hero)
            let box = CardBox(x: hero.x, y: hero.y, width: hero.width, height: hero.height)
            let drawn = pixels.count(in: box, equalTo: accent)
            #expect(drawn > 300, "glyph \(glyph) drew \(drawn) accent pixels")
            #expect(card.warnings.isEmpty)
        }
    }

    @Test func imageHeroesKeepTheirShape() throws {
        let photo = try CardSamples.picture(width: 400, height: 300)
        let metrics = CardMetrics(width: 600, height: 750)
        // Rounded: the picture fills the hero box's height, centred, its corners cut.
        let roundedCard = try CardRenderer.render(
            CardSamples.spec(headline: "Song", hero: .image(field: "artwork", shape: .rounded)),
            images: ["artwork": photo])
        let rounded = try CardPixels(roundedCard)
        let picture = try #require(roundedCard.layout.hero)
        #expect(picture.height == metrics.heroBox.height && abs(picture.width - picture.height * 4 / 3) <= 1)
        #expect(picture.x == metrics.margin + (metrics.contentWidth - picture.width) / 2)
        #expect(rounded.pixel(picture.x + 1, picture.y + 1) == background)
        let inside = rounded.pixel(picture.x + picture.width / 2, picture.y + picture.height / 2)
        #expect(inside != background && abs(Int(inside[2]) - 160) <= 4)
        // Circle: as tall as the hero box, centred; corners of its square are background, the centre is picture.
        let circleCard = try CardRenderer.render(
            CardSamples.spec(headline: "Ada", hero: .image(field: "photo", shape: .circle)),
            images: ["photo": photo])
        let circle = try CardPixels(circleCard)
        let disc = try #require(circleCard.layout.hero)
        #expect(disc.height == metrics.heroBox.height && abs(disc.x + disc.width / 2 - 300) <= 1)
        #expect(circle.pixel(disc.x + 3, disc.y + 3) == background)
        #expect(circle.pixel(disc.x + disc.width - 4, disc.y + disc.height - 4) == background)
        #expect(abs(Int(circle.pixel(disc.x + disc.width / 2, disc.y + disc.height / 2)[2]) - 160) <= 4)
        // Icon: its transparent frame shows the background, its opaque centre the picture.
        let iconCard = try CardRenderer.render(
            CardSamples.spec(headline: "App", hero: .image(field: "appIcon", shape: .icon)),
            images: ["appIcon": try CardSamples.picture(width: 200, height: 200, alpha: true)])
        let icon = try CardPixels(iconCard)
        let square = try #require(iconCard.layout.hero)
        #expect(icon.pixel(square.x + square.width / 8, square.y + square.height / 8) == background)
        #expect(abs(Int(icon.pixel(square.x + square.width / 2, square.y + square.height / 2)[2]) - 160) <= 4)
    }

    @Test func missingPictureFallsBackToAGlyphWithAWarning() throws {
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Song", hero: .image(field: "artwork", shape: .rounded)), images: [:])
        #expect(card.warnings.contains { $0.contains("artwork") })
        #expect(try CardPixels(card).count(equalTo: accent) > 300)
    }

    @Test func initialsDiscShowsLettersInItsColours() throws {
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Zoë Ångström",
                             hero: .initials("ZÅ", background: "#7c3aed", foreground: "#ffffff")), images: [:])
        let pixels = try CardPixels(card)
        let hero = try #require(card.layout.hero)
        let box = CardBox(x: hero.x, y: hero.y, width: hero.width, height: hero.height)
        #expect(pixels.count(in: box, equalTo: [0x7c, 0x3a, 0xed]) > 10_000)
        #expect(pixels.count(in: box, equalTo: [255, 255, 255]) > 500)
        #expect(card.missingGlyphs == 0)
    }

    /// Where a route's unit-frame point lands on the 600×750 test canvas: the route's
    /// bounding box (`x0…x1`, `y0…y1`), aspect kept, fitted and centred in the large hero
    /// box inset by the end markers and the stroke.
    func routeMapping(x0: Double, x1: Double, y0: Double, y1: Double) -> (Double, Double) -> (Int, Int) {
        let m = CardMetrics(width: 600, height: 750)
        let inset = Double(m.px(28) + m.px(14))
        let hero = m.heroBox
        let areaX = Double(hero.x) + inset, areaY = Double(hero.y) + inset
        let areaWidth = Double(hero.width) - 2 * inset, areaHeight = Double(hero.height) - 2 * inset
        // One unit never exceeds the area's larger side.
        let scale = min(areaWidth / (x1 - x0), areaHeight / (y1 - y0), max(areaWidth, areaHeight))
        let left = areaX + (areaWidth - (x1 - x0) * scale) / 2, top = areaY + (areaHeight - (y1 - y0) * scale) / 2
        return { x, y in (Int(left + (x - x0) * scale), Int(top + (y - y0) * scale)) }
    }

    @Test func routeLightsUpItsPathAndNothingElse() throws {
        // An L across the unit frame's width (as the builder normalises routes): down the
        // left from (0, 0.3) to (0, 0.7), then right to (1, 0.7).
        let route = [CardPoint(x: 0, y: 0.3), CardPoint(x: 0, y: 0.7), CardPoint(x: 1, y: 0.7)]
        let card = try CardRenderer.render(CardSamples.spec(headline: "Run", hero: .route([route])), images: [:])
        let pixels = try CardPixels(card)
        let map = routeMapping(x0: 0, x1: 1, y0: 0.3, y1: 0.7)
        func at(_ x: Double, _ y: Double) -> [UInt8] {
            let (px, py) = map(x, y)
            return pixels.pixel(px, py)
        }
        #expect(at(0, 0.5) == accent)
        #expect(at(0.5, 0.7) == accent)
        #expect(at(0.8, 0.7) == accent)
        // Away from the path: above the corner's inside, below the path and left of it.
        func clear(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Int {
            let (left, top) = map(x0, y0), (right, bottom) = map(x1, y1)
            return pixels.count(in: CardBox(x: left, y: top, width: right - left, height: bottom - top),
                                differingFrom: background)
        }
        #expect(clear(0.15, 0.2, 1.0, 0.62) == 0)
        #expect(clear(0, 0.78, 1.0, 0.85) == 0)
        #expect(clear(-0.1, 0.2, -0.05, 0.8) == 0)
        // The route spans the hero's width, inset by the markers.
        let (left, _) = map(0, 0.7), (right, _) = map(1, 0.7)
        let m = CardMetrics(width: 600, height: 750)
        #expect(right - left >= m.contentWidth - 2 * (m.px(28) + m.px(14)) - 1)
    }

    @Test func pinsAreDrawnWithTheirLabels() throws {
        let pins = [CardPin(point: CardPoint(x: 0.1, y: 0.2), label: "Tempelhofer Feld"),
                    CardPin(point: CardPoint(x: 0.9, y: 0.8), label: "Görlitzer Park")]
        let card = try CardRenderer.render(CardSamples.spec(headline: "Two places", hero: .pins(pins)), images: [:])
        let pixels = try CardPixels(card)
        let m = CardMetrics(width: 600, height: 750)
        let hero = m.heroBox
        #expect(pixels.count(in: hero, equalTo: accent) > 400)
        #expect(card.layout.texts.filter { $0.part == "pinLabel" }.map(\.text) == ["Tempelhofer Feld", "Görlitzer Park"])
        #expect(pixels.count(in: hero, differingFrom: background) > 1500)
        #expect(card.missingGlyphs == 0)
    }

    @Test func chipsShowWhatFitsThenPlusN() throws {
        let labels = (1...10_000).map { "Label \($0)" }
        let card = try CardRenderer.render(CardSamples.spec(headline: "Mood", chips: labels, hero: .glyph(.mood)),
                                           images: [:])
        let shown = card.warnings.compactMap { warning -> Int? in
            guard warning.hasPrefix("chips: "), warning.hasSuffix(" of 10000 shown") else { return nil }
            return Int(warning.dropFirst(7).prefix { $0.isNumber })
        }
        #expect(shown.count == 1)
        #expect((1..<40).contains(shown.first ?? 0))
        let few = try CardRenderer.render(CardSamples.spec(headline: "Mood", chips: ["Joyful", "Calm"],
                                                           hero: .glyph(.mood)), images: [:])
        #expect(few.warnings.isEmpty)
    }

    @Test func megabyteHeadlineIsShrunkThenEllipsised() throws {
        let headline = String(repeating: "All work and no play makes a long prompt. ", count: 25_000)
        #expect(headline.utf8.count > 1_000_000)
        let card = try CardRenderer.render(CardSamples.spec(headline: headline, footnote: "today"), images: [:])
        #expect(card.truncated)
        #expect(card.headlineFontSize == CardMetrics(width: 600, height: 750).headline(hasHero: false).minimum)
        // Nothing is drawn into the bottom margin.
        let pixels = try CardPixels(card)
        #expect(pixels.count(in: CardBox(x: 0, y: 750 - 40, width: 600, height: 40), differingFrom: background) == 0)
    }

    @Test func longHeadlineShrinksBeforeCutting() throws {
        let short = try CardRenderer.render(CardSamples.spec(headline: "Run", hero: .glyph(.running)), images: [:])
        let long = try CardRenderer.render(CardSamples.spec(
            headline: "An unusually long workout name that needs more than three lines at the largest size",
            hero: .glyph(.running)), images: [:])
        #expect(long.headlineFontSize < short.headlineFontSize)
        #expect(!long.truncated)
    }

    @Test func millionPointRouteIsThinnedAndDrawn() throws {
        let route = (0..<1_000_000).map { index -> CardPoint in
            let t = Double(index) / 1_000_000 * 2 * Double.pi
            return CardPoint(x: 0.5 + 0.4 * cos(t), y: 0.5 + 0.4 * sin(t))
        }
        let card = try CardRenderer.render(CardSamples.spec(headline: "Ultra", hero: .route([route])), images: [:])
        #expect(card.warnings.contains { $0.hasPrefix("route: 1000000 points thinned") })
        #expect(try CardPixels(card).count(equalTo: accent) > 1000)
    }

    @Test func renderingIsDeterministic() throws {
        let spec = CardSamples.spec(headline: "Same input, same bytes 😀", lines: ["Здравствуйте"],
                                    chips: ["a", "b"], footnote: "today", badge: "Work",
                                    hero: .route([[CardPoint(x: 0, y: 0), CardPoint(x: 1, y: 1)]]))
        let first = try CardPixels(CardRenderer.render(spec, images: [:]))
        let second = try CardPixels(CardRenderer.render(spec, images: [:]))
        #expect(first.bytes == second.bytes)
    }

    @Test func cardCarriesNoMetadataAndEncodesThroughTheRenditionStep() throws {
        let card = try CardRenderer.render(CardSamples.spec(headline: "Private"), images: [:])
        let extra = card.image.image.fieldNames.filter { !ImageDecoder.coreFields.contains($0) }
        #expect(extra.isEmpty)
        var result = AssetResult(source: "card")
        try RenditionStep.run(SourceImage(decoded: card.image, width: 600, height: 750, upscale: false),
                              specs: [RenditionSpec(role: "fallback", format: .png, width: 600, height: 750),
                                      RenditionSpec(role: "thumbnail", format: .webp, width: 512)],
                              analyzeColors: true, name: "card", into: &result)
        let png = try #require(result.renditions.first { $0.role == "fallback" })
        #expect(png.width == 600 && png.height == 750)
        // No text, EXIF or time chunks in the PNG.
        let text = String(decoding: png.data, as: UTF8.self)
        for chunk in ["tEXt", "iTXt", "zTXt", "eXIf", "tIME"] { #expect(!text.contains(chunk)) }
        #expect(result.renditions.first { $0.role == "thumbnail" }?.height == 512)
    }

    @Test func malformedColourIsATypedError() {
        var spec = CardSamples.spec(headline: "Bad")
        spec.foreground = "red"
        #expect(throws: CardRenderError.self) { try CardRenderer.render(spec, images: [:]) }
        spec = CardSamples.spec(headline: "Too big", width: 100_000)
        #expect(throws: CardRenderError.self) { try CardRenderer.render(spec, images: [:]) }
    }

    @Test func aMapPictureIsTheHeroWithItsPinsWhereTheyAre() throws {
        let m = CardMetrics(width: 600, height: 750)
        let box = m.heroBox
        // A picture of the hero box's shape: no crop, the region maps straight onto it.
        let map = try CardSamples.picture(width: box.width, height: box.height)
        let region = CardMapRegion(centerLatitude: 10, centerLongitude: 20, latitudeDelta: 2, longitudeDelta: 2)
        let pins = [CardPin(point: region.point(latitude: 10.5, longitude: 19.5), label: "North-west"),
                    CardPin(point: region.point(latitude: 9.5, longitude: 20.5), label: "South-east")]
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Two places", hero: .map(field: "map", region: region, pins: pins, routes: [])),
            images: ["map": map])
        let hero = try #require(card.layout.hero)
        #expect(hero == box.rect)
        #expect(card.layout.pins.count == 2)
        let tips = card.layout.pins.map { (Double($0.x) + Double($0.width) / 2, Double($0.y + $0.height)) }
        #expect(abs(tips[0].0 - (Double(box.x) + 0.25 * Double(box.width))) <= 2)
        #expect(abs(tips[0].1 - (Double(box.y) + 0.25 * Double(box.height))) <= 2)
        #expect(abs(tips[1].0 - (Double(box.x) + 0.75 * Double(box.width))) <= 2)
        // The picture is under the pins: its blue channel (160) fills the hero's corner.
        let pixels = try CardPixels(card)
        #expect(abs(Int(pixels.pixel(box.x + box.width / 2, box.y + 20)[2]) - 160) <= 4)
        // Without the picture: the abstract frame, the pins fitted to it.
        let frame = try CardRenderer.render(
            CardSamples.spec(headline: "Two places", hero: .map(field: "map", region: region, pins: pins, routes: [])),
            images: [:])
        #expect(frame.layout.pins.count == 2 && frame.layout.hero == box.rect)
    }

    /// Issue 28: a square map behind a north–south route was cropped to the tile's wide hero
    /// band, so the route ran off the band and the end marker was not on the tile.
    @Test func aTileShowsTheWholeRouteOfATallMapNotABandThroughIt() throws {
        let side = 600
        let grey: [UInt8] = [200, 210, 220]
        let map = DecodedImage(image: try VipsImageHandle.copyingPackedRGB(
            [UInt8]((0..<side * side * 3).map { grey[$0 % 3] }), width: side, height: side), hasRealTransparency: false)
        let region = CardMapRegion(centerLatitude: 52.5, centerLongitude: 13.4, latitudeDelta: 0.02, longitudeDelta: 0.02)
        let route = (0...40).map { CardPoint(x: 0.5 + 0.05 * sin(Double($0) / 6), y: 0.04 + 0.92 * Double($0) / 40) }
        var spec = CardSamples.spec(headline: "Morning run", hero: .map(field: "map", region: region, pins: [], routes: [route]),
                                    width: 512, height: 512)
        spec.sizeClass = .tile
        let card = try CardRenderer.render(spec, images: ["map": map])
        let box = CardMetrics(width: 512, height: 512, sizeClass: .tile).heroBox
        let hero = try #require(card.layout.hero)
        // The picture is shown whole in height, narrower than the band, centred in it.
        #expect(hero.y >= box.y && hero.y + hero.height <= box.y + box.height && hero.width < box.width)
        // The route's ink (accent) stays clear of the hero box' edges, where it would be cut:
        // both markers are drawn whole (they may stand a little over the picture's edge).
        let pixels = try CardPixels(card)
        let accent = CardSamples.rgb(CardSamples.accent)
        var rows: [Int] = []
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) {
                let p = pixels.pixel(x, y)
                if (0..<3).allSatisfy({ abs(Int(p[$0]) - Int(accent[$0])) <= 30 }) { rows.append(y); break }
            }
        }
        let top = try #require(rows.first), bottom = try #require(rows.last)
        #expect(top > box.y + 1 && bottom < box.y + box.height - 2, "route ink \(top)…\(bottom) in the hero box \(box)")
        #expect(bottom - top > hero.height * 3 / 4, "the route is drawn large")
    }

    @Test func theMapWindowKeepsTheContentInViewAndFillsTheBoxWhenItCan() {
        let padding = (side: 20.0, top: 20.0, bottom: 20.0)
        // A small cluster in the middle of a square map: the band is filled (cropped around it).
        let near = CardMapWindow(pictureWidth: 1000, pictureHeight: 1000, boxWidth: 448, boxHeight: 228,
                                 content: [CardPoint(x: 0.45, y: 0.45), CardPoint(x: 0.55, y: 0.55)], padding: padding)
        #expect(near.shown.width == 448 && near.shown.height == 228)
        // A route from top to bottom: the picture is shrunk to keep both ends, padding included.
        let start = CardPoint(x: 0.5, y: 0.02), end = CardPoint(x: 0.5, y: 0.98)
        let tall = CardMapWindow(pictureWidth: 1000, pictureHeight: 1000, boxWidth: 448, boxHeight: 228,
                                 content: [start, end], padding: padding)
        #expect(tall.shown.height <= 228 && tall.shown.width < 448)
        for point in [start, end] {
            let (x, y) = tall.place(point, pictureWidth: 1000, pictureHeight: 1000)
            #expect(x >= Double(tall.shown.x) && x <= Double(tall.shown.x + tall.shown.width))
            #expect(y >= 20 - 0.5 && y <= 228 - 20 + 0.5, "\(point) at \(y)")
        }
    }

    /// Issue 28: a tile's pins get their labels where they fit (before, tiles drew none).
    @Test func aTileLabelsItsPinsWhereTheyFit() throws {
        let pins = [CardPin(point: CardPoint(x: 0.1, y: 0.3), label: "Feld"),
                    CardPin(point: CardPoint(x: 0.55, y: 0.7), label: "Halle"),
                    CardPin(point: CardPoint(x: 0.9, y: 0.45), label: "Park")]
        var spec = CardSamples.spec(headline: "Three places", hero: .frame(pins: pins, routes: [], scaleLabel: "≈ 4 km across"),
                                    width: 512, height: 512)
        spec.sizeClass = .tile
        let card = try CardRenderer.render(spec, images: [:])
        let labels = card.layout.texts.filter { $0.part == "pinLabel" }
        #expect(labels.count >= 2, "\(card.layout.texts.map(\.text))")
        #expect(labels.allSatisfy { $0.pixelSize >= 24 }, "the tile's floor")
        #expect(!card.layout.texts.contains { $0.part == "scale" }, "no scale on a tile")
        for label in labels {
            for pin in card.layout.pins { #expect(!label.box.intersects(pin)) }
        }
    }

    /// Issue 28: a pin label stands on a plate of the card's background, so the graticule does
    /// not run through its letters (before, the frame's tint and grid lines filled the label's
    /// box); the plates cover no pin.
    @Test func pinLabelsStandOnAPlateOfTheBackground() throws {
        let pins = [CardPin(point: CardPoint(x: 0.1, y: 0.3), label: "Feld"),
                    CardPin(point: CardPoint(x: 0.55, y: 0.7), label: "Halle"),
                    CardPin(point: CardPoint(x: 0.9, y: 0.45), label: "Park")]
        for size in [(512, 512, CardSizeClass.tile), (600, 750, .portrait), (800, 500, .landscape)] {
            var spec = CardSamples.spec(headline: "Three places", hero: .frame(pins: pins, routes: [], scaleLabel: "≈ 4 km"),
                                        width: size.0, height: size.1)
            spec.sizeClass = size.2
            let card = try CardRenderer.render(spec, images: [:])
            let pixels = try CardPixels(card)
            let labels = card.layout.texts.filter { ["pinLabel", "scale", "more"].contains($0.part) }
            #expect(labels.count >= 2, "\(size.2): \(card.layout.texts.map(\.text))")
            for label in labels {
                let box = CardBox(x: label.box.x, y: label.box.y, width: label.box.width, height: label.box.height)
                // Around the letters the box is the background; nothing but the letters' ink differs from it.
                #expect(pixels.count(in: box, equalTo: background) > box.width * box.height / 2,
                        "\(size.2) \(label.text): the frame shows through")
                let above = CardBox(x: box.x, y: box.y - 1, width: box.width, height: 1)
                #expect(pixels.count(in: above, equalTo: background) == box.width, "\(size.2) \(label.text)")
            }
            // The pins keep their accent heads uncovered.
            for pin in card.layout.pins {
                let box = CardBox(x: pin.x, y: pin.y, width: pin.width, height: pin.height)
                #expect(pixels.count(in: box, equalTo: accent) > pin.width * pin.height / 6, "\(size.2): a pin is covered")
            }
        }
    }

    /// Issue 28: one place without a map picture stands in rings around its pin, not on a grid.
    @Test func onePlaceWithoutAMapStandsInRings() throws {
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Café", hero: .frame(pins: [CardPin(point: CardPoint(x: 0.5, y: 0.5))], routes: [],
                                                           scaleLabel: nil)), images: [:])
        let m = CardMetrics(width: 600, height: 750)
        let box = m.heroBox
        let top = Double(m.px(240)) / 40 * 40
        let cx = Double(box.x) + Double(box.width) / 2, cy = Double(box.y) + (Double(box.height) + top) / 2
        let spacing = Double(min(box.width, box.height)) / 5
        let pixels = try CardPixels(card)
        func at(_ angle: Double, _ radius: Double) -> [UInt8] {
            pixels.pixel(Int((cx + cos(angle) * radius).rounded(.down)), Int((cy + sin(angle) * radius).rounded(.down)))
        }
        // On the second ring in three directions: the same darker tint; between rings: the frame's.
        let onRing = [at(0, 2 * spacing), at(Double.pi, 2 * spacing), at(Double.pi / 4, 2 * spacing)]
        let between = at(0, 2.5 * spacing)
        for pixel in onRing {
            #expect(Int(pixel[1]) < Int(between[1]) - 10, "ring \(pixel) vs frame \(between)")
        }
    }

    @Test func pinLabelsNeverCoverAPinOrEachOtherAndTheRestIsCounted() throws {
        // Ten pins crowded in a corner: labels where they fit, "+N" for the others.
        let pins = (0..<10).map { CardPin(point: CardPoint(x: 0.1 + Double($0 % 3) * 0.05, y: 0.1 + Double($0 / 3) * 0.05),
                                          label: "Place number \($0)") }
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Ten places", hero: .frame(pins: pins, routes: [], scaleLabel: "≈ 2 km across")),
            images: [:])
        let labels = card.layout.texts.filter { ["pinLabel", "more", "scale"].contains($0.part) }
        for (index, label) in labels.enumerated() {
            for pin in card.layout.pins { #expect(!label.box.intersects(pin), "\(label.text) covers a pin") }
            for other in labels[(index + 1)...] { #expect(!label.box.intersects(other.box), "\(label.text) / \(other.text)") }
        }
        let shown = labels.filter { $0.part == "pinLabel" }.count
        let more = labels.first { $0.part == "more" }
        #expect(shown < 10 && more?.text == "+\(10 - shown)")
        #expect(labels.allSatisfy { $0.pixelSize >= 18 }, "36 px at the 0.5 scale of the test canvas")
    }

    @Test func theMoodFormIsFilledWithItsColours() throws {
        let card = try CardRenderer.render(
            CardSamples.spec(headline: "Pleasant", hero: .mood(colors: ["#ff8800", "#ff8800"], valence: 0.6)), images: [:])
        let hero = try #require(card.layout.hero)
        let pixels = try CardPixels(card)
        let box = CardBox(x: hero.x, y: hero.y, width: hero.width, height: hero.height)
        // Orange fills a good part of the hero square (petals at 72 % over the background, the centre solid).
        #expect(pixels.count(in: box, equalTo: [0xff, 0x88, 0x00]) > hero.width * hero.height / 50)
        #expect(pixels.count(in: box, differingFrom: background) > hero.width * hero.height / 3)
    }
}
