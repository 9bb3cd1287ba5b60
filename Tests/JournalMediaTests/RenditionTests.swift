import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The photo pipeline on the committed samples: sizes, orientation, colour, alpha, vectors.
@Suite struct RenditionTests {
    let processor = AssetProcessor()

    func process(_ name: String, options: ProcessingOptions = ProcessingOptions()) -> AssetResult {
        AssetProcessor(options: options).processBlocking(fileAt: TestSupport.sample(name), displayName: name)
    }

    func rendition(_ result: AssetResult, _ role: String) throws -> Rendition {
        try #require(result.renditions.first { $0.role == role }, "no \(role) rendition")
    }

    @Test func orientationSixIsUprightInEveryRendition() throws {
        let result = process("orientation-6-gps-p3.jpg")
        #expect(result.error == nil)
        #expect(result.orientation == 6)
        #expect(result.width == 600 && result.height == 400, "display size is after orientation")
        let thumbnail = try rendition(result, "thumbnail")
        #expect(thumbnail.format == .webp)
        #expect(thumbnail.width == 512 && thumbnail.height == 341)
        try expectUprightMarkers(try TestImage(thumbnail.data))
        let fallback = try rendition(result, "fallback")
        #expect(fallback.format == .jpeg)
        #expect(fallback.width == 600 && fallback.height == 400, "never upscaled into the 1600 box")
        try expectUprightMarkers(try TestImage(fallback.data))
    }

    @Test func displayP3AndAdobeRGBAreConvertedToSRGB() throws {
        // The markers were drawn in sRGB and converted into each profile's space when the
        // samples were made; converting back must land near the sRGB values, while reading
        // the stored values as if they were sRGB would be visibly off.
        for name in ["orientation-6-gps-p3.jpg", "adobe-rgb-16bit.png"] {
            let result = process(name)
            #expect(result.error == nil, "\(name)")
            let image = try TestImage(try rendition(result, "fallback").data)
            #expect(image.bands == 3)
            try expectUprightMarkers(image, tolerance: 14)
        }
    }

    @Test func sixteenBitPNGBecomesEightBit() throws {
        let result = process("adobe-rgb-16bit.png")
        let image = try TestImage(try rendition(result, "thumbnail").data)
        #expect(image.image.format == VIPS_FORMAT_UCHAR)
        #expect(image.width == 512 && image.height == 341)
    }

