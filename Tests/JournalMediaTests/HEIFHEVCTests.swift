import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The in-process HEIC path (`HEIFHEVCDecoder`: libavcodec HEVC + our resampler) against libvips'
/// heifload + thumbnail, the reference it must match and the fallback it hands over to.
@Suite struct HEIFHEVCTests {
    /// Largest mean absolute difference per channel accepted between the two decoders.
    static let tolerance = 3.0

    struct Decoded {
        /// What the pipeline's decode gave (the fast path, or libvips when it declined).
        var fast: DecodedImage
        /// libvips' heifload, the reference.
        var reference: DecodedImage
        var header: ImageHeader
        /// Whether the HEVC fast path produced `fast`.
        var tookFastPath: Bool
    }

    static func decodeBoth(_ bytes: [UInt8], box: Int) throws -> Decoded {
        try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            let hevc = HEIFHEVCDecoder.decode(buffer, boxWidth: box, boxHeight: box,
                                              expectedSize: (header.displayWidth, header.displayHeight))
            let fast = try StillDecoding.pixels(buffer, header: header, box: (box, box), upscale: false)
            let reference = try ImageDecoder.decode(buffer, header: header, width: box, height: box, allowUpscale: false)
            return Decoded(fast: fast, reference: reference, header: header, tookFastPath: hevc != nil)
        }
    }

    /// Mean absolute difference of each band.
    static func meanAbsoluteDifference(_ a: VipsImageHandle, _ b: VipsImageHandle) throws -> [Double] {
        let subtract = try VipsOperationCall("subtract")
        try subtract.set("left", .image(a))
        try subtract.set("right", .image(b))
        try subtract.build()
        let abs = try VipsOperationCall("abs")
        try abs.set("in", .image(try subtract.outputImage()))
        try abs.build()
        return try abs.outputImage().averagePerBand()
    }

    static let matching: [(String, Int)] = [
        ("photo.heic", 4096), ("photo.heic", 256), ("dates/dated.heic", 4096), ("dates/dated.heic", 50),
        ("heif/grid-3x2.heic", 4096), ("heif/grid-3x2.heic", 300),
        ("heif/rotated-mirrored.heic", 4096), ("heif/rotated-mirrored.heic", 250),
        ("heif/nclx-bt709-limited.heic", 4096), ("heif/nclx-bt709-limited.heic", 300),
        ("heif/vui-bt709-limited.heic", 4096),
        ("heif/thumbnail.heic", 4096), ("heif/thumbnail.heic", 100),
        ("heif/clap-rotated.heic", 4096), ("heif/clap-rotated.heic", 200),
        ("heif/10bit.heic", 4096), ("heif/10bit.heic", 100),
        // A Display P3 ICC profile (matrix-shaper conversion) and an `irot`, turned in its pass.
        ("photo-p3-rotated.heic", 4096), ("photo-p3-rotated.heic", 300),
    ]

    @Test(arguments: matching)
    func fastPathMatchesLibvips(_ name: String, _ box: Int) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let decoded = try Self.decodeBoth(bytes, box: box)
        #expect(decoded.tookFastPath)
        let fast = decoded.fast.image, reference = decoded.reference.image
        // The size libvips gives the display size fitted to the box.
        #expect(fast.width == reference.width && fast.height == reference.height)
        #expect(fast.bands == 3 && reference.bands == 3)
        // The header's display size fitted to the box, or the embedded thumbnail's when libvips
        // (and the fast path) decode that instead.
        let parsed = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: bytes))
        let items = try #require(parsed)
        #expect(items.primary.displaySize == (decoded.header.displayWidth, decoded.header.displayHeight))
        let source = HEIFHEVCDecoder.chooseItem(items, boxWidth: box, boxHeight: box).displaySize
        let expected = HEIFHEVCDecoder.fitted(width: source.width, height: source.height, boxWidth: box, boxHeight: box)
        #expect(fast.width == expected.width && fast.height == expected.height)
        guard fast.width == reference.width, fast.height == reference.height else { return }
        let difference = try Self.meanAbsoluteDifference(fast, reference)
        print("HEIC fast path \(name) box \(box): \(fast.width)×\(fast.height), mean abs diff per channel \(difference)")
        #expect(difference.allSatisfy { $0 <= Self.tolerance }, "\(name): \(difference)")
    }

    @Test func rotatedAndMirroredComesOutUpright() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/rotated-mirrored.heic")))
        // Coded 600×400, irot 90° anticlockwise then imir left↔right: shown 400×600.
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes))
        let coded = try #require(parsed)
        #expect(coded.width == 600 && coded.height == 400)
        #expect(coded.transforms == [.rotate(quarterTurns: 1), .mirror(horizontal: true)])
        #expect(coded.displaySize == (400, 600))
        let decoded = try Self.decodeBoth(bytes, box: 4096)
        #expect(decoded.fast.image.width == 400 && decoded.fast.image.height == 600)
        #expect(decoded.header.orientation == 1)
        // Corners far apart in the photo must land where libvips puts them.
        for (x, y) in [(20, 20), (380, 20), (20, 580), (380, 580), (200, 300)] {
            let fast = try TestImage.mean(decoded.fast.image, around: x, y)
            let reference = try TestImage.mean(decoded.reference.image, around: x, y)
            #expect(zip(fast, reference).allSatisfy { abs($0 - $1) < 12 }, "(\(x), \(y)): \(fast) vs \(reference)")
        }
    }

    /// libvips 8.14 ignores nclx colour primaries, so its heifload leaves Display P3 pixels
    /// unconverted; the fast path converts them with libvips' built-in P3 profile. Compared
    /// with libvips' reference put through the same conversion.
    @Test func displayP3NCLXIsConvertedToSRGB() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/nclx-p3.heic")))
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes))
        let coded = try #require(parsed)
        #expect(coded.nclx == HEIFCodedImage.NCLX(primaries: 12, transfer: 13, matrix: 6, fullRange: true))
        let decoded = try Self.decodeBoth(bytes, box: 4096)
        #expect(decoded.tookFastPath)
        let convert = try VipsOperationCall("icc_transform")
        try convert.set("in", .image(decoded.reference.image))
        try convert.set("input_profile", .string("p3"))
        try convert.set("output_profile", .string("srgb"))
        try convert.set("intent", .nick("relative"))
        try convert.build()
        let converted = try convert.outputImage()
        let difference = try Self.meanAbsoluteDifference(decoded.fast.image, converted)
        print("HEIC fast path heif/nclx-p3.heic: mean abs diff per channel against libvips + P3→sRGB \(difference)")
        #expect(difference.allSatisfy { $0 <= Self.tolerance }, "\(difference)")
        // Unconverted, the two differ visibly (P3 red is more saturated than sRGB red).
        let unconverted = try Self.meanAbsoluteDifference(decoded.fast.image, decoded.reference.image)
        #expect(unconverted.contains { $0 > Self.tolerance }, "\(unconverted)")
    }

    /// Like libvips' thumbnail, the embedded thumbnail is decoded when it is larger than the box.
    @Test func embeddedThumbnailServesSmallBoxes() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/thumbnail.heic")))
        let parsed = HEIFImageItems.primaryAndThumbnail(in: MemoryBytes(bytes: bytes))
        let items = try #require(parsed)
        let thumbnail = try #require(items.thumbnail)
        #expect(items.primary.width == 600 && thumbnail.width == 160)
        #expect(HEIFHEVCDecoder.chooseItem(items, boxWidth: 100, boxHeight: 100).width == 160)
        #expect(HEIFHEVCDecoder.chooseItem(items, boxWidth: 160, boxHeight: 160).width == 600)
        #expect(HEIFHEVCDecoder.chooseItem(items, boxWidth: 1600, boxHeight: 1600).width == 600)
    }

    @Test func cleanApertureIsCroppedBeforeTheRotation() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/clap-rotated.heic")))
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes))
        let coded = try #require(parsed)
        #expect(coded.transforms == [.crop(left: 30, top: 60, width: 500, height: 300), .rotate(quarterTurns: 3)])
        #expect(coded.displaySize == (300, 500))
    }

    @Test func gridLayoutIsRead() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/grid-3x2.heic")))
        let parsed = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes))
        let coded = try #require(parsed)
        #expect(coded.columns == 3 && coded.rows == 2 && coded.tiles.count == 6)
        #expect(coded.width == 600 && coded.height == 400)
        #expect(coded.nclx == nil && coded.iccProfile == nil)
    }

    @Test(arguments: ["heif/alpha.heic"])
    func unsupportedFallsBackToLibvips(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let fast = bytes.withUnsafeBytes { HEIFHEVCDecoder.decode($0, boxWidth: 1600, boxHeight: 1600) }
        #expect(fast == nil)
        let decoded = try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            return try ImageDecoder.decode(buffer, header: header, width: 1600, height: 1600, allowUpscale: false)
        }
        #expect(decoded.image.width > 0)
    }

    /// The tile-wise decode (a row of tiles at a time, rows dropped once resampled) gives the
    /// same pixels as holding every row first: the same taps over the same samples.
    @Test(arguments: [("heif/grid-3x2.heic", 4096), ("heif/grid-3x2.heic", 300), ("heif/grid-3x2.heic", 97),
                      ("heif/10bit-422-grid-rotated.heic", 4096), ("heif/10bit-422-grid-rotated.heic", 130),
                      // Single items above 8 bits, copied in bands of `HEIFPictureStream.band` rows.
                      ("heif/10bit-422.heic", 4096), ("heif/12bit-444.heic", 100), ("heif/10bit.heic", 4096)])
    func tileWiseEqualsWholeImage(_ name: String, _ box: Int) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let (tiles, whole) = try bytes.withUnsafeBytes { buffer in
            (try HEIFHEVCDecoder.attempt(buffer, boxWidth: box, boxHeight: box).get(),
             try HEIFHEVCDecoder.attempt(buffer, boxWidth: box, boxHeight: box, wholeImage: true).get())
        }
        #expect(tiles.width == whole.width && tiles.height == whole.height)
        let differing = zip(tiles.rgb, whole.rgb).filter { $0 != $1 }.count
        print("HEIC \(name) box \(box): tile-wise vs whole-image, \(differing) of \(tiles.rgb.count) samples differ")
        #expect(tiles.rgb == whole.rgb)
    }

    @Test func avifIsNotTaken() throws {
        // An AVIF made by libvips: `av01` items are not HEVC.
        let png = Array(try Data(contentsOf: TestSupport.sample("alpha-disc.png")))
        let avif = try png.withUnsafeBytes { buffer -> [UInt8] in
            let load = try VipsOperationCall("pngload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            let flatten = try ImageDecoder.flatten(try load.outputImage())
            let save = try VipsOperationCall("heifsave_buffer")
            try save.set("in", .image(flatten))
            try save.set("compression", .nick("av1"))
            try save.build()
            return try save.outputBytes()
        }
        #expect(avif.withUnsafeBytes { HEIFHEVCDecoder.decode($0, boxWidth: 100, boxHeight: 100) } == nil)
    }

    /// Truncations and random byte changes (a fixed seed, so failures reproduce): the fast path
    /// decodes or returns nil, and the whole decode returns an image or throws `VipsError`.
    @Test(arguments: ["photo.heic", "heif/grid-3x2.heic", "heif/rotated-mirrored.heic"])
    func mutatedBytesNeverCrash(_ name: String) throws {
        let original = Array(try Data(contentsOf: TestSupport.sample(name)))
        var random = SplitMix64(seed: 0x4845_4943 ^ UInt64(name.count))
        var fastDecodes = 0, fallbacks = 0, errors = 0
        for round in 0..<120 {
            var bytes = original
            if round % 8 == 0 {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            } else {
                // Mostly the meta box (the first ~1.5 kB), sometimes the coded data.
                let span = round % 3 == 0 ? bytes.count : min(bytes.count, 1_600)
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let at = Int(random.next() % UInt64(span))
                    bytes[at] = round % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : bytes[at] ^ 0xFF
                }
            }
            _ = HEIFItems.blocks(in: MemoryBytes(bytes: bytes))
            let tookFastPath = bytes.withUnsafeBytes({ HEIFHEVCDecoder.decode($0, boxWidth: 300, boxHeight: 300) }) != nil
            if tookFastPath { fastDecodes += 1 }
            do {
                let decoded = try bytes.withUnsafeBytes { buffer throws(VipsError) in
                    let header = try ImageHeaderReader.read(buffer, format: .heic)
                    return try StillDecoding.pixels(buffer, header: header, box: (300, 300), upscale: false)
                }
                if !tookFastPath { fallbacks += 1 }
                #expect(decoded.image.width > 0)
            } catch {
                errors += 1
            }
        }
        print("HEIC mutations of \(name): \(fastDecodes) fast decodes, \(fallbacks) libvips fallbacks, \(errors) typed errors")
    }
}

extension TestImage {
    init(handle: VipsImageHandle) { image = handle }

    /// Mean of each band around (x, y) of a libvips image.
    static func mean(_ image: VipsImageHandle, around x: Int, _ y: Int) throws -> [Double] {
        try TestImage(handle: image).mean(around: x, y)
    }
}
