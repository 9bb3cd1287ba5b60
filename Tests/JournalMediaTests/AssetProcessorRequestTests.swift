import Foundation
import Testing
@testable import JournalMedia
import JournalMediaCore
@testable import JournalMediaImaging

/// Decode, then render: a source returns what it decoded and the renditions it made for less
/// itself (`SourceImage.premade`); `RenditionStep` alone orders and makes the renditions;
/// every processor entry point is one `AssetRequest`.
@Suite struct AssetProcessorRequestTests {
    /// A flat grey picture whose source also makes the `fallback` itself (marker bytes no
    /// encoder writes) and an attachment no spec asks for.
    struct PremadeSource: ImageSource {
        static let marker: [UInt8] = [0x4A, 0x4D, 0x21]

        func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
            let box = plan.box(width: 800, height: 600, upscale: false)
            let pixels = [UInt8](repeating: 128, count: box.width * box.height * 3)
            let decoded = try DecodedImage.packedRGB(pixels, width: box.width, height: box.height, file: result.source)
            return SourceImage(decoded: decoded, width: 800, height: 600, upscale: false, premade: [
                Rendition(role: "extra", format: .mp4, width: 800, height: 600, data: [0]),
                Rendition(role: "fallback", format: .jpeg, width: 800, height: 600, data: Self.marker),
            ])
        }
    }

    @Test func aSourcesPremadeRenditionIsUsedAndNotMadeAgain() {
        let result = AssetProcessor().process(PremadeSource(), name: "grey")
        #expect(result.error == nil, "\(String(describing: result.error))")
        // In the specs' order, the pre-made one in its spec's place, the one without a spec last.
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback", "extra"])
        #expect(result.renditions.filter { $0.role == "fallback" }.count == 1)
        #expect(result.renditions.first { $0.role == "fallback" }?.data == PremadeSource.marker)
        #expect(result.renditions.first?.format == .webp, "the thumbnail is made from the pixels")
    }

    /// `RenditionStep` is the one place that orders: renditions already in the result (as
    /// sources made them before `premade`) take their spec's place. Before, the step
    /// appended after them and only `AssetProcessor` re-sorted.
    @Test func theRenditionStepOrdersWhatWasMadeBeforeIt() throws {
        let grey = try DecodedImage.packedRGB([UInt8](repeating: 90, count: 64 * 48 * 3), width: 64, height: 48, file: "grey")
        var result = AssetResult(source: "grey")
        result.renditions = [Rendition(role: "fallback", format: .jpeg, width: 64, height: 48, data: PremadeSource.marker)]
        try RenditionStep.run(SourceImage(decoded: grey, width: 64, height: 48, upscale: false),
                              specs: Defaults.renditions, analyzeColors: false, name: "grey", into: &result)
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback"])
        #expect(result.renditions[1].data == PremadeSource.marker)
    }

    /// A JPEG that is its own fallback (`JPEGFallbackReuse`) is pre-made, and the decode then
    /// reaches only the thumbnail's size; a request that keeps the pixels (a card draws
    /// them) still gets them at the fallback's size, and the renditions do not change.
    @Test func aReusedJPEGKeepsItsBytesAndThePixelsReachItsSize() throws {
        let url = TestSupport.sample("jpeg-reuse/in-box-gps.jpg")
        // A thumbnail smaller than the 480 px photo, so the decode for it is smaller too.
        let processor = AssetProcessor(options: ProcessingOptions(renditions: [
            RenditionSpec(role: "thumbnail", format: .webp, width: 128), Defaults.renditions[1]]))
        let plain = processor.run(AssetRequest(.file(url, displayName: nil)))
        var request = AssetRequest(.file(url, displayName: nil))
        request.keepsPixels = true
        let kept = processor.run(request)
        #expect(plain.pixels == nil, "pixels only when asked for")
        #expect(kept.result.error == nil && kept.result.renditions == plain.result.renditions)
        let fallback = try #require(kept.result.renditions.first { $0.role == "fallback" })
        let original = try [UInt8](Data(contentsOf: url))
        #expect(fallback.data.count < original.count && fallback.width == kept.result.width,
                "the fallback is the source's own picture, metadata left out")
        let pixels = try #require(kept.pixels)
        #expect(pixels.image.width == fallback.width && pixels.image.height == fallback.height)
    }

    /// Every public entry point is a request run by `run(_:)`: same results.
    @Test func theEntryPointsAreOneRequest() async throws {
        let url = TestSupport.sample("orientation-8-srgb.jpg")
        let processor = AssetProcessor()
        let blocking = processor.processBlocking(fileAt: url)
        let request = processor.run(AssetRequest(.file(url, displayName: nil))).result
        #expect(blocking == request)
        let bytes = try [UInt8](Data(contentsOf: url))
        let data = await processor.process(data: bytes, filename: "o.jpg", modified: 5)
        let asked = await processor.process(AssetRequest(.bytes(bytes, name: "o.jpg", modified: 5, sha256: nil)))
        #expect(data == asked && data.error == nil)
        #expect(data.renditions == blocking.renditions)
    }

    /// `format` is what the probe found, carried as is; an entry read back from its JSON
    /// (which has only `mediaType`) still answers it.
    @Test func theFormatIsCarriedAsFound() throws {
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("orientation-8-srgb.jpg"))
        #expect(result.format == .jpeg && result.mediaType == "image/jpeg")
        let decoded = try JSONDecoder().decode(AssetResult.self, from: JSONEncoder().encode(result))
        #expect(decoded.format == .jpeg)
        var changed = result
        changed.mediaType = "image/png"
        #expect(changed.format == .png, "mediaType set alone wins")
    }
}
