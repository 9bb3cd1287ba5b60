import CResampleKernel
import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaResampling

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

    /// The same Lanczos-3 taps applied in doubles (vertical, then horizontal, rounded once):
    /// what the fixed-point kernel approximates.
    func doublesReference(_ source: [UInt8], width: Int, height: Int, bands: Int,
                          outWidth: Int, outHeight: Int) -> [UInt8] {
        var columns = [Double](repeating: 0, count: width * outHeight * bands)
        for y in 0..<outHeight {
            let taps = SeparableResampler.realTaps(inSize: height, outSize: outHeight, position: y)
            for (k, weight) in taps.weights.enumerated() {
                let row = (taps.first + k) * width * bands
                for i in 0..<(width * bands) { columns[y * width * bands + i] += weight * Double(source[row + i]) }
            }
        }
        var out = [UInt8](repeating: 0, count: outWidth * outHeight * bands)
        for x in 0..<outWidth {
            let taps = SeparableResampler.realTaps(inSize: width, outSize: outWidth, position: x)
            for y in 0..<outHeight {
                for band in 0..<bands {
                    var sum = 0.0
                    for (k, weight) in taps.weights.enumerated() {
                        sum += weight * columns[(y * width + taps.first + k) * bands + band]
                    }
                    out[(y * outWidth + x) * bands + band] = UInt8(min(max(sum.rounded(), 0), 255))
                }
            }
        }
        return out
    }

    /// The 14-bit weights and 16-bit intermediate cost at most one level against doubles, for
    /// every band count, on a real photo's pixels (edges, texture) at the ratios renditions use.
    @Test(arguments: [(1, 160, 107), (2, 233, 150), (3, 197, 131), (4, 50, 33), (3, 299, 199)])
    func fixedPointMatchesDoublesWithinOneLevel(bands: Int, outWidth: Int, outHeight: Int) throws {
        let photo = try decoded("orientation-6-gps-p3.jpg")
        let width = 300, height = 200
        let rgb = try #require(try InMemoryResize.resized(photo, width: width, height: height))
        let data = try #require(rgb.pointer.pointee.data)
        // The photo's RGB turned into 1–4 bands: grey = G, alpha = a ramp with hard steps.
        var source = [UInt8](repeating: 0, count: width * height * bands)
        for i in 0..<(width * height) {
            let pixel = [data[3 * i], data[3 * i + 1], data[3 * i + 2], UInt8((i % width) * 255 / width & 0xF0)]
            switch bands {
            case 1: source[i] = pixel[1]
            case 2: source[2 * i] = pixel[1]; source[2 * i + 1] = pixel[3]
            default: for band in 0..<bands { source[bands * i + band] = pixel[band] }
            }
        }
        let fixed = source.withUnsafeBufferPointer { buffer in
            SeparableResampler.resize(buffer.baseAddress!, width: width, height: height, bands: bands,
                                      outWidth: outWidth, outHeight: outHeight)
        }
        let reference = doublesReference(source, width: width, height: height, bands: bands,
                                         outWidth: outWidth, outHeight: outHeight)
        #expect(fixed.count == reference.count)
        let differences = zip(fixed, reference).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 99 <= 1, "largest difference \(differences.max() ?? -1)")
        // Not a constant image: the comparison covered real detail.
        #expect(Set(fixed).count > 50)
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

    /// PSNR of the columns `columns` of two same-sized 8-bit in-memory images.
    func psnr(_ a: VipsImageHandle, _ b: VipsImageHandle, columns: Range<Int>) throws -> Double {
        guard let pa = a.pointer.pointee.data, let pb = b.pointer.pointee.data else {
            throw VipsError(message: "images not in memory")
        }
        var squares = 0.0, count = 0
        for y in 0..<a.height {
            for i in (y * a.width + columns.lowerBound) * a.bands..<(y * a.width + columns.upperBound) * a.bands {
                let d = Double(pa[i]) - Double(pb[i])
                squares += d * d
                count += 1
            }
        }
        return squares == 0 ? 99 : 10 * log10(255 * 255 / (squares / Double(count)))
    }

    /// A JPEG whose sides are not multiples of its DCT shrink (4217 × 2817 at 1/2 decodes to
    /// 2108 × 1408 samples of a 2108.5 × 1408.5 picture) is resampled as the picture it shows:
    /// the result matches a full-size decode resampled to the same size as well at the right
    /// edge as at the left. Scaled by the sample count instead, the output drifted by up to a
    /// source pixel across the width (corpus japanese-shop.jpg: 33.6 dB against a full-size
    /// reference, Pillow 37.7; 37.4 after).
    @Test func aDCTScaledDecodeOfAnOddSizedJPEGDoesNotDrift() throws {
        let sines = try VipsOperationCall("sines")
        try sines.set("width", .int(4217))
        try sines.set("height", .int(2817))
        try sines.set("hfreq", .double(4217 / 9.0))
        try sines.set("vfreq", .double(2817 / 11.0))
        try sines.build()
        let linear = try VipsOperationCall("linear")
        try linear.set("in", .image(try sines.outputImage()))
        try linear.set("a", .doubles([100, 90, 80]))
        try linear.set("b", .doubles([128, 120, 110]))
        try linear.set("uchar", .bool(true))
        try linear.build()
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(try linear.outputImage()))
        try save.set("Q", .int(95))
        try save.build()
        let jpeg = try save.outputBytes()
        let header = try ImageHeaderReader.read(Data(jpeg), format: .jpeg)
        #expect(ImageDecoder.jpegShrink(header, width: 1600, height: 1600) == 2, "the DCT-scaled path is the one under test")
        let decoded = try jpeg.withUnsafeBytes { bytes throws(VipsError) in
            try ImageDecoder.decode(bytes, header: header, width: 1600, height: 1600, allowUpscale: false).image
        }
        #expect(decoded.width == 1600 && decoded.height == 1069)
        let reference = try jpeg.withUnsafeBytes { bytes throws -> VipsImageHandle in
            let full = try VipsOperationCall("jpegload_buffer")
            try full.set("buffer", .borrowedBlob(bytes))
            try full.build()
            let whole = try full.outputImage().materialised()
            return try #require(try InMemoryResize.resized(whole, width: 1600, height: 1069))
        }
        let left = try psnr(decoded, reference, columns: 0..<400)
        let right = try psnr(decoded, reference, columns: 1200..<1600)
        print("DCT-scaled vs full-size decode, 1600 px: left quarter \(String(format: "%.1f", left)) dB, right quarter \(String(format: "%.1f", right)) dB")
        #expect(right > left - 3, "the right edge drifted: \(right) dB against \(left) dB at the left")
        #expect(right > 25)
    }

    /// The analysis pixels' RGB shortcut gives exactly the general box average's cells.
    /// The AVX2 kernels (four taps per step horizontally, 32 bytes per step vertically, a
    /// byte shuffle for the 3-band spread) give the SSE2 kernels' output bit for bit: every band
    /// count, odd and even sizes, tap counts that are and are not multiples of four. On a CPU
    /// without AVX2 both runs take the SSE2 path and the test is trivially true.
    @Test(arguments: [(1, 61, 37, 29, 20), (2, 97, 61, 40, 33), (3, 301, 203, 233, 157),
                      (3, 300, 200, 96, 64), (4, 129, 77, 128, 3), (3, 17, 9, 1, 1)])
    func avx2KernelsMatchSSE2BitForBit(bands: Int, width: Int, height: Int, outWidth: Int, outHeight: Int) {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let source = (0..<(width * height * bands)).map { i -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            // Noise over a ramp: hard edges and every level, so saturation and rounding are hit.
            return UInt8(truncatingIfNeeded: Int(state >> 59) &* 17 &+ (i % (width * bands)) &* 3)
        }
        func resize() -> [UInt8] {
            source.withUnsafeBufferPointer { buffer in
                SeparableResampler.resize(buffer.baseAddress!, width: width, height: height, bands: bands,
                                          outWidth: outWidth, outHeight: outHeight)
            }
        }
        let before = jm_resample_avx2(-1)
        _ = jm_resample_avx2(0)
        let sse2 = resize()
        _ = jm_resample_avx2(1)
        let avx2 = resize()
        _ = jm_resample_avx2(Int32(before))
        #expect(sse2 == avx2)
        // Not a constant image (the 1×1 case aside): the comparison covered real detail.
        if outWidth * outHeight > 16 { #expect(Set(avx2).count > 20) }
    }

    @Test(arguments: [(400, 600), (97, 61), (1, 1), (399, 3)])
    func opaqueBoxAverageEqualsTheGeneralOne(width: Int, height: Int) throws {
        let photo = try decoded("orientation-6-gps-p3.jpg")
        let image = width == photo.width ? photo : try #require(try InMemoryResize.resized(photo, width: width, height: height))
        let data = try #require(image.pointer.pointee.data)
        for (outWidth, outHeight) in [(min(100, width), min(67, height)), (1, 1), (min(33, width), 1)] {
            let general = AnalysisPixels.boxAverage(data, width: width, height: height, bands: 3, to: outWidth, outHeight)
            let opaque = AnalysisPixels.opaqueBoxAverage(data, width: width, height: height, to: outWidth, outHeight)
            #expect(opaque == general, "\(width)×\(height) → \(outWidth)×\(outHeight)")
        }
    }

    /// The RGBA loop (runs summed in registers) gives the general loop's bytes, alpha varied.
    @Test(arguments: [(400, 600), (97, 61), (1, 1), (399, 3)])
    func rgbaBoxAverageEqualsTheGeneralOne(width: Int, height: Int) throws {
        let image = try FastPathDifferentialTests.image(width: width, height: height, bands: 4)
        let data = try #require(image.pointer.pointee.data)
        for (outWidth, outHeight) in [(min(100, width), min(67, height)), (1, 1), (min(33, width), 1)] {
            let general = AnalysisPixels.boxAverage(data, width: width, height: height, bands: 4, to: outWidth, outHeight)
            let rgba = AnalysisPixels.rgbaBoxAverage(data, width: width, height: height, to: outWidth, outHeight)
            #expect(rgba == general, "\(width)×\(height) → \(outWidth)×\(outHeight)")
        }
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

    /// A small image's profile conversion straight through lcms, unoptimised
    /// (`DirectProfileTransform`), lands within one level of libvips' `icc_transform` of the
    /// same pixels with the same profile (Display P3 here), and does change the pixels.
    @Test func directProfileConversionMatchesIccTransformWithinOneLevel() throws {
        let photo = try decoded("orientation-6-gps-p3.jpg")
        let small = try #require(try InMemoryResize.resized(photo, width: 200, height: 300))
        var data: UnsafeRawPointer?
        var length = 0
        #expect(vips_image_get_blob(photo.pointer, VIPS_META_ICC_NAME, &data, &length) == 0)
        let start: UnsafeRawPointer = try #require(data)
        let profile = UnsafeRawBufferPointer(start: start, count: length)
        let direct = try #require(try DirectProfileTransform.toSRGB(small, profile: profile))
        vips_image_set_blob_copy(small.pointer, VIPS_META_ICC_NAME, profile.baseAddress, profile.count)
        let icc = try VipsOperationCall("icc_transform")
        try icc.set("in", .image(small))
        try icc.set("embedded", .bool(true))
        try icc.set("input_profile", .string("srgb"))
        try icc.set("output_profile", .string("srgb"))
        try icc.set("intent", .nick("relative"))
        try icc.build()
        let reference = try icc.outputImage().materialised()
        let count = 200 * 300 * 3
        let a = try #require(direct.pointer.pointee.data), b = try #require(reference.pointer.pointee.data)
        let c = try #require(small.pointer.pointee.data)
        var largest = 0, changed = 0
        for i in 0..<count {
            largest = max(largest, abs(Int(a[i]) - Int(b[i])))
            if a[i] != c[i] { changed += 1 }
        }
        #expect(largest <= 1, "largest difference \(largest)")
        #expect(changed > count / 10)
        // Larger images are left to icc_transform.
        #expect(try DirectProfileTransform.toSRGB(photo, profile: profile) == nil)
    }

    /// The usability check made with an unoptimised lcms transform answers as the one-pixel
    /// `icc_transform` it replaced, for a usable profile (Display P3) and for profiles lcms
    /// cannot convert from (a device link, a named-colour profile).
    @Test(arguments: ["orientation-6-gps-p3.jpg", "icc/link-profile.jpg", "icc/nmcl-profile.jpg"])
    func directProfileCheckAgreesWithTheOnePixelTransform(name: String) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall("jpegload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            let header = try load.outputImage()
            var data: UnsafeRawPointer?
            var length = 0
            #expect(vips_image_get_blob(header.pointer, VIPS_META_ICC_NAME, &data, &length) == 0)
            let profile = try #require(data)
            let direct = DirectProfileTransform.transformBuilds(
                profile: UnsafeRawBufferPointer(start: profile, count: length), bands: header.bands,
                format: header.format, interpretation: header.interpretation)
            let libvips = ImageHeaderReader.testTransform(like: header, space: .rgb, profile: profile, length: length)
            #expect(direct == libvips, "\(name): direct \(String(describing: direct)), libvips \(libvips)")
        }
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
