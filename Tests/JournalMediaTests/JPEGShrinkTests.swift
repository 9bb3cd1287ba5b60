import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The libjpeg scale picked for a decode: the smallest image that still covers the target.
@Suite struct JPEGShrinkTests {
    func header(_ width: Int, _ height: Int, orientation: Int = 1) -> ImageHeader {
        ImageHeader(format: .jpeg, storedWidth: width, storedHeight: height, orientation: orientation, bands: 3,
                    hasAlpha: false, colourSpace: .rgb, hasProfile: false)
    }

    @Test func picksTheSmallestScaleCoveringTheTarget() {
        #expect(ImageDecoder.jpegShrink(header(4032, 3024), width: 1600, height: 1200) == 2)
        #expect(ImageDecoder.jpegShrink(header(8064, 6048), width: 1600, height: 1200) == 4)
        #expect(ImageDecoder.jpegShrink(header(8064, 6048), width: 512, height: 384) == 8)
        #expect(ImageDecoder.jpegShrink(header(3000, 2000), width: 1600, height: 1067) == 1)
        // Sideways-stored portrait: the display box is turned back to the stored axes.
        #expect(ImageDecoder.jpegShrink(header(4032, 3024, orientation: 6), width: 1200, height: 1600) == 2)
        // Sides counted as libvips loads them, ⌊side / n⌋: 4033 / 2 = 2016 no longer covers
        // 2017, so no DCT scale (libjpeg's ⌈4033 / 2⌉ = 2017 would have said 2).
        #expect(ImageDecoder.jpegShrink(header(4033, 3025), width: 2017, height: 1513) == 1)
        #expect(ImageDecoder.jpegShrink(header(4034, 3026), width: 2017, height: 1513) == 2)
        // 3×8000 into a 1600 box needs 1×1600: 1/4 would load as ⌊3 / 4⌋ = 0 columns.
        #expect(ImageDecoder.jpegShrink(header(3, 8000), width: 1600, height: 1600) == 2)
    }

    /// A 3×8000 grey JPEG with a grey profile takes libvips' shrink-on-load path; with the
    /// scale counted by ⌈side / n⌉ it loaded a 0-pixel-wide image and libvips aborted the
    /// whole process. Both renditions come out, one pixel wide, upright.
    @Test func aThinTaggedGreyJPEGConverts() throws {
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("jpeg-decode/thin-grey-profile.jpg"))
        #expect(result.error == nil, "\(String(describing: result.error))")
        let fallback = try #require(result.renditions.first { $0.role == "fallback" })
        let thumbnail = try #require(result.renditions.first { $0.role == "thumbnail" })
        #expect(fallback.width == 1 && fallback.height == 1600)
        #expect(thumbnail.width == 1 && thumbnail.height == 512)
    }

    @Test func noShrinkWhenTheTargetIsNotSmaller() {
        #expect(ImageDecoder.jpegShrink(header(800, 600), width: 800, height: 600) == nil)
        #expect(ImageDecoder.jpegShrink(header(800, 600), width: 1600, height: 1200) == nil)
    }
}
