import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The PNG encode's fast default (zlib level 2, "up" filter, when a spec names no
/// `compression`): still lossless, and smaller than libvips' level 6 on a photo.
@Suite struct PNGFallbackTests {
    func render(_ decoded: DecodedImage, width: Int, height: Int, compression: Int? = nil) throws -> Rendition {
        var spec = RenditionSpec(role: "fallback", format: .png, width: width, height: height)
        spec.compression = compression
        return try RenditionRenderer.render(decoded, spec: spec, sourceWidth: decoded.image.width,
                                            sourceHeight: decoded.image.height, allowUpscale: false)
    }

    func bytes(_ image: VipsImageHandle) throws -> [UInt8] {
        guard let data = image.pointer.pointee.data else { throw VipsError(message: "image not in memory") }
        return Array(UnsafeBufferPointer(start: data, count: image.width * image.height * image.bands))
    }

    @Test(arguments: ["alpha-disc.png", "orientation-6-gps-p3.jpg"])
    func pngRenditionsStayLosslessWithTheFastDefault(sample: String) throws {
        let source = try TestImage(contentsOf: TestSupport.sample(sample)).image
        let decoded = DecodedImage(image: source, hasRealTransparency: source.hasAlpha)
        let width = source.width / 2, height = source.height / 2
        let rendition = try render(decoded, width: width, height: height)
        #expect(rendition.format == .png && rendition.width == width && rendition.height == height)
        let written = try TestImage(rendition.data).image
        let resized = try #require(try InMemoryResize.resized(source, width: width, height: height))
        #expect(written.bands == source.bands)
        #expect(try bytes(written) == bytes(resized), "the PNG holds exactly the resized pixels")
        // An explicit level is still honoured, and decodes to the same pixels.
        let level9 = try render(decoded, width: width, height: height, compression: 9)
        #expect(try bytes(TestImage(level9.data).image) == bytes(resized))
        #expect(level9.data != rendition.data)
    }

    @Test func thePhotoIsSmallerThanAtLibvipsDefaultLevel() throws {
        let source = try TestImage(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")).image
        let decoded = DecodedImage(image: source, hasRealTransparency: false)
        let fast = try render(decoded, width: source.width, height: source.height)
        let level6 = try render(decoded, width: source.width, height: source.height, compression: 6)
        #expect(fast.data.count < level6.data.count, "\(fast.data.count) B vs \(level6.data.count) B at level 6")
    }
}
