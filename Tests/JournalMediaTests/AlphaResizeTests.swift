import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Resizing an image with transparency (`InMemoryResize`, every rendition's resize): colour is
/// weighted by alpha, so the colour of transparent pixels does not show at a visible edge.
@Suite struct AlphaResizeTests {
    /// Samples/alpha-edge.png: opaque white beside transparent black. Its 512-style thumbnail
    /// (half size, Lanczos-3) must stay white wherever any of it shows; before, the edge
    /// column came out grey (a dark fringe around a sticker on a light page).
    @Test func transparentBlackDoesNotDarkenAWhiteEdge() throws {
        let source = try TestImage(contentsOf: TestSupport.sample("alpha-edge.png")).image
        let decoded = DecodedImage(image: source, hasRealTransparency: true)
        let spec = RenditionSpec(role: "thumbnail", format: .png, width: 64, height: 32)
        let rendition = try RenditionRenderer.render(decoded, spec: spec, sourceWidth: source.width,
                                                     sourceHeight: source.height, allowUpscale: false)
        let image = try TestImage(rendition.data).image
        #expect(image.width == 64 && image.height == 32 && image.bands == 4)
        let data = try #require(image.pointer.pointee.data)
        var visible = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = data + (y * image.width + x) * 4
                guard pixel[3] > 0 else { continue }
                visible += 1
                #expect(pixel[0] >= 250 && pixel[1] >= 250 && pixel[2] >= 250,
                        "(\(x), \(y)) is (\(pixel[0]), \(pixel[1]), \(pixel[2])) at alpha \(pixel[3])")
            }
        }
        // The white half and the partly transparent edge columns.
        #expect(visible > 32 * 32)
        // The edge is still soft: some pixel is partly transparent.
        #expect((0..<(64 * 32)).contains { data[$0 * 4 + 3] > 0 && data[$0 * 4 + 3] < 255 })
    }

    /// Grey with alpha (2 bands) is premultiplied too.
    @Test func greyWithAlphaKeepsItsEdge() throws {
        let rgba = try TestImage(contentsOf: TestSupport.sample("alpha-edge.png")).image
        let grey = try VipsOperationCall("colourspace")
        try grey.set("in", .image(rgba))
        try grey.set("space", .nick("b-w"))
        try grey.build()
        let greyAlpha = try TestImage(castToUchar: try grey.outputImage()).image
        #expect(greyAlpha.bands == 2 && greyAlpha.hasAlpha)
        let resized = try #require(try InMemoryResize.resized(greyAlpha, width: 64, height: 32))
        let data = try #require(resized.pointer.pointee.data)
        for i in 0..<(64 * 32) where data[i * 2 + 1] > 0 {
            #expect(data[i * 2] >= 250, "grey \(data[i * 2]) at alpha \(data[i * 2 + 1])")
        }
    }
}
