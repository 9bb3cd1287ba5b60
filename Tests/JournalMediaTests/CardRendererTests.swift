import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
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
            let metrics = CardMetrics(width: 600, height: 750)
            let box = CardBox(x: metrics.margin, y: metrics.margin, width: metrics.smallHeroSide,
                              height: metrics.smallHeroSide)
            let drawn = pixels.count(in: box, equalTo: accent)
            #expect(drawn > 300, "glyph \(glyph) drew \(drawn) accent pixels")
            #expect(card.warnings.isEmpty)
        }
    }

    @Test func imageHeroesKeepTheirShape() throws {
        let photo = try CardSamples.picture(width: 400, height: 300)
        let metrics = CardMetrics(width: 600, height: 750)
        // Rounded: the picture fills the hero box's height, centred, its corners cut.
        let rounded = try CardPixels(CardRenderer.render(
            CardSamples.spec(headline: "Song", hero: .image(field: "artwork", shape: .rounded)),
            images: ["artwork": photo]))
        let heroHeight = metrics.largeHeroHeight
        let pictureWidth = heroHeight * 4 / 3
        let left = metrics.margin + (metrics.contentWidth - pictureWidth) / 2
        #expect(rounded.pixel(left + 1, metrics.margin + 1) == background)
        let inside = rounded.pixel(left + pictureWidth / 2, metrics.margin + heroHeight / 2)
        #expect(inside != background && abs(Int(inside[2]) - 160) <= 4)
        // Circle: corners of its square are background, the centre is picture.
        let circle = try CardPixels(CardRenderer.render(
            CardSamples.spec(headline: "Ada", hero: .image(field: "photo", shape: .circle)),
            images: ["photo": photo]))
        let side = metrics.smallHeroSide, top = metrics.margin
        #expect(circle.pixel(metrics.margin + 3, top + 3) == background)
        #expect(circle.pixel(metrics.margin + side - 4, top + side - 4) == background)
        #expect(abs(Int(circle.pixel(metrics.margin + side / 2, top + side / 2)[2]) - 160) <= 4)
        // Icon: its transparent frame shows the background, its opaque centre the picture.
        let icon = try CardPixels(CardRenderer.render(
            CardSamples.spec(headline: "App", hero: .image(field: "appIcon", shape: .icon)),
            images: ["appIcon": try CardSamples.picture(width: 200, height: 200, alpha: true)]))
        #expect(icon.pixel(metrics.margin + side / 8, top + side / 8) == background)
        #expect(abs(Int(icon.pixel(metrics.margin + side / 2, top + side / 2)[2]) - 160) <= 4)
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
        let metrics = CardMetrics(width: 600, height: 750)
        let box = CardBox(x: metrics.margin, y: metrics.margin, width: metrics.smallHeroSide,
                          height: metrics.smallHeroSide)
        #expect(pixels.count(in: box, equalTo: [0x7c, 0x3a, 0xed]) > 10_000)
        #expect(pixels.count(in: box, equalTo: [255, 255, 255]) > 500)
        #expect(card.missingGlyphs == 0)
    }

    /// Where a route's unit-frame point lands on the 600×750 test canvas: the route's
    /// bounding box (`x0…x1`, `y0…y1`), aspect kept, fitted and centred in the large hero
    /// box inset by the end markers and the stroke.
    func routeMapping(x0: Double, x1: Double, y0: Double, y1: Double) -> (Double, Double) -> (Int, Int) {
        let m = CardMetrics(width: 600, height: 750)
        let inset = Double(m.px(20) + m.px(12))
        let areaX = Double(m.margin) + inset, areaY = Double(m.margin) + inset
        let areaWidth = Double(m.contentWidth) - 2 * inset, areaHeight = Double(m.largeHeroHeight) - 2 * inset
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
        #expect(right - left >= m.contentWidth - 2 * (m.px(20) + m.px(12)) - 1)
    }

    @Test func pinsAreDrawnWithTheirLabels() throws {
        let pins = [CardPin(point: CardPoint(x: 0.1, y: 0.2), label: "Tempelhofer Feld"),
                    CardPin(point: CardPoint(x: 0.9, y: 0.8), label: "Görlitzer Park")]
        let card = try CardRenderer.render(CardSamples.spec(headline: "Two places", hero: .pins(pins)), images: [:])
        let pixels = try CardPixels(card)
        let m = CardMetrics(width: 600, height: 750)
        let hero = CardBox(x: m.margin, y: m.margin, width: m.contentWidth, height: m.largeHeroHeight)
        #expect(pixels.count(in: hero, equalTo: accent) > 400)
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
        #expect(card.headlineFontSize == CardMetrics(width: 600, height: 750).size(60))
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
}
