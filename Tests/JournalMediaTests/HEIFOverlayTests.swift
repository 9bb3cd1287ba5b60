import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Overlay HEICs (`iovl` primary items, as Nokia's conformance files have) composed on the
/// HEVC path: Samples/heif/overlay.heic (made by Tests/SampleMaker/make-heif-samples.py: a
/// filled canvas, the photo at an odd offset, a turned disc with alpha over the left and
/// bottom edges) against pillow-heif's decode of it (libheif 1.20). Debian's libheif 1.15,
/// behind libvips, mis-draws layers at negative offsets (the disc is repeated along the
/// bottom), so it is not the reference here.
@Suite struct HEIFOverlayTests {
    static let bytes: [UInt8] = (try? Array(Data(contentsOf: TestSupport.sample("heif/overlay.heic")))) ?? []

    /// Least PSNR against pillow-heif at full size; measured 42.1 dB. The difference is the
    /// chroma upsampling at this synthetic photo's hard edges (its corner squares, the
    /// horizon), not the composition: the photo layer alone, as a plain HEIC, decodes at
    /// 40.0 dB against pillow-heif; the fill is identical, and into a 190 px box 51.5 dB.
    static let leastPSNR = 40.0

    @Test func theOverlayIsParsed() throws {
        let overlay = try #require(HEIFImageItems.overlay(in: MemoryBytes(bytes: Self.bytes)))
        #expect((overlay.width, overlay.height) == (381, 263))
        #expect(overlay.fill == [0x3000, 0x9000, 0xd000, 0xffff])
        #expect(overlay.layers.map { [$0.left, $0.top] } == [[41, 31], [-27, 190]])
        #expect(overlay.layers.map { $0.alpha != nil } == [false, true])
        #expect(overlay.layers[1].image.transforms == [.rotate(quarterTurns: 1)])
    }

    @Test func composesLikePillowHeif() throws {
        let reference = try HEIFHighBitDepthTests.load("heif/overlay.pillow-heif.png")
        let (decoded, fast) = try Self.bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            let fast = HEIFHEVCDecoder.attempt(buffer, boxWidth: 1600, boxHeight: 1600,
                                               expectedSize: (header.displayWidth, header.displayHeight))
            return (try StillDecoding.pixels(buffer, header: header, box: (1600, 1600), upscale: false), fast)
        }
        if case .failure(let reason) = fast { Issue.record("the HEVC path declined the overlay: \(reason.message)") }
        let image = decoded.image
        #expect((image.width, image.height) == (381, 263))
        guard (image.width, image.height) == (reference.width, reference.height) else { return }
        let psnr = try CorpusAVIFCheck.psnr(image, reference)
        print("HEIC overlay: PSNR against pillow-heif \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= Self.leastPSNR, "\(psnr) dB")
        // The fill colour's top 8 bits where no layer is; the disc blended over it at the left edge.
        let fill = try TestImage.mean(image, around: 8, 8)
        #expect(zip(fill, [0x30, 0x90, 0xd0]).allSatisfy { abs($0 - Double($1)) < 1.5 }, "fill \(fill)")
        for point in [(6, 238), (200, 120), (45, 35)] {
            let ours = try TestImage.mean(image, around: point.0, point.1)
            let theirs = try TestImage.mean(reference, around: point.0, point.1)
            #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) < 4 }, "\(point): \(ours) vs \(theirs)")
        }
    }

    /// Into a smaller box the composed canvas is resized once: the same picture as
    /// pillow-heif's decode resized by libvips to that size.
    @Test func shrinksIntoTheBox() throws {
        let fast = try Self.bytes.withUnsafeBytes { HEIFHEVCDecoder.attempt($0, boxWidth: 190, boxHeight: 190) }.get()
        #expect((fast.width, fast.height) == (190, 131))
        let image = try ImageDecoder.decode(heic: fast).image
        let reference = try HEIFHighBitDepthTests.load("heif/overlay.pillow-heif.png")
        let resize = try VipsOperationCall("resize")
        try resize.set("in", .image(reference))
        try resize.set("scale", .double(190.0 / 381))
        try resize.set("vscale", .double(131.0 / 263))
        try resize.build()
        let smaller = try resize.outputImage()
        let psnr = try CorpusAVIFCheck.psnr(image, smaller)
        print("HEIC overlay into 190: PSNR against pillow-heif resized by libvips \(String(format: "%.2f", psnr)) dB")
        #expect(psnr >= 35, "\(psnr) dB")
    }
}
