import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaImaging

/// CMYK JPEG renditions in the colours an ICC conversion made outside libvips gives: lcms' own
/// `jpgicc` (LittleCMS 2.14, Debian 12's liblcms2-utils), run as
/// `jpgicc -i cmyk.icc -o srgb.icc -t 1 -q 100 cmyk.jpg out.jpg`, where cmyk.icc is the profile
/// cmyk.jpg embeds (libvips' built-in CMYK profile, "Chemical proof", which made it:
/// Tests/SampleMaker/make-samples.sh), srgb.icc libvips' sRGB profile (the one
/// orientation-8-srgb.jpg embeds), intent 1 (relative colorimetric), no black-point
/// compensation; jpgicc undoes the Adobe inversion itself. Pillow 13's ImageCms (relative, no
/// BPC) gives the same values to the unit. Over the whole 600×400 scene this conversion is the
/// closest of those tried to the RGB scene cmyk.jpg was made from (mean CIEDE2000 2.14, against
/// 2.94 with black-point compensation and 3.61 for libvips 8.14's `thumbnail`, whose blue marker
/// came out (7, 73, 143)); perceptual intent gives the same as relative with this profile.
/// The scene's blue (20, 40, 230) is outside the CMYK gamut, so no decode can give it back.
@Suite struct CMYKColourTests {
    /// Marker patch colours of jpgicc's output above, each the mean of a 40×40 patch inside the
    /// marker (flat to ±1): blue top-right, red top-left, green bottom-left.
    static let blue: [Double] = [45, 71, 144]
    static let red: [Double] = [230, 45, 43]
    static let green: [Double] = [116, 178, 48]

    /// A PNG rendition `width` px wide of a file of the 600×400 scene, decoded by the pipeline.
    func rendition(_ name: String, width: Int, at url: URL? = nil) throws -> TestImage {
        let processor = AssetProcessor(options: ProcessingOptions(renditions: [
            RenditionSpec(role: "full", format: .png, width: width)]))
        let result = processor.processBlocking(fileAt: url ?? TestSupport.sample(name), displayName: name)
        let image = try TestImage(try #require(result.renditions.first, "\(result.error?.message ?? "")").data)
        #expect((image.width, image.height, image.bands) == (width, width * 2 / 3, 3))
        return image
    }

    /// cmyk.jpg (embedded profile) and ycck.jpg (the same samples as Adobe YCCK, no profile:
    /// libvips' CMYK one) at full size (240 k pixels: libvips' `icc_transform`) and at 300 px
    /// (60 k pixels, `DirectProfileTransform`): both paths give jpgicc's marker colours.
    @Test(arguments: ["cmyk.jpg", "jpeg-decode/ycck.jpg"], [600, 300])
    func markersHaveTheColoursOfAnLcmsConversion(_ name: String, width: Int) throws {
        #expect((width * width * 2 / 3 > DirectProfileTransform.maxPixels) == (width == 600))
        try expectMarkers(try rendition(name, width: width), name: name)
    }

    /// A CMYK TIFF (cmyk.jpg's samples and profile, written by libvips' tiffsave): not a JPEG,
    /// so libvips' thumbnail shrinks it, after `icc_transform` has converted it (thumbnail's
    /// own CMYK conversion gave the blue marker (7, 73, 143)).
    @Test func cmykTIFFHasTheSameColours() throws {
        let tiff = try CraftedFiles.tiff(from: Array(try Data(contentsOf: TestSupport.sample("cmyk.jpg"))),
                                         loader: "jpegload_buffer")
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try CraftedFiles.write(tiff, "cmyk.tif", in: folder)
        let header = try tiff.withUnsafeBytes { try ImageHeaderReader.read($0, format: .tiff) }
        #expect(header.colourSpace == .cmyk && header.hasProfile)
        for width in [600, 300] {
            try expectMarkers(try rendition("cmyk.tif", width: width, at: url), name: "cmyk.tif")
        }
    }

    /// The blue, red and green markers of `image` (a rendition of the scene) are jpgicc's.
    func expectMarkers(_ image: TestImage, name: String) throws {
        let width = image.width
        let scale = Double(width) / 600, height = image.height
        let patches: [(String, Int, Int, [Double])] = [
            ("blue", width - 1 - Int(30 * scale), Int(30 * scale), Self.blue),
            ("red", Int(30 * scale), Int(30 * scale), Self.red),
            ("green", Int(30 * scale), height - 1 - Int(30 * scale), Self.green)]
        for (marker, x, y, expected) in patches {
            let seen = try image.mean(around: x, y, size: 5)
            #expect(colour(seen, isNear: expected, tolerance: 4),
                    "\(name) at \(width) px, \(marker) marker: \(seen.map { Int($0.rounded()) }), jpgicc \(expected.map(Int.init))")
        }
    }
}
