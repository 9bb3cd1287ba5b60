import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 17's remaining still formats, which libvips 8.14 reads and the sniffer refused:
/// JPEG 2000, Netpbm (PPM), and the linear-light float formats PFM, OpenEXR and Radiance HDR,
/// shown through `LinearLightExposure`. Samples in Samples/formats/ (Tests/SampleMaker/
/// make-samples.sh, linear_light.py): the linear ones hold a 0.18 mid-grey ground, a red
/// marker top-left and a 6.0 highlight bottom-right; absolute.hdr is the same ×100.
@Suite struct MoreStillFormatTests {
    static func formats(_ name: String) -> URL { TestSupport.sample("formats/" + name) }

    let processor = AssetProcessor(options: ProcessingOptions(
        renditions: [RenditionSpec(role: "image", format: .png, width: 1024)], analyzeColors: false))

    func converted(_ name: String) async throws -> (AssetResult, TestImage) {
        let result = await processor.process(fileAt: Self.formats(name))
        #expect(result.error == nil, "\(name): \(result.error?.description ?? "")")
        return (result, try TestImage(try #require(result.renditions.first).data))
    }

    @Test func sniffsEachByContentAndRefusesLookalikes() throws {
        let expected: [String: SourceFormat] = [
            "scene.jp2": .jp2, "scene.ppm": .pnm, "linear.pfm": .pfm, "linear.exr": .exr, "absolute.hdr": .hdr,
        ]
        for (name, format) in expected {
            #expect(ProbedAsset.open(Self.formats(name)).format == format, "\(name)")
        }
        // A bare JPEG 2000 codestream (SOC, SIZ).
        #expect(FormatSniffer.sniff([0xFF, 0x4F, 0xFF, 0x51, 0x00, 0x2F]) == .jp2)
        // Text starting like a Netpbm magic is not one unless the whole header parses.
        #expect(FormatSniffer.sniff(Array("P6 is the name of my playlist\n".utf8)) == nil)
        #expect(FormatSniffer.sniff(Array("PF\nnot numbers\n".utf8)) == nil)
        #expect(FormatSniffer.sniff(Array("P5\n# a comment\n3 2\n65535\n".utf8) + [UInt8](repeating: 0, count: 12)) == .pnm)
    }

    @Test func netpbmHeadersGiveTheRasterSize() throws {
        let grey16 = try #require(PortableAnymapHeader(Array("P5 # wide\n640 480\n65535\n".utf8)))
        #expect(grey16.width == 640 && grey16.height == 480 && grey16.rasterBytes == 640 * 480 * 2)
        let bitmap = try #require(PortableAnymapHeader(Array("P4\n9 2\n".utf8)))
        #expect(bitmap.rasterBytes == 4 && bitmap.dataOffset == 7)
        let floats = try #require(PortableAnymapHeader(Array("Pf\n4 4\n-1.0\n".utf8)))
        #expect(floats.isFloat && floats.rasterBytes == 64)
        #expect(PortableAnymapHeader(Array("P6\n0 10\n255\n".utf8)) == nil, "zero width")
        #expect(PortableAnymapHeader(Array("P3\n4 4\n70000\n".utf8)) == nil, "maximum over 65535")
    }

    /// The SIZ segment, from a JP2 file (`jp2c` box) and from a bare codestream.
    @Test func jpeg2000SizeReadsTheComponentGrid() throws {
        let scene = try [UInt8](Data(contentsOf: Self.formats("scene.jp2")))
        let size = try #require(JPEG2000Size(MemoryBytes(bytes: scene)))
        #expect(size.width == 240 && size.height == 160)
        #expect(size.components == Array(repeating: JPEG2000Size.Component(bits: 8, signed: false, dx: 1, dy: 1), count: 3))
        #expect(!size.firstComponentIsSubsampled)
        // opj_compress -s 2,2: one grey component at half the reference grid (191×127 → 96×64).
        let subsampled = try [UInt8](Data(contentsOf: TestSupport.sample("limits/grey-subsampled.jp2")))
        let grey = try #require(JPEG2000Size(MemoryBytes(bytes: subsampled)))
        #expect(grey.width == 191 && grey.height == 127)
        #expect(grey.components == [JPEG2000Size.Component(bits: 8, signed: false, dx: 2, dy: 2)])
        #expect(grey.firstComponentIsSubsampled)
        // The same codestream without the JP2 boxes.
        let codestream = try #require(subsampled.firstRange(of: [0xFF, 0x4F, 0xFF, 0x51]))
        #expect(JPEG2000Size(MemoryBytes(bytes: Array(subsampled[codestream.lowerBound...]))) == grey)
        // A file cut after its SIZ (its `jp2c` box now declares more than the file holds, as
        // in damaged files the decoder still reads) keeps its grid.
        #expect(JPEG2000Size(MemoryBytes(bytes: Array(subsampled[..<(codestream.lowerBound + 60)]))) == grey)
        // A SIZ cut short is no answer, not a wrong one.
        #expect(JPEG2000Size(MemoryBytes(bytes: Array(subsampled[..<(codestream.lowerBound + 30)]))) == nil)
    }

    /// libvips 8.14 decodes a JPEG 2000 whose first component is subsampled to wrong pixels,
    /// read past the component's buffer (valgrind: "Invalid read … 0 bytes after a block"),
    /// different on every run: such a file is refused with a typed error instead.
    @Test func aJPEG2000WithASubsampledFirstComponentIsRefused() async throws {
        let result = await processor.process(fileAt: TestSupport.sample("limits/grey-subsampled.jp2"))
        let error = try #require(result.error)
        #expect(error.stage == .decode && error.reason == .unsupportedFormat)
        #expect(error.message.contains("first component is subsampled 2×2"), "\(error.message)")
        #expect(result.renditions.isEmpty)
        // Subsampled chroma behind a full-size first component is the usual layout and
        // converts: scene.jp2 made 4:2:0 by OpenJPEG (libvips' jp2ksave, subsample mode on).
        let chroma420 = try CraftedFiles.reencoded([UInt8](Data(contentsOf: Self.formats("scene.jp2"))),
                                                   loader: "jp2kload_buffer", saver: "jp2ksave_buffer",
                                                   options: [("subsample_mode", .nick("on"))])
        let layout = try #require(JPEG2000Size(MemoryBytes(bytes: chroma420)))
        #expect(layout.components.map { [$0.dx, $0.dy] } == [[1, 1], [2, 2], [2, 2]])
        let converted = await processor.process(data: chroma420, filename: "scene-420.jp2")
        #expect(converted.error == nil, "\(converted.error?.description ?? "")")
        let image = try TestImage(try #require(converted.renditions.first).data)
        let red = try image.pixel(1, 1)
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
    }

    @Test(arguments: [("scene.jp2", "image/jp2", 240, 160), ("scene.ppm", "image/x-portable-anymap", 96, 64)])
    func jpeg2000AndNetpbmConvertUpright(name: String, mediaType: String, width: Int, height: Int) async throws {
        let (result, image) = try await converted(name)
        #expect(result.mediaType == mediaType && result.width == width && result.height == height)
        #expect(image.width == width && image.height == height)
        // The scene's red marker top-left and blue marker top-right (in the 96×64 scene the
        // 60-pixel markers overlap: the first rows are still red and blue).
        let red = try image.pixel(1, 1)
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
        let blue = try image.pixel(width - 2, 1)
        #expect(blue[2] > 180 && blue[0] < 90, "\(blue)")
    }

    /// Mid-grey 0.18 stays mid-grey (sRGB 118), the 6.0 highlight rolls off to near white, the
    /// red marker is red and top-left (a PFM stores its rows bottom-up).
    @Test(arguments: ["linear.pfm", "linear.exr"])
    func linearLightFilesShowMidGreyAndHighlights(name: String) async throws {
        let (result, image) = try await converted(name)
        #expect(result.width == 48 && result.height == 32 && image.width == 48 && image.height == 32)
        let grey = try image.mean(around: 24, 16, size: 3)
        #expect(grey.allSatisfy { (108...128).contains($0) }, "\(grey)")
        let highlight = try image.mean(around: 44, 28, size: 3)
        #expect(highlight.allSatisfy { $0 > 240 }, "\(highlight)")
        let red = try image.mean(around: 3, 3, size: 3)
        #expect(red[0] > 170 && red[1] < 70 && red[2] < 70, "\(red)")
    }

    /// A Radiance file in absolute units (mid-grey at 18.0): exposed down, not white.
    @Test func radianceInAbsoluteUnitsIsExposedForDisplay() async throws {
        let (result, image) = try await converted("absolute.hdr")
        #expect(result.mediaType == "image/vnd.radiance" && result.width == 48 && result.height == 32)
        let grey = try image.mean(around: 24, 16, size: 3)
        #expect(grey.allSatisfy { (100...190).contains($0) }, "\(grey)")
        let highlight = try image.mean(around: 44, 28, size: 3)
        #expect(highlight.allSatisfy { $0 > 235 } && highlight[0] > grey[0] + 40, "\(highlight) vs \(grey)")
        let red = try image.mean(around: 3, 3, size: 3)
        #expect(red[0] > 170 && red[1] < 90, "\(red)")
    }

    @Test func exposureAndRollOffAreContinuous() {
        #expect(LinearLightExposure.exposure(forKey: 0.18) == 1)
        #expect(abs(LinearLightExposure.exposure(forKey: 18) * 18 - 0.36) < 1e-9)
        #expect(abs(LinearLightExposure.exposure(forKey: 0.001) * 0.001 - 0.09) < 1e-9)
        #expect(LinearLightExposure.exposure(forKey: .nan) == 1)
        let knee = LinearLightExposure.knee
        #expect(LinearLightExposure.rolledOff(0.18) == 0.18)
        #expect(abs(LinearLightExposure.rolledOff(knee + 1e-9) - knee) < 1e-6)
        #expect(LinearLightExposure.rolledOff(6) < 1 && LinearLightExposure.rolledOff(6) > 0.99)
        #expect(LinearLightExposure.rolledOff(2) < LinearLightExposure.rolledOff(3))
    }

    @Test(arguments: ["scene.ppm", "linear.pfm", "linear.exr", "scene.jp2", "absolute.hdr"])
    func aTruncatedFileFailsNamingWhy(name: String) async throws {
        let bytes = Array(try Data(contentsOf: Self.formats(name)))
        let cut = await processor.process(data: Array(bytes.prefix(bytes.count * 2 / 3)), filename: "cut-" + name)
        let error = try #require(cut.error, "\(name) was decoded from two thirds of its bytes")
        #expect(error.file == "cut-" + name)
        if name.hasSuffix(".ppm") || name.hasSuffix(".pfm") {
            // Refused from the header before libvips maps the raster.
            #expect(error.stage == .probe && error.reason == .truncated, "\(error.description)")
            #expect(error.message.contains("raster (\(name.hasSuffix(".ppm") ? "96×64" : "48×32"))"), "\(error.message)")
        } else {
            #expect(error.stage == .decode || error.stage == .probe, "\(error.description)")
            // The EXR loader reads a memfd: its path is not the user's and is not shown.
            #expect(!error.message.isEmpty && !error.message.contains("/proc/self/fd"), "\(error.message)")
        }
    }
}
