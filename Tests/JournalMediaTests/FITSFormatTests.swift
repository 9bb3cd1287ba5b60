import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// FITS, added as one handler (`FITSFormat`) and one registry line (issue 33 item 1; the worked
/// example of docs/extending.md). Sample: Samples/formats/scene.fits, the 96×64 test scene
/// through Netpbm's `pnmtofits` (Tests/SampleMaker/make-samples.sh), which stores the bottom row
/// first as the standard says.
@Suite struct FITSFormatTests {
    static let sample = TestSupport.sample("formats/scene.fits")

    @Test func isSniffedByContent() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.sample))
        #expect(FormatSniffer.sniff(bytes) == .fits)
        #expect(ProbedAsset.open(Self.sample).format == .fits)
        #expect(SourceFormat(rawValue: "fits") == .fits && SourceFormat.fits.mediaType == "image/fits")
        // Text that starts like a FITS header but lacks its mandatory cards is not FITS.
        #expect(FormatSniffer.sniff(Array("SIMPLE  = not a header".utf8)) == nil)
    }

    /// The scene converts upright at its size (red marker top-left, green bottom-left, blue
    /// top-right), and every default rendition is written.
    @Test func convertsUprightWithItsRenditions() async throws {
        let processor = AssetProcessor(options: ProcessingOptions(analyzeColors: false))
        let result = await processor.process(fileAt: Self.sample)
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.format == .fits && result.mediaType == "image/fits" && result.kind == .photo)
        #expect(result.width == 96 && result.height == 64)
        #expect(!result.renditions.isEmpty)
        for rendition in result.renditions {
            let image = try TestImage(rendition.data)
            #expect(image.width == rendition.width && image.height == rendition.height, "\(rendition.role)")
            #expect(rendition.width <= 96 && rendition.height <= 64, "\(rendition.role)")
        }
        let png = AssetProcessor(options: ProcessingOptions(
            renditions: [RenditionSpec(role: "image", format: .png, width: 96)], analyzeColors: false))
        let exact = await png.process(fileAt: Self.sample)
        let image = try TestImage(try #require(exact.renditions.first).data)
        #expect(image.width == 96 && image.height == 64)
        let red = try image.pixel(1, 1), green = try image.pixel(1, 62), blue = try image.pixel(94, 1)
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "top-left \(red)")
        #expect(green[1] > 150 && green[0] < 90 && green[2] < 90, "bottom-left \(green)")
        #expect(blue[2] > 180 && blue[0] < 90, "top-right \(blue)")
    }

    /// A FITS cut short of the data its header declares fails at probe, naming FITS; 16-bit
    /// data (no fixed black and white) is not taken for a picture.
    @Test func aCutFileFailsAtProbeAndDeepDataIsNotMedia() async throws {
        let bytes = [UInt8](try Data(contentsOf: Self.sample))
        let processor = AssetProcessor(options: ProcessingOptions(analyzeColors: false))
        let cut = await processor.process(data: Array(bytes[..<10_000]), filename: "cut.fits")
        let error = try #require(cut.error)
        #expect(error.stage == .probe && error.message.contains("FITS"), "\(error.message)")
        #expect(cut.renditions.isEmpty)
        var deep = bytes
        let card = Array("BITPIX  =                    8".utf8)
        let at = try #require(deep.firstRange(of: card))
        deep.replaceSubrange(at, with: Array("BITPIX  =                   16".utf8))
        #expect(FormatSniffer.sniff(deep) == nil)
    }
}
