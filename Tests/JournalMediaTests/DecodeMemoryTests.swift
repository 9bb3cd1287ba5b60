import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 14, item 5: what a HEIF/AVIF decode may hold, and no second decode on the error path.
@Suite struct DecodeMemoryTests {
    func header(_ name: String) throws -> ImageHeader {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let format = try #require(FormatSniffer.sniff(bytes))
        return try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: format) }
    }

    /// Whether a profile can be used is read from the header, so a decode that fails is never
    /// repeated without colour management: device-link and named-colour profiles are not
    /// usable, a Display P3 one is.
    @Test func profileUsabilityIsDecidedFromTheHeader() throws {
        #expect(try header("orientation-6-gps-p3.jpg").profileUsable)
        #expect(try header("cmyk.jpg").profileUsable)
        for unusable in ["icc/link-profile.jpg", "icc/nmcl-profile.jpg"] {
            let h = try header(unusable)
            #expect(h.hasProfile && !h.profileUsable, "\(unusable)")
        }
    }

    /// The 10-bit sample is read as high bit depth; AVIF, 10-bit and alpha HEIFs of at least
    /// 4 MP take the gate exclusively, never an 8-bit HEIC (the libavcodec path) or a small image.
    @Test func wholeImageDecodesOfLargeTenBitOrAVIFImagesAreGated() throws {
        let tenBit = try header("heif/10bit.heic")
        #expect(tenBit.highBitDepth)
        #expect(!WholeImageDecodeGate.isWholeImage(tenBit), "small: decoded freely")
        let eightBit = try header("photo.heic")
        #expect(!eightBit.highBitDepth)
        func sized(_ h: ImageHeader, _ format: SourceFormat, _ width: Int, _ height: Int) -> ImageHeader {
            var copy = h
            copy.format = format
            copy.storedWidth = width
            copy.storedHeight = height
            return copy
        }
        #expect(WholeImageDecodeGate.isWholeImage(sized(tenBit, .heic, 4000, 3000)))
        #expect(WholeImageDecodeGate.isWholeImage(sized(eightBit, .avif, 3681, 5594)))
        #expect(!WholeImageDecodeGate.isWholeImage(sized(eightBit, .heic, 4032, 3024)))
        #expect(!WholeImageDecodeGate.isWholeImage(sized(tenBit, .png, 4000, 3000)))
    }
}
