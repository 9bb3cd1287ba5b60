import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The card thumbnails' area-averaging scaler: exact size, flat colour kept exactly, edges
/// averaged over the area each thumbnail pixel covers.
@Suite struct CardThumbnailScalerTests {
    static func scaled(_ rgb: [UInt8], width: Int, height: Int, to size: (Int, Int)) throws -> [UInt8] {
        let card = DecodedImage(image: try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: height),
                                hasRealTransparency: false)
        let thumbnail = try CardThumbnailScaler.scaled(card, width: size.0, height: size.1).image
        #expect(thumbnail.width == size.0 && thumbnail.height == size.1 && thumbnail.bands == 3)
        return try pixels(thumbnail)
    }

    @Test func flatColourStaysExactAtTheCardsThumbnailSize() throws {
        let rgb = [UInt8]((0..<1200 * 1500).lazy.flatMap { _ in [0x12, 0x34, 0x56] as [UInt8] })
        let out = try Self.scaled(rgb, width: 1200, height: 1500, to: (410, 512))
        #expect(out.count == 410 * 512 * 3)
        #expect(stride(from: 0, to: out.count, by: 3).allSatisfy { out[$0] == 0x12 && out[$0 + 1] == 0x34 && out[$0 + 2] == 0x56 })
    }

    @Test func anEdgeIsAveragedOverTheCoveredArea() throws {
        // Black left half, white right half, 300 px → 100 px: one thumbnail pixel per three.
        // A vertical white line one pixel wide at x = 31 shows as a third of white.
        var rgb = [UInt8](repeating: 0, count: 300 * 30 * 3)
        for y in 0..<30 {
            for x in 150..<300 { for c in 0..<3 { rgb[(y * 300 + x) * 3 + c] = 255 } }
            for c in 0..<3 { rgb[(y * 300 + 31) * 3 + c] = 255 }
        }
        let out = try Self.scaled(rgb, width: 300, height: 30, to: (100, 10))
        let row = (0..<100).map { out[(5 * 100 + $0) * 3] }
        #expect(row[0] == 0 && row[49] == 0 && row[50] == 255 && row[99] == 255)
        #expect(row[10] == 85)  // 255 / 3
        #expect(row[9] == 0 && row[11] == 0)
    }

    static func pixels(_ image: VipsImageHandle) throws -> [UInt8] {
        var count = 0
        guard let raw = vips_image_write_to_memory(image.pointer, &count) else {
            throw VipsError(message: VipsRuntime.takeErrorBuffer())
        }
        defer { g_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: count))
    }

    /// Issue 28 (speed): a hero's picture is resized here, not by libvips' resize; it keeps
    /// its aspect inside the box, fills and crops at the centre, and interpolates when it grows.
    @Test func aHeroPictureIsFittedOrCroppedAndInterpolatedWhenItGrows() throws {
        // 60×30: left half black, right half white, a red row at y = 0.
        var rgb = [UInt8](repeating: 0, count: 60 * 30 * 3)
        for y in 0..<30 { for x in 30..<60 { for c in 0..<3 { rgb[(y * 60 + x) * 3 + c] = 255 } } }
        for x in 0..<60 { rgb[x * 3] = 255; rgb[x * 3 + 1] = 0; rgb[x * 3 + 2] = 0 }
        let image = try VipsImageHandle.copyingPackedRGB(rgb, width: 60, height: 30)
        // Fitted inside 240×240: 240×120, four times larger.
        let grown = try #require(try CardPictureScaler.fitted(image, width: 240, height: 240, crop: false))
        #expect(grown.width == 240 && grown.height == 120)
        let big = try Self.pixels(grown)
        let row = (0..<240).map { big[(60 * 240 + $0) * 3] }
        #expect(row[0] == 0 && row[110] == 0 && row[130] == 255 && row[239] == 255)
        // The edge is interpolated over about one source pixel (four here), not stepped.
        #expect(row[118..<122].allSatisfy { $0 > 0 && $0 < 255 }, "\(Array(row[114..<126]))")
        #expect(big[0] == 255 && big[1] == 0, "the red top row stays at the top")
        // Filled and cropped to a 30×30 square: the centre of the picture, its halves either side.
        let square = try #require(try CardPictureScaler.fitted(image, width: 30, height: 30, crop: true))
        #expect(square.width == 30 && square.height == 30)
        let small = try Self.pixels(square)
        #expect(small[(15 * 30 + 2) * 3] == 0 && small[(15 * 30 + 27) * 3] == 255)
        // Shrunk: flat colour stays exact.
        let flat = try VipsImageHandle.copyingPackedRGB([UInt8]((0..<90 * 70).lazy.flatMap { _ in [7, 99, 201] as [UInt8] }),
                                                        width: 90, height: 70)
        let shrunk = try Self.pixels(try #require(try CardPictureScaler.fitted(flat, width: 40, height: 40, crop: false)))
        #expect(shrunk.count == 40 * 31 * 3)
        #expect(stride(from: 0, to: shrunk.count, by: 3).allSatisfy { shrunk[$0] == 7 && shrunk[$0 + 1] == 99 && shrunk[$0 + 2] == 201 })
    }
}
