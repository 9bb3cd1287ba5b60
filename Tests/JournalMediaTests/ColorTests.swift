import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

@Suite struct ForegroundTests {
    func hex(_ s: String) throws -> RGBColor { try RGBColor.parse(s) }

    @Test(arguments: [
        // Saturated blues, oranges and greens: naive luminance and WCAG-only rules pick black here.
        ("#2196F3", "#FFFFFF"), ("#0A84FF", "#FFFFFF"), ("#FF5722", "#FFFFFF"), ("#F57C00", "#FFFFFF"),
        ("#4CAF50", "#FFFFFF"),
        // Greys, near-black and near-white.
        ("#FFFFFF", "#000000"), ("#EEEEEE", "#000000"), ("#BBBBBB", "#000000"), ("#777777", "#FFFFFF"),
        ("#333333", "#FFFFFF"), ("#111111", "#FFFFFF"), ("#000000", "#FFFFFF"),
        // Primaries and secondaries.
        ("#FF0000", "#FFFFFF"), ("#00FF00", "#000000"), ("#0000FF", "#FFFFFF"), ("#FFFF00", "#000000"),
        ("#00FFFF", "#000000"), ("#FF00FF", "#FFFFFF"),
    ])
    func foregroundIsChosenByAPCA(background: String, expected: String) throws {
        let choice = ForegroundChooser.choose(for: try hex(background))
        #expect(choice.foreground == expected, "\(background): \(choice)")
        #expect(choice.rule == "apca")
    }

    @Test func naiveRulesReallyDisagreeOnThePinnedCases() throws {
        // The pinned cases are the interesting ones: WCAG alone prefers black on all of them.
        for bg in ["#2196F3", "#0A84FF", "#FF5722", "#F57C00", "#4CAF50"] {
            let c = try hex(bg)
            #expect(Contrast.wcagRatio(.black, c) > Contrast.wcagRatio(.white, c), "\(bg)")
        }
    }

    @Test func publishedContrastValues() throws {
        #expect(abs(Contrast.wcagRatio(try hex("#777777"), .white) - 4.48) < 0.005)
        #expect(abs(Contrast.wcagRatio(.black, .white) - 21) < 1e-9)
        // APCA's published extremes: black on white Lc 106.04, white on black Lc −107.88.
        #expect(abs(Contrast.apcaLc(text: .black, background: .white) - 106.04) < 0.01)
        #expect(abs(Contrast.apcaLc(text: .white, background: .black) + 107.88) < 0.01)
        let blue = ForegroundChooser.choose(for: try hex("#0A84FF"))
        #expect(blue.wcagRatio == 3.65)
        // The APCA 0.1.9 constants give −68.75 here (the issue's example shows −68.9).
        #expect(blue.apcaLc == -68.8)
        #expect(blue.accessibleForeground == nil)
    }

    @Test func accessibleForegroundWhenNeitherBlackNorWhiteReaches60() throws {
        let orange = try hex("#F57C00")
        let choice = ForegroundChooser.choose(for: orange)
        #expect(abs(choice.apcaLc) < 60)
        let tinted = try #require(choice.accessibleForeground)
        let color = try hex(tinted.color)
        #expect(Contrast.wcagRatio(color, orange) >= 4.5)
        #expect(tinted.target == "wcag4.5")
        // Same hue family: the tint keeps the background's OKLab hue within a few degrees.
        let dh = abs(OKLab(color).hue - OKLab(orange).hue)
        #expect(min(dh, 2 * .pi - dh) < 0.15)
        #expect(color != .black && color != .white)
    }

    @Test func parsing() throws {
        #expect(try RGBColor.parse("#abc").hex == "#AABBCC")
        #expect(try RGBColor.parse("0A84FF").hex == "#0A84FF")
        #expect(try RGBColor.parse(" 10, 132,255 ").hex == "#0A84FF")
        #expect(try RGBColor.parse("#00000080").hex == "#7F7F7F", "50 % black over white")
        #expect(try RGBColor.parse("#FFFFFF80", over: .black).hex == "#808080")
        for bad in ["", "#12", "#GGGGGG", "1,2", "1,2,256", "red", "#1234567"] {
            #expect(throws: ColorParseError.self, "\(bad)") { try RGBColor.parse(bad) }
        }
    }

