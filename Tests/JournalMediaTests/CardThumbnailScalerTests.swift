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
        var count = 0
        guard let raw = vips_image_write_to_memory(thumbnail.pointer, &count) else {
            throw VipsError(message: VipsRuntime.takeErrorBuffer())
        }
        defer { g_free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: count))
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
}
