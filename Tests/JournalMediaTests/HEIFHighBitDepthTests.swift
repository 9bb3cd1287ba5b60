import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Camera HEIFs: 10- and 12-bit, 4:2:2 and 4:4:4, a Sony-style rotated 10-bit 4:2:2 grid with
/// a thumbnail libvips 8.14 refuses. Each converts upright through the HEVC path with the
/// colours pillow-heif gives (its decode committed beside the sample, `*.pillow-heif.png`,
/// made by Tests/SampleMaker/make-heif-samples.py).
@Suite struct HEIFHighBitDepthTests {
    static func load(_ name: String) throws -> VipsImageHandle {
        let load = try VipsOperationCall("pngload")
        try load.set("filename", .string(TestSupport.sample(name).path))
        try load.build()
        return try load.outputImage()
    }

    /// Least PSNR against pillow-heif's decode at full size: the HEVC path narrows 10/12-bit
    /// samples to 8 bits before converting, libheif after; measured 43–48 dB (8-bit samples
    /// decoded by both give about 50).
    static let leastPSNR = 40.0

    @Test(arguments: ["10bit-422", "12bit-444", "10bit-422-grid-rotated"])
    func convertsLikePillowHeif(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/\(name).heic")))
        let reference = try Self.load("heif/\(name).pillow-heif.png")
        let (decoded, fast) = try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            let fast = HEIFHEVCDecoder.attempt(buffer, boxWidth: 4096, boxHeight: 4096,
                                               expectedSize: (header.displayWidth, header.displayHeight))
            return (try StillDecoding.pixels(buffer, header: header, box: (4096, 4096), upscale: false), fast)
        }
        if case .failure(let reason) = fast { Issue.record("\(name): the HEVC path declined: \(reason.message)") }
        let image = decoded.image
        #expect(image.width == reference.width && image.height == reference.height, "\(name): \(image.width)×\(image.height)")
        guard image.width == reference.width, image.height == reference.height else { return }
        let psnr = try CorpusAVIFCheck.psnr(image, reference)
        print("HEIC \(name): \(image.width)×\(image.height), PSNR against pillow-heif \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= Self.leastPSNR, "\(name): \(psnr) dB")
    }

    /// A Sony α7 IV-style grid whose `irot` is listed before its `ispe`: libheif 1.15 reports
    /// it unturned (300×200) and then refuses to decode it ("bad image dimensions on decode");
    /// the header takes the file's own turned size and the HEVC path decodes it, upright as
    /// pillow-heif shows the same pixels with the usual order. Before, the HEVC path declined
    /// it (libvips' size differed from its boxes') and the conversion failed.
    @Test func gridWithItsTurnListedFirstComesOutUpright() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/10bit-422-grid-irot-first.heic")))
        let (header, decoded) = try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            return (header, try StillDecoding.pixels(buffer, header: header, box: (4096, 4096), upscale: false))
        }
        #expect(header.displayWidth == 200 && header.displayHeight == 300)
        try Self.expectUprightLikePillowHeif(decoded.image)
    }

    /// The Sony-style file turned a quarter: shown 200×300 with the photo's corner marks where
    /// pillow-heif puts them (top left blue, top right white, bottom left red, bottom right green).
    @Test func rotatedGridComesOutUpright() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/10bit-422-grid-rotated.heic")))
        let decoded = try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            return try StillDecoding.pixels(buffer, header: header, box: (4096, 4096), upscale: false)
        }
        try Self.expectUprightLikePillowHeif(decoded.image)
    }

    /// `image` is the rotated 10-bit grid sample shown upright, 200×300, with the photo's corner
    /// marks where pillow-heif puts them (top left blue, top right white, bottom left red,
    /// bottom right green).
    static func expectUprightLikePillowHeif(_ image: VipsImageHandle) throws {
        let reference = try load("heif/10bit-422-grid-rotated.pillow-heif.png")
        #expect(image.width == 200 && image.height == 300)
        for (x, y) in [(8, 8), (190, 8), (8, 290), (190, 290), (60, 90)] {
            let ours = try TestImage.mean(image, around: x, y)
            let theirs = try TestImage.mean(reference, around: x, y)
            #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) < 6 }, "(\(x), \(y)): \(ours) vs \(theirs)")
        }
    }

    /// Its embedded thumbnail (coded 96×64, `ispe` 96×62) serves a small box through the HEVC
    /// path; libvips, which refused it with "bad image dimensions on decode", now falls back
    /// to the primary image instead of failing.
    @Test func sonyStyleThumbnailDoesNotFail() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/10bit-422-grid-rotated.heic")))
        try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            let fast = try HEIFHEVCDecoder.attempt(buffer, boxWidth: 60, boxHeight: 60).get()
            #expect(fast.width == 39 && fast.height == 60, "\(fast.width)×\(fast.height)")
            let libvips = try ImageDecoder.decode(buffer, header: header, width: 60, height: 60, allowUpscale: false)
            #expect(libvips.image.height == 60)
            let reference = try Self.load("heif/10bit-422-grid-rotated.pillow-heif.png")
            let small = try TestImage.resized(reference, width: libvips.image.width, height: libvips.image.height)
            let psnr = try CorpusAVIFCheck.psnr(libvips.image, small)
            #expect(psnr >= 28, "libvips' fallback at 60 px: \(psnr) dB against pillow-heif's decode resized")
        }
    }

    /// What the HEVC path cannot read, it says: an alpha plane.
    @Test func declineSaysWhy() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("heif/alpha.heic")))
        let outcome = bytes.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: 100, boxHeight: 100) }
        guard case .failure(let reason) = outcome else {
            Issue.record("alpha.heic was decoded by the HEVC path")
            return
        }
        #expect(reason.message.contains("alpha"), "\(reason.message)")
    }
}

extension TestImage {
    /// `image` resized to `width`×`height` with libvips' lanczos3.
    static func resized(_ image: VipsImageHandle, width: Int, height: Int) throws -> VipsImageHandle {
        let resize = try VipsOperationCall("thumbnail_image")
        try resize.set("in", .image(image))
        try resize.set("width", .int(width))
        try resize.set("height", .int(height))
        try resize.set("size", .nick("force"))
        try resize.build()
        return try resize.outputImage()
    }
}