    @Test func colorCommandPrintsJSONAndRefusesBadValues() throws {
        let run = try TestSupport.runCLI(["color", "#0A84FF", "255,255,255"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.first == ##"{"background":"#0A84FF","foreground":"#FFFFFF","wcagRatio":3.65,"apcaLc":-68.8,"rule":"apca"}"##)
        #expect(lines.count == 2)
        let bad = try TestSupport.runCLI(["color", "#0A84FF", "blurple"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("blurple"))
    }
}

/// Synthetic images with known content.
@Suite struct ImageColorTests {
    /// RGBA pixels from a function of (x, y).
    static func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for y in 0..<h { for x in 0..<w { let p = pixel(x, y); out += [p.0, p.1, p.2, p.3] } }
        return out
    }

    @Test func flatColour() throws {
        let rgba = Self.image(80, 60) { _, _ in (30, 120, 200, 255) }
        let info = ImageColorAnalyzer.analyze(width: 80, height: 60, rgba: rgba)
        #expect(info.average == "#1E78C8")
        #expect(info.dominant.count == 1)
        let only = try #require(info.dominant.first)
        #expect(only.share == 1)
        #expect(colour(try hexBytes(only.color), isNear: [30, 120, 200], tolerance: 3))
    }

    @Test func twoHalvesInAGivenProportion() throws {
        // 70 % orange, 30 % teal.
        let rgba = Self.image(100, 50) { x, _ in x < 70 ? (240, 140, 20, 255) : (20, 160, 150, 255) }
        let info = ImageColorAnalyzer.analyze(width: 100, height: 50, rgba: rgba)
        #expect(info.dominant.count == 2)
        #expect(abs(info.dominant[0].share - 0.7) < 0.01)
        #expect(abs(info.dominant[1].share - 0.3) < 0.01)
        #expect(colour(try hexBytes(info.dominant[0].color), isNear: [240, 140, 20], tolerance: 4))
        // The average is taken in linear light: brighter than the plain mean of the codes.
        let average = try hexBytes(info.average)
        #expect(average[0] > 0.7 * 240 + 0.3 * 20)
    }

    @Test func colourfulSeedWinsOverAFrequentGrey() throws {
        // A red flower (about 12 % of the pixels) on a large grey ground.
        let rgba = Self.image(100, 100) { x, y in
            let dx = x - 50, dy = y - 50
            if dx * dx + dy * dy < 380 { return (215, 30, 45, 255) }
            let n = UInt8(120 + (x * 7 + y * 13) % 9)
            return (n, n, n, 255)
        }
        let info = ImageColorAnalyzer.analyze(width: 100, height: 100, rgba: rgba)
        let seed = try hexBytes(try #require(info.dominant.first).color)
        #expect(colour(seed, isNear: [215, 30, 45], tolerance: 12), "seed \(seed)")
        #expect(info.dominant.count >= 2)
        let greyShare = info.dominant.dropFirst().map(\.share).reduce(0, +)
        #expect(greyShare > info.dominant[0].share, "grey is more frequent, yet ranked after red")
        // Cards take the red hue, and their foregrounds meet |Lc| 60.
        for card in [info.card.light, info.card.dark] {
            let bg = try RGBColor.parse(card.background), fg = try RGBColor.parse(card.foreground)
            #expect(abs(Contrast.apcaLc(text: fg, background: bg)) >= 60, "\(card)")
            #expect(bg.red > bg.blue, "\(card.background) leans red")
        }
        #expect(info.card.light.foreground == "#000000" && info.card.dark.foreground == "#FFFFFF")
    }

    @Test func transparentPixelsAreIgnored() throws {
        let rgba = Self.image(40, 40) { x, _ in x < 20 ? (0, 0, 0, 0) : (10, 200, 60, 255) }
        let info = ImageColorAnalyzer.analyze(width: 40, height: 40, rgba: rgba)
        #expect(info.average == "#0AC83C")
        #expect(info.dominant.count == 1)
    }
}

@Suite struct ThumbHashTests {
    func averageColour(_ rgba: [UInt8]) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        let n = rgba.count / 4
        for i in 0..<n { for c in 0..<3 { sums[c] += Double(rgba[i * 4 + c]) } }
        return sums.map { $0 / Double(n) }
    }

    @Test func roundTripKeepsAverageColourAndAspect() throws {
        let w = 100, h = 60
        let rgba = ImageColorTests.image(w, h) { x, y in
            (UInt8(40 + x * 2), UInt8(200 - y * 2), UInt8(90 + (x + y) % 40), 255)
        }
        let hash = try #require(ThumbHash.encode(width: w, height: h, rgba: rgba))
        #expect(hash.count <= 25)
        #expect(hash[2] & 0x80 == 0, "no alpha flag for an opaque image")
        let decoded = try #require(ThumbHash.decode(hash))
        #expect(decoded.width == 32)
        #expect(abs(Double(decoded.width) / Double(decoded.height) - Double(w) / Double(h)) < 0.25)
        #expect(colour(averageColour(decoded.rgba), isNear: averageColour(rgba), tolerance: 8))
    }

    @Test func alphaIsEncoded() throws {
        let rgba = ImageColorTests.image(50, 50) { x, _ in x < 25 ? (255, 0, 0, 0) : (0, 0, 255, 255) }
        let hash = try #require(ThumbHash.encode(width: 50, height: 50, rgba: rgba))
        #expect(hash[2] & 0x80 != 0)
        let decoded = try #require(ThumbHash.decode(hash))
        // A hard step through a few low-frequency terms comes back as a soft ramp.
        let left = Int(decoded.rgba[3]), right = Int(decoded.rgba[(decoded.width - 1) * 4 + 3])
        #expect(left < 128 && right > 200 && right - left > 100, "alpha ramps from \(left) to \(right)")
        #expect(ThumbHash.encode(width: 101, height: 10, rgba: [UInt8](repeating: 0, count: 4040)) == nil)
    }

    @Test func assetsGetColoursAndAPlaceholder() throws {
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("orientation-6-gps-p3.jpg"))
        let colors = try #require(result.colors)
        #expect(!colors.dominant.isEmpty && colors.dominant.count <= 5)
        let placeholder = try #require(result.placeholder)
        let hash = Array(try #require(Data(base64Encoded: placeholder.thumbhash)))
        let decoded = try #require(ThumbHash.decode(hash))
        #expect(decoded.width > decoded.height, "landscape after orientation")
        // The placeholder's average is close to the asset's (its average over display pixels).
        let thumbnail = try TestImage(try #require(result.renditions.first).data)
        let assetAverage = try thumbnail.image.averagePerBand()
        #expect(colour(averageColour(decoded.rgba), isNear: assetAverage, tolerance: 12),
                "\(averageColour(decoded.rgba)) vs \(assetAverage)")
    }
}

/// `#RRGGBB` → [r, g, b].
func hexBytes(_ hex: String) throws -> [Double] {
    let c = try RGBColor.parse(hex)
    let (r, g, b) = c.bytes
    return [Double(r), Double(g), Double(b)]
}
