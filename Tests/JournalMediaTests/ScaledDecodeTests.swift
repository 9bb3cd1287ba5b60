import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The fast decode paths (libjpeg DCT scaling, the HEIC decode) keep what the slow ones
/// guarantee: renditions upright, converted to sRGB, with no profile left in them.
@Suite struct ScaledDecodeTests {
    /// Renditions small enough that the 600×400 samples are decoded at a reduced scale
    /// (a 150 px box is a libjpeg 1/4 scale for the sideways-stored JPEG).
    static let smallRenditions = [
        RenditionSpec(role: "thumbnail", format: .webp, width: 96, height: 96, fit: .inside, quality: 80),
        RenditionSpec(role: "fallback", format: .jpeg, width: 150, height: 150, fit: .inside, quality: 90),
    ]

    func process(_ name: String) -> AssetResult {
        AssetProcessor(options: ProcessingOptions(renditions: Self.smallRenditions))
            .processBlocking(fileAt: TestSupport.sample(name), displayName: name)
    }

    func expectUprightSRGB(_ result: AssetResult, width: Int, height: Int) throws {
        #expect(result.error == nil)
        #expect(result.width == 600 && result.height == 400)
        let fallback = try #require(result.renditions.first { $0.role == "fallback" })
        #expect(fallback.width == width && fallback.height == height)
        let image = try TestImage(fallback.data)
        #expect(image.image.interpretation == VIPS_INTERPRETATION_sRGB)
        #expect(!image.image.hasField(VIPS_META_ICC_NAME), "no ICC profile in the rendition")
        // The markers were drawn in sRGB and stored as Display P3: read unconverted, the red
        // and green ones are 20–70 levels off, beyond this tolerance.
        try expectUprightMarkers(image, tolerance: 16)
        let thumbnail = try #require(result.renditions.first { $0.role == "thumbnail" })
        try expectUprightMarkers(try TestImage(thumbnail.data), tolerance: 24)
    }

    @Test func orientationSixP3JPEGAtAQuarterScale() throws {
        let header = try ImageHeaderReader.read(try Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")), format: .jpeg)
        #expect(ImageDecoder.jpegShrink(header, width: 150, height: 100) == 4, "the DCT-scaled path is the one under test")
        let result = process("orientation-6-gps-p3.jpg")
        #expect(result.orientation == 6)
        try expectUprightSRGB(result, width: 150, height: 100)
    }

    @Test func rotatedP3HEICIsUprightAndSRGB() throws {
        let result = process("photo-p3-rotated.heic")
        #expect(result.format == .heic)
        try expectUprightSRGB(result, width: 150, height: 100)
    }
}

extension ImageHeaderReader {
    static func read(_ data: Data, format: SourceFormat) throws -> ImageHeader {
        try data.withUnsafeBytes { bytes throws -> ImageHeader in try read(bytes, format: format) }
    }
}

/// Embedded profiles lcms cannot use as input (Samples/icc/, Tests/SampleMaker/unusable_icc.py:
/// a device link and a named-colour profile): the image is not lost, its colours are taken as
/// they are. On both the libvips path (JPEG) and the HEIC path.
@Suite struct UnusableProfileTests {
    @Test(arguments: ["icc/link-profile.jpg", "icc/nmcl-profile.jpg", "icc/link-profile.heic", "icc/nmcl-profile.heic"])
    func decodesWithoutColourManagement(_ name: String) throws {
        let result = AssetProcessor(options: ProcessingOptions(renditions: ScaledDecodeTests.smallRenditions))
            .processBlocking(fileAt: TestSupport.sample(name), displayName: name)
        #expect(result.error == nil, "\(name): \(result.error.map { "\($0)" } ?? "")")
        let fallback = try #require(result.renditions.first { $0.role == "fallback" })
        #expect(fallback.width == 64 && fallback.height == 48)
        let image = try TestImage(fallback.data)
        // Blue square top-left, red elsewhere, as stored.
        let corner = try image.pixel(4, 4), body = try image.pixel(48, 32)
        for (got, want) in zip(corner, [30.0, 30, 200]) { #expect(abs(got - want) < 12, "\(name) corner \(corner)") }
        for (got, want) in zip(body, [200.0, 30, 30]) { #expect(abs(got - want) < 12, "\(name) body \(body)") }
    }

    /// A grey JPEG whose ICC segment holds 7 bytes that are no profile (as Pillow's
    /// icc-after-SOF.jpg): lcms cannot open it, and libvips 8.14's icc_transform then fails
    /// ("unable to load or find any compatible input profile") instead of falling back, so the
    /// header's usability check must say unusable and the pixels are taken as they are.
    @Test func aProfileLcmsCannotOpenIsIgnored() async throws {
        let black = try VipsOperationCall("black")
        try black.set("width", .int(10))
        try black.set("height", .int(10))
        try black.build()
        let grey = try VipsOperationCall("linear")
        try grey.set("in", .image(try black.outputImage()))
        try grey.set("a", .doubles([1]))
        try grey.set("b", .doubles([120]))
        try grey.set("uchar", .bool(true))
        try grey.build()
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(try grey.outputImage()))
        try save.build()
        let jpeg = try save.outputBytes()
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + Array("profile".utf8)
        let segment: [UInt8] = [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let tagged = Array(jpeg.prefix(2)) + segment + Array(jpeg.dropFirst(2))
        let result = await AssetProcessor().process(data: tagged, filename: "grey-tiny-icc.jpg")
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        let fallback = try TestImage(try #require(result.renditions.first { $0.role == "fallback" }).data)
        for value in try fallback.pixel(5, 5) { #expect(abs(value - 120) < 3, "the grey is kept: \(value)") }
    }

    /// A grey JPEG tagged with an RGB profile (libvips' sRGB one; Samples/jpeg-decode, stored
    /// 200×150 with orientation 8): libvips 8.14 has no grey fallback profile, so its
    /// icc_transform failed the decode. The profile is reported unusable and the grey is
    /// taken as it is, turned upright.
    @Test func aGreyJPEGWithAnRGBProfileIsDecodedAsGrey() throws {
        let name = "jpeg-decode/grey-rgb-profile.jpg"
        let header = try ImageHeaderReader.read(try Data(contentsOf: TestSupport.sample(name)), format: .jpeg)
        #expect(header.colourSpace == .grey && header.hasProfile)
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample(name), displayName: name)
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        let fallback = try #require(result.renditions.first { $0.role == "fallback" })
        #expect(fallback.width == 150 && fallback.height == 200)
        // The same pixels as libvips' own decode of the file without colour management, turned.
        let upright = try VipsOperationCall("autorot")
        try upright.set("in", .image(try TestImage(contentsOf: TestSupport.sample(name)).image))
        try upright.build()
        let expected = try upright.outputImage()
        let image = try TestImage(fallback.data)
        for (x, y) in [(10, 10), (75, 100), (140, 190)] {
            let got = try image.pixel(x, y)
            let point = try VipsOperationCall("getpoint")
            try point.set("in", .image(expected))
            try point.set("x", .int(x))
            try point.set("y", .int(y))
            try point.build()
            let want = try point.outputDoubles("out_array")
            #expect(want.count == 1 && got.allSatisfy { abs($0 - want[0]) < 6 }, "(\(x), \(y)): \(got) against \(want)")
        }
    }
}
