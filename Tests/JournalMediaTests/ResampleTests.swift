import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The rendition path's own resampler (`SeparableResampler` via `InMemoryResize`) and the
/// sRGB-profile shortcut (`SRGBProfileMatch`): close to libvips' Lanczos-3, exact on flat
/// colour, and colour-correct when the transform is skipped.
@Suite struct ResampleTests {
    /// A decoded sample in memory, 8-bit, as the rendition step sees it.
    func decoded(_ name: String) throws -> VipsImageHandle {
        try TestImage(contentsOf: TestSupport.sample(name)).image
    }

    func psnr(_ a: VipsImageHandle, _ b: VipsImageHandle) throws -> Double {
        #expect(a.width == b.width && a.height == b.height && a.bands == b.bands)
        let count = a.width * a.height * a.bands
        guard let pa = a.pointer.pointee.data, let pb = b.pointer.pointee.data else {
            throw VipsError(message: "images not in memory")
        }
        var squares = 0.0
        for i in 0..<count {
            let d = Double(pa[i]) - Double(pb[i])
            squares += d * d
        }
        return squares == 0 ? 99 : 10 * log10(255 * 255 / (squares / Double(count)))
    }

    @Test func flatColourStaysExactlyFlat() throws {
        let pixels = [UInt8](repeating: 0, count: 0) + (0..<(97 * 61)).flatMap { _ in [UInt8(200), 17, 90, 255] }
        let out = pixels.withUnsafeBufferPointer { buffer in
            SeparableResampler.resize(buffer.baseAddress!, width: 97, height: 61, bands: 4, outWidth: 40, outHeight: 33)
        }
        #expect(out.count == 40 * 33 * 4)
        for pixel in stride(from: 0, to: out.count, by: 4) {
            #expect(Array(out[pixel..<pixel + 4]) == [200, 17, 90, 255], "pixel \(pixel / 4)")
        }
    }

    @Test(arguments: [(600, 400, 469, 313), (600, 400, 512, 341), (600, 400, 96, 64)])
    func closeToLibvipsLanczos3(width: Int, height: Int, outWidth: Int, outHeight: Int) throws {
        // The sideways P3 sample decoded upright, as the decode hands it on.
        let result = AssetProcessor(options: ProcessingOptions(renditions: [
            RenditionSpec(role: "fallback", format: .png, width: width, quality: 100),
        ])).processBlocking(fileAt: TestSupport.sample("orientation-6-gps-p3.jpg"), displayName: "p3")
        let source = try TestImage(try #require(result.renditions.first).data).image
        #expect(source.width == width && source.height == height)
        let ours = try #require(try InMemoryResize.resized(source, width: outWidth, height: outHeight))
        let resize = try VipsOperationCall("resize")
        try resize.set("in", .image(source))
        try resize.set("scale", .double(Double(outWidth) / Double(width)))
        try resize.set("vscale", .double(Double(outHeight) / Double(height)))
        try resize.set("kernel", .nick("lanczos3"))
        try resize.build()
        let theirs = try resize.outputImage().materialised()
        #expect(ours.width == outWidth && ours.height == outHeight && ours.bands == 3)
        #expect(ours.interpretation == VIPS_INTERPRETATION_sRGB)
        let similarity = try psnr(ours, theirs)
        #expect(similarity > 38, "PSNR against libvips' lanczos3: \(similarity) dB")
    }

    @Test func declinesWhatItDoesNotHandle() throws {
        let image = try decoded("orientation-6-gps-p3.jpg")
        #expect(try InMemoryResize.resized(image, width: image.width + 1, height: image.height) == nil, "no enlarging")
        #expect(try InMemoryResize.resized(image, width: image.width, height: image.height) == nil, "same size")
    }

    @Test func srgbProfilesAreRecognisedAndOthersNot() throws {
        func header(_ name: String) throws -> ImageHeader {
            let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
            return try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: .jpeg) }
        }
        let srgb = try header("orientation-8-srgb.jpg")
        #expect(srgb.hasProfile && srgb.profileIsSRGB)
        for name in ["orientation-6-gps-p3.jpg", "cmyk.jpg", "icc/link-profile.jpg", "icc/nmcl-profile.jpg"] {
            let other = try header(name)
            #expect(other.hasProfile && !other.profileIsSRGB, "\(name)")
        }
        #expect(!SRGBProfileMatch.matches(UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    @Test func srgbTaggedJPEGIsUprightWithItsColours() throws {
        // Stored turned 90° clockwise with orientation 8, tagged sRGB: the transform is
        // skipped, the markers must still be upright and at their sRGB values.
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("orientation-8-srgb.jpg"),
                                                      displayName: "srgb")
        #expect(result.error == nil)
        #expect(result.width == 600 && result.height == 400 && result.orientation == 8)
        for role in ["thumbnail", "fallback"] {
            let rendition = try #require(result.renditions.first { $0.role == role })
            let image = try TestImage(rendition.data)
            #expect(!image.image.hasField(VIPS_META_ICC_NAME))
            try expectUprightMarkers(image, tolerance: 12)
        }
    }
}
