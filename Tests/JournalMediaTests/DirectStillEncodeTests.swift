import CStillEncode
import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 19: WebP and JPEG renditions of 8-bit images in memory are encoded with libwebp and
/// libjpeg on the calling thread (`DirectWebPEncode`, `DirectJPEGEncode`) instead of through
/// libvips' threaded save. The files must be exactly what libvips 8.14's `webpsave_buffer`
/// (after `WebPMetadataRemover`) and `jpegsave_buffer` write with `strip` for the same
/// settings, on real photos: opaque RGB, grey, RGBA with real transparency, an odd size and a
/// one-pixel-wide strip. Stops, byte limits and declined images are checked too.
@Suite struct DirectStillEncodeTests {
    /// libvips' own encode with every setting the renderer could pass spelled out.
    func libvipsWebP(_ image: VipsImageHandle, quality: Int, effort: Int) throws -> [UInt8] {
        let save = try VipsOperationCall("webpsave_buffer")
        try save.set("in", .image(image))
        try save.set("Q", .int(quality))
        try save.set("effort", .int(effort))
        try save.set("strip", .bool(true))
        try save.build()
        return WebPMetadataRemover.removingMetadata(try save.outputBytes())
    }

    func libvipsJPEG(_ image: VipsImageHandle, quality: Int, optimize: Bool, progressive: Bool,
                     subsample: String) throws -> [UInt8] {
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(image))
        try save.set("Q", .int(quality))
        try save.set("optimize_coding", .bool(optimize))
        try save.set("interlace", .bool(progressive))
        try save.set("subsample_mode", .nick(subsample))
        try save.set("strip", .bool(true))
        try save.build()
        return try save.outputBytes()
    }

    /// A sample decoded into memory, then converted (`b-w`) or cut (`width`×`height` from the
    /// top left) and put back in memory: the kind of image a rendition encodes.
    func image(_ sample: String, grey: Bool = false, size: (Int, Int)? = nil) throws -> VipsImageHandle {
        var image = try TestImage(contentsOf: TestSupport.sample(sample)).image
        if grey {
            let convert = try VipsOperationCall("colourspace")
            try convert.set("in", .image(image))
            try convert.set("space", .nick("b-w"))
            try convert.build()
            image = try convert.outputImage().materialised()
        }
        if let (width, height) = size {
            let crop = try VipsOperationCall("extract_area")
            try crop.set("input", .image(image))
            try crop.set("left", .int(0))
            try crop.set("top", .int(0))
            try crop.set("width", .int(width))
            try crop.set("height", .int(height))
            try crop.build()
            image = try crop.outputImage().materialised()
        }
        return image
    }

    /// (sample, grey, size, bands the encoders see)
    static let webpCases: [(String, Bool, [Int], Int)] = [
        ("orientation-8-srgb.jpg", false, [], 3),
        ("orientation-8-srgb.jpg", true, [], 1),
        ("alpha-disc.png", false, [], 4),
        ("alpha-disc.png", true, [], 2),
        ("orientation-6-gps-p3.jpg", false, [333, 251], 3),
        ("orientation-8-srgb.jpg", false, [1, 240], 3),
    ]

    @Test(arguments: webpCases)
    func webpBytesAreLibvipsBytes(sample: String, grey: Bool, size: [Int], bands: Int) throws {
        let source = try image(sample, grey: grey, size: size.isEmpty ? nil : (size[0], size[1]))
        #expect(source.bands == bands)
        for quality in [30, 80, 95] {
            for effort in [0, 2, 4, 6] {
                let direct = try #require(try DirectWebPEncode.encode(source, quality: quality, effort: effort),
                                          "the direct encoder declined a \(source.width)×\(source.height)×\(bands) image")
                let reference = try libvipsWebP(source, quality: quality, effort: effort)
                #expect(direct == reference, "Q\(quality) effort \(effort): \(direct.count) B vs libvips \(reference.count) B")
            }
        }
    }

    /// An RGBA image whose alpha is real keeps it: the file carries an ALPH chunk and decodes
    /// with the same transparency.
    @Test func webpKeepsRealTransparency() throws {
        let source = try image("alpha-disc.png")
        let bytes = try #require(try DirectWebPEncode.encode(source, quality: 80, effort: 2))
        #expect(bytes.count > 30 && String(decoding: bytes[30..<34], as: UTF8.self) == "ALPH")
        let decoded = try TestImage(bytes)
        #expect(decoded.bands == 4)
        let corner = try decoded.pixel(0, 0), centre = try decoded.pixel(150, 150)
        #expect(corner[3] < 10 && centre[3] > 245, "alpha corner \(corner[3]), centre \(centre[3])")
    }

    static let jpegCases: [(String, Bool, [Int])] = [
        ("orientation-8-srgb.jpg", false, []),
        ("orientation-8-srgb.jpg", true, []),
        ("orientation-6-gps-p3.jpg", false, [333, 251]),
        ("orientation-8-srgb.jpg", false, [1, 240]),
    ]

    @Test(arguments: jpegCases)
    func jpegBytesAreLibvipsBytes(sample: String, grey: Bool, size: [Int]) throws {
        let source = try image(sample, grey: grey, size: size.isEmpty ? nil : (size[0], size[1]))
        for quality in [60, 85, 95] {
            for subsample in ["on", "off", "auto"] {
                for progressive in [false, true] {
                    for optimize in [false, true] {
                        let direct = try #require(try DirectJPEGEncode.encode(
                            source, quality: quality, optimizeCoding: optimize, progressive: progressive,
                            subsampleMode: subsample))
                        let reference = try libvipsJPEG(source, quality: quality, optimize: optimize,
                                                        progressive: progressive, subsample: subsample)
                        #expect(direct == reference,
                                "Q\(quality) \(subsample) progressive \(progressive) optimize \(optimize): \(direct.count) B vs \(reference.count) B")
                    }
                }
            }
        }
    }

    /// What a user would check with a JPEG tool: components, chroma sampling, progressive
    /// scans, and no APP markers.
    @Test func jpegHeadersSaySubsamplingAndScans() throws {
        let source = try image("orientation-8-srgb.jpg")
        func encoded(_ quality: Int, _ mode: String, progressive: Bool = false) throws -> [UInt8] {
            try #require(try DirectJPEGEncode.encode(source, quality: quality, optimizeCoding: false,
                                                     progressive: progressive, subsampleMode: mode))
        }
        func sampling(_ bytes: [UInt8]) throws -> String {
            let decoded = try TestImage(bytes).image
            var value: UnsafePointer<CChar>?
            guard vips_image_get_string(decoded.pointer, "jpeg-chroma-subsample", &value) == 0, let value else { return "?" }
            return String(cString: value)
        }
        #expect(try sampling(try encoded(85, "auto")) == "4:2:0")
        #expect(try sampling(try encoded(90, "auto")) == "4:4:4")
        #expect(try sampling(try encoded(95, "on")) == "4:2:0")
        #expect(try sampling(try encoded(60, "off")) == "4:4:4")
        let baseline = try encoded(85, "on"), progressive = try encoded(85, "on", progressive: true)
        #expect(Array(baseline.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xDB], "SOI then DQT: no JFIF or other APP marker")
        #expect(baseline.contains(sequence: [0xFF, 0xC0]) && !baseline.contains(sequence: [0xFF, 0xC2]))
        #expect(progressive.contains(sequence: [0xFF, 0xC2]))
        let grey = try #require(try DirectJPEGEncode.encode(try image("orientation-8-srgb.jpg", grey: true), quality: 85,
                                                            optimizeCoding: false, progressive: false, subsampleMode: "on"))
        #expect(try TestImage(grey).bands == 1)
    }

    /// Images the direct encoders do not take go to libvips: lazy images, 16-bit, CMYK-like
    /// band counts for JPEG, and WebP sides over 16383 px (libvips' "image too large").
    @Test func declinedImagesAreLeftToLibvips() throws {
        let photo = try image("orientation-8-srgb.jpg")
        let flip = try VipsOperationCall("flip")
        try flip.set("in", .image(photo))
        try flip.set("direction", .nick("horizontal"))
        try flip.build()
        let lazy = try flip.outputImage()
        #expect(try DirectWebPEncode.encode(lazy, quality: 80, effort: 2) == nil)
        #expect(try DirectJPEGEncode.encode(lazy, quality: 80, optimizeCoding: false, progressive: false,
                                            subsampleMode: "on") == nil)
        let wide = try VipsImageHandle.memoryImage(width: 16384, height: 1, bands: 3, interpretation: VIPS_INTERPRETATION_sRGB).image
        #expect(try DirectWebPEncode.encode(wide, quality: 80, effort: 2) == nil)
        #expect(try DirectWebPEncode.encode(photo, quality: 80, effort: 7) == nil, "libvips reports the effort's range")
        let rgba = try image("alpha-disc.png")
        #expect(try DirectJPEGEncode.encode(rgba, quality: 80, optimizeCoding: false, progressive: false,
                                            subsampleMode: "on") == nil)
    }

    /// libjpeg's fatal errors come back through the shared error manager (CJPEGErrors) as the
    /// encode's message, with the process and the next encode unharmed: a 70000 px wide image
    /// is over libjpeg's 65500 px limit.
    @Test func libjpegErrorBecomesTheMessage() throws {
        let wide = try VipsImageHandle.memoryImage(width: 70000, height: 1, bands: 3, interpretation: VIPS_INTERPRETATION_sRGB).image
        #expect {
            try DirectJPEGEncode.encode(wide, quality: 80, optimizeCoding: false, progressive: false, subsampleMode: "on")
        } throws: { error in
            (error as? VipsError)?.message == "jpegsave: libjpeg: Maximum supported image dimension is 65500 pixels"
        }
        let photo = try image("orientation-8-srgb.jpg")
        let after = try #require(try DirectJPEGEncode.encode(photo, quality: 80, optimizeCoding: false, progressive: false,
                                                             subsampleMode: "on"))
        #expect(try TestImage(after).width == photo.width)
    }

    /// A rendition with a byte limit still fits, through the direct encoder: its bytes are
    /// libvips' at one of the fitting qualities.
    @Test func byteLimitedRenditionStillFits() throws {
        let source = try image("orientation-8-srgb.jpg")
        var spec = RenditionSpec(role: "small", format: .jpeg, width: 400, height: 600, quality: 85)
        spec.maxBytes = 16_000
        let rendition = try RenditionRenderer.render(DecodedImage(image: source, hasRealTransparency: false), spec: spec,
                                                     sourceWidth: source.width, sourceHeight: source.height,
                                                     allowUpscale: false)
        #expect(rendition.data.count <= 16_000)
        #expect(rendition.width == 400 && rendition.height == 600, "fits by quality alone")
        let unlimited = try libvipsJPEG(source, quality: 85, optimize: true, progressive: false, subsample: "on")
        #expect(unlimited.count > 16_000, "the limit must force a lower quality (\(unlimited.count) B at Q85)")
        let matches = try [75, 65, 55, 45, 35].filter {
            try libvipsJPEG(source, quality: $0, optimize: true, progressive: false, subsample: "on") == rendition.data
        }
        #expect(matches.count == 1)
    }

    /// A guard that already says stop stops the encode before it starts, with the guard's message.
    @Test func stoppedGuardStopsBeforeEncoding() throws {
        let source = try image("orientation-8-srgb.jpg")
        let stop = DecodeGuard()
        stop.cancel()
        do {
            _ = try DirectWebPEncode.encode(source, quality: 80, effort: 2, stop: stop)
            Issue.record("the WebP encode ran under a cancelled guard")
        } catch {
            #expect(error.message == "cancelled")
        }
        do {
            _ = try DirectJPEGEncode.encode(source, quality: 80, optimizeCoding: false, progressive: false,
                                            subsampleMode: "on", stop: stop)
            Issue.record("the JPEG encode ran under a cancelled guard")
        } catch {
            #expect(error.message == "cancelled")
        }
    }

    /// A stop asked for part-way ends each encoder early: the C encoders ask between row
    /// batches (JPEG) and at libwebp's progress points (WebP) and return "stopped".
    @Test func stopPartWayEndsTheEncode() throws {
        let source = try image("orientation-6-gps-p3.jpg")
        let pixels = try #require(DirectStillEncode.pixels(of: source))
        final class Asked { var percents: [Int32] = [] }
        let asked = Asked()
        let stopAtHalf: jm_still_encode_should_stop = { context, percent in
            guard let context else { return 0 }
            let asked = Unmanaged<Asked>.fromOpaque(context).takeUnretainedValue()
            asked.percents.append(percent)
            return percent >= 50 ? 1 : 0
        }
        let context = Unmanaged.passUnretained(asked).toOpaque()
        var output = jm_still_encode_output()
        let settings = jm_jpeg_settings(quality: 85, optimize_coding: 0, progressive: 0, subsample: 1)
        let jpeg = jm_jpeg_encode(pixels.data, Int32(source.width), Int32(source.height), Int32(pixels.bands),
                                  pixels.stride, settings, stopAtHalf, context, &output)
        #expect(jpeg == JM_STILL_ENCODE_STOPPED && output.data == nil)
        #expect(asked.percents.count > 2 && (asked.percents.last ?? 0) >= 50 && (asked.percents.last ?? 100) < 100)
        asked.percents = []
        let webp = withExtendedLifetime(asked) {
            jm_webp_encode(pixels.data, Int32(source.width), Int32(source.height), Int32(pixels.bands), pixels.stride,
                           80, 2, stopAtHalf, context, &output)
        }
        #expect(webp == JM_STILL_ENCODE_STOPPED && output.data == nil)
        #expect(asked.percents.count > 1 && (asked.percents.last ?? 0) >= 50)
    }

    /// A deadline passing during a large encode stops it with the deadline's message (the
    /// guard notes how far the encode had got).
    @Test func deadlineStopsALargeEncode() throws {
        let large = try VipsImageHandle.memoryImage(width: 8000, height: 6000, bands: 3, interpretation: VIPS_INTERPRETATION_sRGB).image
        let data = try #require(large.pointer.pointee.data)
        var state: UInt32 = 12345
        let row = (0..<(8000 * 3)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        for y in 0..<6000 {
            row.withUnsafeBytes { UnsafeMutableRawBufferPointer(start: data + y * row.count, count: row.count).copyMemory(from: $0) }
        }
        let deadline = DecodeGuard(deadlineSeconds: 0.05)
        do {
            _ = try DirectJPEGEncode.encode(large, quality: 95, optimizeCoding: true, progressive: true, subsampleMode: "off",
                                            stop: deadline)
            Issue.record("a 48 MP encode finished inside 50 ms")
        } catch {
            #expect(error.message == "ran past its deadline")
            #expect((deadline.computationStoppedAt ?? 0) < 100)
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(sequence: [UInt8]) -> Bool {
        guard sequence.count <= count else { return false }
        return (0...(count - sequence.count)).contains { Array(self[$0..<$0 + sequence.count]) == sequence }
    }
}
