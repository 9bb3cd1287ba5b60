import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
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

    /// Issue 29: a 10-bit grid HEIC of at least 4 MP is decoded a row of tiles at a time by
    /// the HEVC path, its memory bounded by that strip, so two such decodes run at once: the
    /// gate admits the second while the first holds it (both shared). Before, every 10/12-bit
    /// HEIC of 4 MP or more took the gate exclusively, and the second waited (here its guard,
    /// already cancelled, ends that wait with a stop reason instead of admission).
    @Test func twoTenBitGridHEICDecodesAreAdmittedAtOnce() throws {
        let sample = Array(try Data(contentsOf: TestSupport.sample("heif/10bit-422-grid-rotated.heic")))
        let coded = try #require(HEIFImageItems.primary(in: MemoryBytes(bytes: sample)))
        // 16 × 16 of its 128×128 10-bit 4:2:2 tiles: 2048×2048, 4.2 MP.
        let file = LargeGridHEICTests.gridHEIF(configuration: coded.configuration, tiles: coded.tiles, tileSize: 128,
                                               columns: 16, rows: 16)
        let header = try file.withUnsafeBytes { try ImageHeaderReader.read($0, format: .heic) }
        #expect(header.highBitDepth && header.pixelCount >= WholeImageDecodeGate.minimumPixels)
        #expect(WholeImageDecodeGate.isWholeImage(header), "without its bytes, a 10-bit HEIC libvips would decode whole")
        #expect(!file.withUnsafeBytes { WholeImageDecodeGate.isWholeImage(header, bytes: $0) })
        let first = file.withUnsafeBytes { WholeImageDecodeGate.Hold(header: header, bytes: $0) }
        let second = file.withUnsafeBytes { WholeImageDecodeGate.Hold(header: header, bytes: $0) }
        let stopAtOnce = DecodeGuard()
        stopAtOnce.cancel()
        #expect(first.enter(unless: stopAtOnce) == nil)
        defer { first.leave() }
        #expect(second.enter(unless: stopAtOnce) == nil, "the second decode waited for the first")
        defer { second.leave() }
        #expect(!first.exclusive && !second.exclusive)
        #expect(WholeImageDecodeGate.holders.shared >= 2 && !WholeImageDecodeGate.holders.exclusive)
        // And the file decodes on the HEVC path, tile row by tile row, upright and whole.
        let decoded = try file.withUnsafeBytes { raw in
            try StillDecoding.pixels(raw, header: header, box: (512, 512), upscale: false, gate: second)
        }
        #expect(decoded.image.width == 512 && decoded.image.height == 512)
        #expect(!second.exclusive, "the HEVC path took it: no whole-image fallback")
    }

    /// Issue 29: a 10-bit HEIC that is one item is decoded by the HEVC path in bands of rows
    /// beside libavcodec's frame (2 bytes a sample), so it takes the gate shared while that
    /// frame is no larger than the largest 8-bit item's (150 MB): a Sony α7 IV's 7008×4672
    /// 4:2:2 (131 MB) runs beside other decodes; a 48 MP one still decodes alone. Before, every
    /// 10-bit single item of 4 MP or more took the gate exclusively.
    @Test func aTenBitSingleItemHEICIsSharedUpToTheLargestEightBitFrame() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/10bit-422.heic")))
        var header = try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: .heic) }
        header.storedWidth = 7008
        header.storedHeight = 4672
        #expect(header.highBitDepth && header.pixelCount >= WholeImageDecodeGate.minimumPixels)
        #expect(!bytes.withUnsafeBytes { WholeImageDecodeGate.isWholeImage(header, bytes: $0) })
        header.storedWidth = 8000
        header.storedHeight = 6000
        #expect(bytes.withUnsafeBytes { WholeImageDecodeGate.isWholeImage(header, bytes: $0) })
    }
}
