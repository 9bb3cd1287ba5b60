import Foundation
import Testing
import JournalMedia

/// Kinds of input file registered at run time: a consumer's own `FileSource`, written with
/// the public API only, reads a format the toolkit does not, through the shared rendition
/// step, without changing what the built-in kinds read.
@Suite struct SourceRegistryTests {
    /// A consumer's format: the text `FLAT <hex colour> <width>x<height>`, a flat picture.
    struct FlatFileSource: FileSource {
        let text: String
        let name: String

        static func accepts(_ probe: ProbedAsset) -> Bool { probe.name.hasSuffix(".flat") }

        init(probe: ProbedAsset, content: SourceFile) {
            text = String(decoding: content.bytes, as: UTF8.self)
            name = probe.name
        }

        func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
            let words = text.split(whereSeparator: \.isWhitespace)
            let size = words.count == 3 ? words[2].split(separator: "x").compactMap { Int($0) } : []
            guard words.first == "FLAT", size.count == 2, let rgb = UInt32(words[1].dropFirst(), radix: 16) else {
                throw AssetError(file: name, stage: .decode, reason: .corrupt, message: "not a FLAT file")
            }
            let box = plan.box(width: size[0], height: size[1], upscale: false)
            let pixel = [UInt8(truncatingIfNeeded: rgb >> 16), UInt8(truncatingIfNeeded: rgb >> 8), UInt8(truncatingIfNeeded: rgb)]
            let pixels = [UInt8]((0..<box.width * box.height).flatMap { _ in pixel })
            result.kind = .photo
            result.width = size[0]
            result.height = size[1]
            return SourceImage(decoded: try DecodedImage.packedRGB(pixels, width: box.width, height: box.height, file: name),
                               width: size[0], height: size[1], upscale: false)
        }
    }

    static let flat = Array("FLAT #C8285A 800x600\n".utf8)

    @Test func aRegisteredSourceReadsItsFormat() async throws {
        var sources = SourceRegistry.builtIn
        sources.register(FlatFileSource.self)
        #expect(sources.fileSources.count == SourceRegistry.builtIn.fileSources.count + 1)
        let processor = AssetProcessor(sources: sources)
        let result = await processor.process(data: Self.flat, filename: "swatch.flat")
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback"])
        #expect(result.renditions.map(\.width) == [512, 800], "never enlarged")
        #expect(result.width == 800 && result.height == 600)
        #expect(result.colors?.average == "#C8285A")
    }

    @Test func theBuiltInListDoesNotReadIt() async throws {
        let result = await AssetProcessor().process(data: Self.flat, filename: "swatch.flat")
        #expect(result.error?.stage == .sniff)
        #expect(result.renditions.isEmpty)
    }

    @Test func theBuiltInKindsStillReadTheirFormats() async throws {
        var sources = SourceRegistry.builtIn
        sources.register(FlatFileSource.self)
        let url = TestSupport.sample("orientation-8-srgb.jpg")
        let result = await AssetProcessor(sources: sources).process(fileAt: url)
        #expect(result.error == nil)
        #expect(result.kind == .photo)
    }
}
