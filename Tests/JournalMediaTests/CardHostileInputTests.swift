import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaSuggestions
@testable import JournalMediaImaging

/// Specs a careless or hostile builder could hand the renderer: odd sizes, empty or
/// non-finite values, many threads at once. Each either draws or fails with a typed error.
@Suite struct CardHostileInputTests {
    @Test func tinyAndLargeCanvasesDraw() throws {
        for (width, height) in [(16, 16), (64, 900), (2048, 2560)] {
            let card = try CardRenderer.render(CardSamples.spec(
                headline: "A headline that cannot fit a tiny card", lines: ["one", "two", "three"],
                chips: ["a", "b"], footnote: "today", badge: "Work", hero: .glyph(.pin),
                width: width, height: height), images: [:])
            #expect(card.image.image.width == width && card.image.image.height == height)
        }
    }

    @Test func emptyAndNonFiniteValuesDoNotBreakTheCard() throws {
        let nan = CardPoint(x: .nan, y: .infinity)
        let specs = [
            CardSamples.spec(headline: "", lines: ["", " "], chips: ["", "  "], footnote: ""),
            CardSamples.spec(headline: "Route", hero: .route([[], [nan, nan]])),
            CardSamples.spec(headline: "Pins", hero: .pins([CardPin(point: nan, label: "nowhere")])),
            CardSamples.spec(headline: "One point", hero: .route([[CardPoint(x: 0.5, y: 0.5)]])),
            CardSamples.spec(headline: "Far away", hero: .route([[CardPoint(x: -1e9, y: 1e9), CardPoint(x: 2, y: 2)]])),
            CardSamples.spec(headline: "<b>not markup</b> & \u{0} \u{1B}[31m", lines: ["<span>"]),
            CardSamples.spec(headline: "Initials", hero: .initials("", background: "#000000", foreground: "#ffffff")),
        ]
        for spec in specs {
            let card = try CardRenderer.render(spec, images: [:])
            #expect(card.image.image.width == 600)
        }
        let empty = try CardRenderer.render(specs[0], images: [:])
        #expect(empty.warnings.contains("headline: empty") && empty.headlineFontSize == 0)
    }

    @Test func markupInTextIsDrawnAsTyped() throws {
        // Escaped: the angle brackets and the ampersand are drawn, not interpreted, so the
        // headline is wider than the same words without them.
        let plain = try CardRenderer.render(CardSamples.spec(headline: "bold"), images: [:])
        let tagged = try CardRenderer.render(CardSamples.spec(headline: "<b>bold</b> &amp;"), images: [:])
        let background = CardSamples.rgb(CardSamples.background)
        #expect(try CardPixels(tagged).count(differingFrom: background)
                > 2 * CardPixels(plain).count(differingFrom: background))
    }

    @Test func badGradientAndColoursAreTypedErrors() {
        let cases: [CardSpec] = [
            CardSamples.spec(headline: "x", background: .verticalGradient([])),
            CardSamples.spec(headline: "x", background: .solid("#12345")),
            CardSamples.spec(headline: "x", hero: .initials("AB", background: "blue", foreground: "#fff")),
        ]
        for spec in cases {
            #expect(throws: CardRenderError.self) { try CardRenderer.render(spec, images: [:]) }
        }
    }

    @Test func concurrentRenderingGivesTheSamePixelsAsSerial() async throws {
        let texts = ["Здравствуйте", "مرحبا بالعالم", "こんにちは世界", "नमस्ते दुनिया", "Γειά σου κόσμε 😀", "สวัสดีชาวโลก"]
        let specs = texts.map { CardSamples.spec(headline: $0, lines: [$0], chips: [$0, $0], footnote: $0,
                                                 hero: .glyph(.quote)) }
        let serial = try specs.map { try CardPixels(CardRenderer.render($0, images: [:])).bytes }
        let parallel = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<2 {
                for (index, spec) in specs.enumerated() {
                    group.addTask { (index, try CardPixels(CardRenderer.render(spec, images: [:])).bytes + [UInt8(round)]) }
                }
            }
            var out: [(Int, [UInt8])] = []
            for try await result in group { out.append(result) }
            return out
        }
        for (index, bytes) in parallel {
            #expect(Array(bytes.dropLast()) == serial[index], "card \(index) differs when drawn concurrently")
        }
    }
}
