import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaSuggestions
@testable import JournalMediaImaging

/// Text in every script the cards promise comes out as real glyphs: Pango's unknown-glyph
/// count is zero with the fonts `make deps` installs, and ink is drawn.
@Suite struct CardScriptTests {
    static let samples: [(script: String, text: String)] = [
        ("Latin with diacritics", "Żółć, Ærøskøbing, São Tomé, Việt Nam, Ångström"),
        ("Greek", "Καλημέρα, τι σε έκανε να χαμογελάσεις σήμερα;"),
        ("Cyrillic", "Что заставило тебя улыбнуться сегодня?"),
        ("Arabic", "ما الذي جعلك تبتسم اليوم؟"),
        ("Hebrew", "מה גרם לך לחייך היום?"),
        ("Devanagari", "आज तुम्हें किस बात ने मुस्कुराया?"),
        ("Thai", "วันนี้อะไรทำให้คุณยิ้ม"),
        ("Chinese", "今天是什么让你微笑？"),
        ("Japanese", "今日はどんなことで笑顔になりましたか？"),
        ("Korean", "오늘 무엇이 당신을 웃게 했나요?"),
        ("Emoji", "🏃‍♀️ 🌧️ 😀 👍🏽 🇩🇪 ❤️"),
    ]

    @Test(arguments: samples.map(\.script))
    func scriptHasNoMissingGlyphs(_ script: String) throws {
        let text = try #require(Self.samples.first { $0.script == script }?.text)
        let card = try CardRenderer.render(CardSamples.spec(headline: text, lines: [text], chips: [text],
                                                            footnote: text, hero: .glyph(.quote)), images: [:])
        #expect(card.missingGlyphs == 0, "\(script): \(card.missingGlyphs) missing glyphs")
        let pixels = try CardPixels(card)
        #expect(pixels.count(differingFrom: CardSamples.rgb(CardSamples.background)) > 3000)
    }

    @Test func hanIsSetInTheTextsRegionalForm() throws {
        #expect(CardTextFitter.families(for: "今天是什么让你微笑").hasSuffix("CJK SC"))
        #expect(CardTextFitter.families(for: "今日はどんなことで").hasSuffix("CJK JP"))
        #expect(CardTextFitter.families(for: "오늘 무엇이 今日").hasSuffix("CJK KR"))
        #expect(CardTextFitter.families(for: "Morning run").hasSuffix("CJK JP"))
        // 直 has a different form in Japanese and Chinese fonts: the two cards differ.
        // Under a route the headline starts at the left margin; only the text area is compared.
        let route = CardHero.route([[CardPoint(x: 0, y: 0.5), CardPoint(x: 1, y: 0.5)]])
        let chinese = try CardPixels(CardRenderer.render(CardSamples.spec(headline: "直", hero: route), images: [:]))
        let japanese = try CardPixels(CardRenderer.render(CardSamples.spec(headline: "直あ", hero: route), images: [:]))
        let background = CardSamples.rgb(CardSamples.background)
        let area = CardMetrics(width: 600, height: 750).textArea
        let firstGlyph = CardBox(x: 40, y: area.y, width: 130, height: area.height)
        #expect(chinese.count(in: firstGlyph, differingFrom: background) > 500)
        var differing = 0
        for y in area.y..<750 { for x in 40..<170 where chinese.pixel(x, y) != japanese.pixel(x, y) { differing += 1 } }
        #expect(differing > 100)
    }

    @Test func characterWithoutAnyFontIsCounted() throws {
        // U+0378 is unassigned; no font has it, so Pango draws a box and counts it.
        let card = try CardRenderer.render(CardSamples.spec(headline: "A\u{0378}B\u{0378}"), images: [:])
        #expect(card.missingGlyphs == 2)
    }

    @Test func rightToLeftHeadlineIsSetFromTheRight() throws {
        let background = CardSamples.rgb(CardSamples.background)
        let metrics = CardMetrics(width: 600, height: 750)
        // Texts under a route start at their start side; only the text area is looked at.
        let area = metrics.textArea
        let band = { (x: Int, width: Int) in CardBox(x: x, y: area.y, width: width, height: area.height) }
        let route = CardHero.route([[CardPoint(x: 0, y: 0.5), CardPoint(x: 1, y: 0.5)]])
        for text in ["שלום", "مرحبا"] {
            let card = try CardRenderer.render(CardSamples.spec(headline: text, hero: route), images: [:])
            #expect(card.missingGlyphs == 0)
            let pixels = try CardPixels(card)
            // A short word: ink at the right edge of the text column, none in its left half.
            let right = metrics.margin + metrics.contentWidth
            #expect(pixels.count(in: band(right - 60, 60), differingFrom: background) > 100)
            #expect(pixels.count(in: band(0, 300), differingFrom: background) == 0)
        }
        // The badge follows the text to the right.
        let withBadge = try CardRenderer.render(CardSamples.spec(headline: "שלום", badge: "עבודה", hero: route), images: [:])
        let badge = try #require(withBadge.layout.texts.first { $0.part == "badge" })
        #expect(badge.box.x > 300)
        // And a left-to-right word the other way round.
        let latin = try CardPixels(CardRenderer.render(CardSamples.spec(headline: "Hello", hero: route), images: [:]))
        #expect(latin.count(in: band(300, 300), differingFrom: background) == 0)
    }
}
