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
        // ⌈4033 / 2⌉ = 2017 still covers 2016.
        #expect(ImageDecoder.jpegShrink(header(4033, 3025), width: 2017, height: 1513) == 2)
    }

    @Test func noShrinkWhenTheTargetIsNotSmaller() {
        #expect(ImageDecoder.jpegShrink(header(800, 600), width: 800, height: 600) == nil)
        #expect(ImageDecoder.jpegShrink(header(800, 600), width: 1600, height: 1200) == nil)
    }
}
