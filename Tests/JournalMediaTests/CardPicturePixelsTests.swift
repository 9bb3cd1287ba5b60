import CVips
import Foundation
import Testing
@testable import JournalMedia
import JournalMediaCore
@testable import JournalMediaImaging

/// A card draws an item's picture from the pixels the picture's renditions were made from,
/// not from one of those renditions encoded (a JPEG for an opaque picture) and decoded again.
@Suite struct CardPicturePixelsTests {
    /// Bytes, size and band count of an image, read back from libvips.
    struct Pixels {
        let width: Int, height: Int, bands: Int
        let bytes: [UInt8]

        init(_ image: VipsImageHandle) throws {
            var size = 0
            guard let raw = vips_image_write_to_memory(image.pointer, &size) else {
                throw VipsError(message: VipsRuntime.takeErrorBuffer())
            }
            defer { g_free(raw) }
            (width, height, bands) = (image.width, image.height, image.bands)
            bytes = Array(UnsafeRawBufferPointer(start: raw, count: size))
        }

        /// A lossless file (PNG) decoded at its own size.
        init(file bytes: [UInt8], width: Int, height: Int) throws {
            let decoded = try #require(try ItemWork.decodeRendition(bytes, width: width, height: height, name: "png",
                                                                     maxPixels: Defaults.maxPixels))
            try self.init(decoded.image)
        }
    }

    /// The opaque 800×600 map picture of the samples, as an unknown item's `fallbackImage`:
    /// its fallback rendition is a JPEG (quality 85), which the card was drawn from before.
    /// Now the card's picture area is exactly the decoded PNG scaled to the picture's box by
    /// the card's own scaler (`CardPictureScaler`), corners (rounded) left out.
    @Test func aCardsPictureIsTheDecodedPixelsResized() throws {
        let folder = try TestSupport.temporaryFolder("card-pixels")
        let input = folder.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("files"), withIntermediateDirectories: true)
        let map = TestSupport.sample("suggestions/morning-run/files/map.png")
        try FileManager.default.copyItem(at: map, to: input.appendingPathComponent("files/map.png"))
        let bundle = input.appendingPathComponent("suggestion.json")
        try Data(#"{"schemaVersion":1,"bundleId":"pixels","locale":"en_US","timeZone":"UTC","suggestion":{"title":"T","items":[{"id":"u","type":"somethingNew","fallbackImage":"files/map.png"}]}}"#.utf8)
            .write(to: bundle)
        let output = try SuggestionProcessor().process(bundleAt: bundle, output: folder.appendingPathComponent("out"))
        let item = try #require(output.items.first)
        #expect(item.error == nil)
        #expect(item.pictures.first?.renditions.first { $0.role == "fallback" }?.format == .jpeg,
                "the picture's largest rendition is a lossy JPEG")
        let drawing = try #require(item.cards.first { $0.role == "fallback" })
        let hero = try #require(drawing.layout.hero)
        let rendition = try #require(item.renditions.first { $0.role == "fallback" })
        let cardFile = try [UInt8](Data(contentsOf: folder.appendingPathComponent("out/pixels").appendingPathComponent(rendition.path)))
        let card = try Pixels(file: cardFile, width: rendition.width, height: rendition.height)

        let source = try [UInt8](Data(contentsOf: map))
        let decoded = try #require(try ItemWork.decodeRendition(source, width: 800, height: 600, name: "map",
                                                                 maxPixels: Defaults.maxPixels))
        let scaled = try #require(try CardPictureScaler.fitted(decoded.image, width: hero.width, height: hero.height,
                                                                crop: false))
        let expected = try Pixels(scaled)
        #expect(expected.width == hero.width && expected.height == hero.height)
        // Inside the rounded corners (radius 32 px at the design size, scaled).
        let inset = 80
        var largest = 0, total = 0, count = 0
        for y in inset..<(hero.height - inset) {
            for x in inset..<(hero.width - inset) {
                for c in 0..<3 {
                    let drawn = Int(card.bytes[((hero.y + y) * card.width + hero.x + x) * card.bands + c])
                    let wanted = Int(expected.bytes[(y * expected.width + x) * expected.bands + c])
                    largest = max(largest, abs(drawn - wanted))
                    total += abs(drawn - wanted)
                    count += 1
                }
            }
        }
        #expect(count > 100_000)
        // Before, from the JPEG fallback decoded again: differences of many levels at the
        // map's edges and lines.
        #expect(largest <= 1, "largest difference \(largest), mean \(Double(total) / Double(max(1, count)))")
    }
}