    @Test func cmykComesOutSRGBWithPlausibleColours() throws {
        let result = process("cmyk.jpg")
        #expect(result.error == nil)
        let image = try TestImage(try rendition(result, "fallback").data)
        #expect(image.bands == 3)
        #expect(image.image.interpretation == VIPS_INTERPRETATION_sRGB)
        let red = try image.mean(around: 20, 20)
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "red marker stays red: \(red)")
        let sky = try image.mean(around: 300, 100)
        #expect(sky[2] > sky[0] + 60, "sky stays blue: \(sky)")
        let ground = try image.mean(around: 300, 330)
        #expect(ground[1] > ground[2], "ground stays green-brown: \(ground)")
    }

    @Test func heicIsDecodedUprightWithItsColours() throws {
        let result = process("photo.heic")
        #expect(result.error == nil)
        #expect(result.format == .heic)
        try expectUprightMarkers(try TestImage(try rendition(result, "thumbnail").data))
    }

    @Test func realTransparencyKeepsAlphaAndFallsBackToPNG() throws {
        let result = process("alpha-disc.png")
        let fallback = try rendition(result, "fallback")
        #expect(fallback.format == .png)
        let png = try TestImage(fallback.data)
        #expect(png.bands == 4)
        #expect(try png.pixel(2, 2)[3] == 0, "corner stays transparent")
        #expect(try png.pixel(150, 150)[3] == 255, "disc stays opaque")
        let thumbnail = try TestImage(try rendition(result, "thumbnail").data)
        #expect(thumbnail.bands == 4, "WebP thumbnail keeps alpha")
        #expect(thumbnail.width == 300, "300 px source is not upscaled into 512")
    }

    @Test func transparentSourceIsFlattenedOnWhiteOnlyForJPEG() throws {
        let spec = RenditionSpec(role: "flat", format: .jpeg, width: 200)
        let result = process("alpha-disc.png", options: ProcessingOptions(renditions: [spec]))
        let flat = try TestImage(try rendition(result, "flat").data)
        #expect(flat.bands == 3)
        #expect(colour(try flat.pixel(2, 2), isNear: [255, 255, 255], tolerance: 3), "transparent corner is white")
        #expect(colour(try flat.mean(around: 100, 100), isNear: [245, 130, 20], tolerance: 12))
    }

    @Test func svgIsRenderedAtTheTargetSize() throws {
        let result = process("icon.svg")
        #expect(result.error == nil)
        #expect(result.width == 64 && result.height == 48)
        let thumbnail = try rendition(result, "thumbnail")
        #expect(thumbnail.width == 512 && thumbnail.height == 384)
        let fallback = try rendition(result, "fallback")
        #expect(fallback.format == .png, "transparent icon falls back to PNG")
        #expect(fallback.width == 1600 && fallback.height == 1200)
        let image = try TestImage(fallback.data)
        // A crisp edge proves it was rendered, not blown up from 64 px: the flag pole is
        // 3/64 of the width, i.e. 75 px wide at 1600 px, fully opaque in its middle.
        #expect(try image.pixel(31 * 25, 20 * 25)[3] == 255)
        #expect(try image.pixel(2, 2)[3] == 0)
    }

    @Test func pdfFirstPageIsRendered() throws {
        let result = process("icon.pdf")
        #expect(result.error == nil)
        #expect(result.format == .pdf)
        let thumbnail = try rendition(result, "thumbnail")
        #expect(thumbnail.width == 512 && thumbnail.height == 384)
        let image = try TestImage(thumbnail.data)
        // The green track of the icon, rendered on the page's white.
        let track = try image.mean(around: 256, 270)
        #expect(colour(track, isNear: [52, 199, 89], tolerance: 20), "track: \(track)")
    }

    @Test func webpAndGifFirstFrames() throws {
        for name in ["scene.webp", "scene.gif"] {
            let result = process(name)
            #expect(result.error == nil, "\(name)")
            try expectUprightMarkers(try TestImage(try rendition(result, "thumbnail").data), tolerance: 40)
        }
    }

    @Test func aspectRatioIsKeptWithinOnePixel() throws {
        let specs = [
            RenditionSpec(role: "a", format: .jpeg, width: 333, height: 333),
            RenditionSpec(role: "b", format: .webp, width: 97, height: 500),
            RenditionSpec(role: "c", format: .png, width: 1000, height: 7),
        ]
        let result = process("orientation-6-gps-p3.jpg", options: ProcessingOptions(renditions: specs))
        #expect(result.error == nil)
        for r in result.renditions {
            let spec = try #require(specs.first { $0.role == r.role })
            #expect(r.width <= spec.width && r.height <= spec.height, "\(r.role) fits its box")
            #expect(r.width == spec.width || r.height == spec.height, "\(r.role) touches its box")
            let expectedHeight = Double(r.width) * 400 / 600
            #expect(abs(Double(r.height) - expectedHeight) <= 1, "\(r.role): \(r.width)×\(r.height)")
        }
    }

    @Test func coverSpecCropsToTheExactBox() throws {
        let spec = RenditionSpec(role: "cover", format: .webp, width: 256, height: 256, fit: .cover)
        let result = process("photo.heic", options: ProcessingOptions(renditions: [spec] + Defaults.renditions))
        let cover = try rendition(result, "cover")
        #expect(cover.width == 256 && cover.height == 256)
        #expect(try rendition(result, "fallback").width == 600)
    }

    @Test func badInputGivesTypedErrors() throws {
        let cases: [(String, ProcessingStage)] = [
            ("truncated.jpg", .decode), ("not-an-image.jpg", .sniff), ("empty.png", .sniff),
        ]
        for (name, stage) in cases {
            let result = process(name)
            let error = try #require(result.error, "\(name) must fail")
            #expect(error.stage == stage, "\(name): \(error)")
            #expect(error.file == name)
            #expect(!error.message.isEmpty)
            #expect(result.renditions.isEmpty)
        }
        let missing = AssetProcessor().processBlocking(fileAt: TestSupport.sample("no-such-file.jpg"))
        #expect(missing.error?.stage == .read)
    }

    @Test func pixelLimitIsCheckedFromTheHeader() throws {
        let result = process("photo.heic", options: ProcessingOptions(maxPixels: 200_000))
        let error = try #require(result.error)
        #expect(error.stage == .limits)
        #expect(error.message.contains("240000"))
        #expect(result.width == 600, "header was read")
    }

    @Test func processIsAsyncAndSendable() async throws {
        let results = await withTaskGroup(of: AssetResult.self) { group in
            for name in ["photo.heic", "cmyk.jpg", "icon.svg"] {
                group.addTask { await processor.process(fileAt: TestSupport.sample(name)) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 3)
        #expect(results.allSatisfy { $0.error == nil && $0.renditions.count == 2 })
    }
}
