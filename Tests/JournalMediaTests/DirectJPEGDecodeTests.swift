import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The JPEG decode on the calling thread (`DirectJPEGDecode`, libjpeg through `CJPEGDecode`)
/// must give what libvips 8.14's `jpegload_buffer` gave: the same samples byte for byte at
/// each DCT scale, the same size, interpretation, resolution and ICC profile, the same
/// failures with the same words; and the in-memory orientation pass (`PixelOrientation`)
/// must give libvips' `autorot` pixels for all eight EXIF orientations.
@Suite struct DirectJPEGDecodeTests {
    /// What a decode gave: the pixels with their layout, or libvips' / our error text.
    struct Outcome: Equatable, CustomStringConvertible {
        var width = 0, height = 0, bands = 0
        var interpretation = VIPS_INTERPRETATION_ERROR
        var resolution = [Double]()
        var pixels = [UInt8]()
        var profile: [UInt8]?
        var failure: String?

        var description: String {
            failure.map { "failed: \($0)" } ?? "\(width)×\(height)×\(bands) \(interpretation) res \(resolution) "
                + "\(pixels.count) bytes, profile \(profile?.count ?? 0) bytes"
        }

        init(failure: String) { self.failure = failure }

        init(_ image: VipsImageHandle, profile: [UInt8]?) throws {
            let memory = try #require(image.memoryPixels, "a memory image")
            (width, height, bands) = (image.width, image.height, image.bands)
            interpretation = image.interpretation
            resolution = [image.pointer.pointee.Xres, image.pointer.pointee.Yres]
            pixels = Array(UnsafeBufferPointer(start: memory, count: width * height * bands))
            self.profile = profile
        }
    }

    /// libvips' loader: `jpegload_buffer` at 1/`shrink` with `fail_on`, pulled into memory
    /// through its sink (the decode the direct path replaces).
    static func libvips(_ bytes: [UInt8], shrink: Int, failOn: ImageDecoder.DecodeFailure) throws -> Outcome {
        try bytes.withUnsafeBytes { raw in
            do {
                let load = try VipsOperationCall("jpegload_buffer")
                try load.set("buffer", .borrowedBlob(raw))
                try load.set("shrink", .int(shrink))
                try load.set("fail_on", .nick(failOn.rawValue))
                try load.build()
                let loaded = try load.outputImage()
                var profile: [UInt8]?
                if loaded.hasField(VIPS_META_ICC_NAME) {
                    var data: UnsafeRawPointer?
                    var length = 0
                    #expect(vips_image_get_blob(loaded.pointer, VIPS_META_ICC_NAME, &data, &length) == 0)
                    profile = data.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: length)) }
                }
                return try Outcome(try loaded.materialised(), profile: profile)
            } catch let error as VipsError {
                return Outcome(failure: error.message)
            }
        }
    }

    /// The direct decode of the same bytes, with the resolution the header read reports.
    static func direct(_ bytes: [UInt8], shrink: Int, failOn: ImageDecoder.DecodeFailure) throws -> Outcome {
        try bytes.withUnsafeBytes { raw in
            let header = try ImageHeaderReader.read(raw, format: .jpeg)
            do {
                let decoded = try #require(try DirectJPEGDecode.decode(raw, shrink: shrink, failOn: failOn,
                                                                       resolution: header.resolution))
                return try Outcome(decoded.image, profile: decoded.profile)
            } catch let error as VipsError {
                return Outcome(failure: error.message)
            }
        }
    }

    static let layouts = [
        "orientation-8-srgb.jpg",               // RGB 4:2:0, sRGB profile
        "orientation-6-gps-p3.jpg",             // RGB 4:4:4, Display P3 profile
        "jpeg-decode/grey.jpg",                 // one grey channel
        "jpeg-decode/progressive.jpg",          // multi-scan
        "jpeg-decode/restart-interval.jpg",     // restart markers
        "jpeg-decode/odd-size.jpg",             // 397×301: no side a multiple of 2, 4, 8 or 16
        "jpeg-decode/subsample-422.jpg",        // RGB 4:2:2 (h2v1), cjpeg, JFIF without units
        "jpeg-decode/subsample-440.jpg",        // RGB 4:4:0 (h1v2), cjpeg
        "jpeg-decode/subsample-444.jpg",        // RGB 4:4:4, cjpeg, no profile
        "cmyk.jpg",                             // Adobe CMYK with a profile
        "jpeg-decode/cmyk-no-adobe.jpg",        // CMYK without the Adobe marker or a profile
        "jpeg-decode/ycck.jpg",                 // Adobe YCCK (transform 2), Y and K 2×2, no profile
        "icc/cmyk-small-untagged.jpg",          // small CMYK
        "dates/IMG-20230101-WA0001.jpg",        // 120×80 with EXIF
    ]

    @Test(arguments: layouts, [1, 2, 4, 8])
    func directDecodeIsLibvipsLoad(_ name: String, shrink: Int) throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
        let expected = try Self.libvips(bytes, shrink: shrink, failOn: .warning)
        #expect(expected.failure == nil, "\(expected)")
        let ours = try Self.direct(bytes, shrink: shrink, failOn: .warning)
        #expect(ours.failure == nil, "\(ours)")
        #expect((ours.width, ours.height, ours.bands) == (expected.width, expected.height, expected.bands))
        #expect(ours.interpretation == expected.interpretation)
        #expect(ours.resolution == expected.resolution)
        #expect(ours.profile == expected.profile)
        // A Bool, so a failure names the first differing byte instead of diffing ~1 M elements.
        let differing = zip(ours.pixels, expected.pixels).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(differing == nil && ours.pixels.count == expected.pixels.count,
                "\(name) at 1/\(shrink): the samples differ from byte \(differing ?? -1)")
    }

    /// A rendition of `name` made by libvips alone, none of our decode: `jpegload_buffer`,
    /// `autorot`, CMYK through `icc_transform` to sRGB (embedded profile, relative intent),
    /// `resize` to `width` px, in 8 bits.
    static func libvipsRendition(_ name: String, width: Int) throws -> TestImage {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
        return try bytes.withUnsafeBytes { raw in
            let load = try VipsOperationCall("jpegload_buffer")
            try load.set("buffer", .borrowedBlob(raw))
            try load.build()
            let autorot = try VipsOperationCall("autorot")
            try autorot.set("in", .image(try load.outputImage()))
            try autorot.build()
            var image = try autorot.outputImage()
            if image.bands == 4 {
                let icc = try VipsOperationCall("icc_transform")
                try icc.set("in", .image(image))
                try icc.set("output_profile", .string("srgb"))
                try icc.set("embedded", .bool(true))
                try icc.set("intent", .nick("relative"))
                try icc.build()
                image = try icc.outputImage()
            }
            let resize = try VipsOperationCall("resize")
            try resize.set("in", .image(image))
            try resize.set("scale", .double(Double(width) / Double(image.width)))
            try resize.build()
            return try TestImage(castToUchar: try resize.outputImage())
        }
    }

    /// The layouts only these samples have, as a person sees them: each converts to a rendition
    /// the right way up, in the colours of libvips' own rendition (`libvipsRendition`) of the
    /// file it was re-encoded from (4:2:0 orientation-8-srgb.jpg; cmyk.jpg for YCCK): each
    /// corner marker's patch and the mean colour close to it, at 300 px (decoded at 1/2) and
    /// 75 px (1/8). The RGB layouts also show the scene's marker colours (CMYK cannot print its
    /// blue and green).
    @Test(arguments: [("jpeg-decode/subsample-422.jpg", "orientation-8-srgb.jpg"),
                      ("jpeg-decode/subsample-440.jpg", "orientation-8-srgb.jpg"),
                      ("jpeg-decode/subsample-444.jpg", "orientation-8-srgb.jpg"),
                      ("jpeg-decode/ycck.jpg", "cmyk.jpg")])
    func layoutRendersUprightInItsColours(_ name: String, source: String) throws {
        for width in [300, 75] {
            let processor = AssetProcessor(options: ProcessingOptions(renditions: [
                RenditionSpec(role: "full", format: .png, width: width)]))
            let ours = processor.processBlocking(fileAt: TestSupport.sample(name), displayName: name)
            let image = try TestImage(try #require(ours.renditions.first, "\(ours.error?.message ?? "")").data)
            let reference = try Self.libvipsRendition(source, width: width)
            let height = width * 2 / 3
            #expect((image.width, image.height, image.bands) == (width, height, 3), "\(name) at \(width) px")
            #expect((reference.width, reference.height) == (width, height))
            if source != "cmyk.jpg" { try expectUprightMarkers(image) }
            let inset = max(3, width * 20 / 600)
            for (x, y) in [(inset, inset), (width - 1 - inset, inset), (inset, height - 1 - inset),
                           (width - 1 - inset, height - 1 - inset)] {
                let seen = try image.mean(around: x, y, size: 5), expected = try reference.mean(around: x, y, size: 5)
                #expect(colour(seen, isNear: expected, tolerance: 8),
                        "\(name) at \(width) px, (\(x), \(y)): \(seen.map { Int($0) }), libvips' \(source) \(expected.map { Int($0) })")
            }
            let mean = try image.image.averagePerBand(), expected = try reference.image.averagePerBand()
            #expect(colour(mean, isNear: expected, tolerance: 3),
                    "\(name) at \(width) px: mean \(mean.map { Int($0) }), libvips' \(source) \(expected.map { Int($0) })")
        }
    }

    /// The tagged Display P3 photo's profile comes through whole (it is what the colour
    /// conversion reads), and the odd-sized photo is rounded down at every scale as libvips does.
    @Test func profileAndRoundedDownSize() throws {
        let p3 = try [UInt8](Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")))
        let profile = try #require(try Self.direct(p3, shrink: 2, failOn: .warning).profile)
        #expect(profile.count > 500 && Array(profile[36..<40]) == Array("acsp".utf8))
        let odd = try [UInt8](Data(contentsOf: TestSupport.sample("jpeg-decode/odd-size.jpg")))
        for shrink in [2, 4, 8] {
            let ours = try Self.direct(odd, shrink: shrink, failOn: .warning)
            #expect((ours.width, ours.height) == (397 / shrink, 301 / shrink))
        }
    }

    /// Damaged files fail or decode as libvips' loader does at each level and scale: a cut
    /// file fails with "Premature end of input file" under both levels (missing pixels); a
    /// corrupt restart marker fails under `.warning` with libjpeg's complaint (except at 1/8,
    /// where libvips reads the 96×64 file in one 8-row strip and never looks at the warning)
    /// and decodes to libvips' pixels under `.truncated`.
    @Test(arguments: [ImageDecoder.DecodeFailure.warning, .truncated])
    func damagedFilesBehaveAsUnderLibvips(_ failOn: ImageDecoder.DecodeFailure) throws {
        let cutCorrupt = try LibvipsMessageAttributionTests.damaged("orientation-8-srgb.jpg", from: 0.5, to: 0.52)
        let inputs: [(String, [UInt8])] = [
            ("truncated.jpg", try [UInt8](Data(contentsOf: TestSupport.sample("truncated.jpg")))),
            ("restart-marker-damaged.jpg", try [UInt8](Data(contentsOf: TestSupport.sample("formats/restart-marker-damaged.jpg")))),
            ("srgb cut at 60 %", try LibvipsMessageAttributionTests.cut("orientation-8-srgb.jpg", keeping: 0.6)),
            ("srgb cut at 99.5 %", try LibvipsMessageAttributionTests.cut("orientation-8-srgb.jpg", keeping: 0.995)),
            ("srgb overwritten at 50–52 %", cutCorrupt),
        ]
        for (label, bytes) in inputs {
            for shrink in [1, 2, 4, 8] {
                let expected = try Self.libvips(bytes, shrink: shrink, failOn: failOn)
                let ours = try Self.direct(bytes, shrink: shrink, failOn: failOn)
                #expect(ours == expected, "\(label) at 1/\(shrink), fail_on=\(failOn.rawValue)")
            }
        }
        let truncated = try Self.direct(try [UInt8](Data(contentsOf: TestSupport.sample("truncated.jpg"))),
                                        shrink: 1, failOn: failOn)
        #expect(truncated.failure == "VipsJpeg: Premature end of input file")
        let restart = try [UInt8](Data(contentsOf: TestSupport.sample("formats/restart-marker-damaged.jpg")))
        let damaged = try Self.direct(restart, shrink: 1, failOn: failOn)
        if failOn == .warning {
            #expect(damaged.failure == "VipsJpeg: Corrupt JPEG data: found marker 0xd1 instead of RST5")
            #expect(AssetErrorReason.inferred(stage: .decode, message: damaged.failure ?? "") != .truncated,
                    "the photo source retries it leniently")
        } else {
            #expect(damaged.failure == nil && damaged.width == 96)
        }
    }

    /// The photo source's lenient retry still works through the direct decode: the damaged
    /// file decodes, with libjpeg's complaint among the warnings; the cut one fails as truncated.
    @Test func photoSourceRetriesLeniently() throws {
        let processor = AssetProcessor(options: ProcessingOptions())
        let damaged = processor.processBlocking(fileAt: TestSupport.sample("formats/restart-marker-damaged.jpg"),
                                                displayName: "damaged.jpg")
        #expect(damaged.error == nil && !damaged.renditions.isEmpty, "\(damaged.error?.message ?? "")")
        #expect(damaged.warnings?.contains { $0.contains("VipsJpeg: Corrupt JPEG data: found marker 0xd1") } == true)
        let cut = processor.processBlocking(fileAt: TestSupport.sample("truncated.jpg"), displayName: "cut.jpg")
        #expect(cut.error?.reason == .truncated, "\(cut.error?.message ?? "no error")")
        #expect(cut.error?.message.contains("Premature end of input file") == true)
    }

    /// All eight orientations of grey (1 band), RGB (3) and CMYK (4) decodes, at an odd size:
    /// the direct pass gives libvips' pixels, size and resolution, as a memory image.
    @Test(arguments: ["jpeg-decode/grey.jpg", "jpeg-decode/odd-size.jpg", "cmyk.jpg"])
    func orientationIsLibvipsAutorot(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
        let decoded = try bytes.withUnsafeBytes { raw in
            try #require(try DirectJPEGDecode.decode(raw, shrink: 2, failOn: .warning, resolution: (2.5, 3.5)))
        }
        let source = decoded.image
        for orientation in 1...8 {
            let ours = try ImageDecoder.oriented(source, orientation)
            let expected = try ImageDecoder.libvipsOriented(source, orientation).materialised()
            if orientation != 1 { #expect(ours.memoryPixels != nil, "orientation \(orientation): turned in memory") }
            let a = try Outcome(ours.memoryPixels != nil ? ours : ours.materialised(), profile: nil)
            let b = try Outcome(expected, profile: nil)
            #expect(a == b, "\(name), orientation \(orientation): \(a) vs \(b)")
        }
    }

    /// A stopped guard ends the decode with the interruption's words: before it starts
    /// (cancelled), and part-way through a large decode (its deadline passes while rows
    /// are being decoded; the guard records how far it got).
    @Test func stoppedGuardEndsTheDecode() throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg")))
        let cancelled = DecodeGuard()
        cancelled.cancel()
        // The guard is handed down (none is installed on the thread).
        let early = bytes.withUnsafeBytes { raw in
            Result { () throws(VipsError) in
                try DirectJPEGDecode.decode(raw, shrink: 1, failOn: .warning, resolution: (1, 1), stop: cancelled)
            }
        }
        #expect(throws: VipsError.self) { try early.get() }
        if case .failure(let error) = early { #expect(error.message == "cancelled") }

        // 6000×4000 of noise (hundreds of milliseconds to decode).
        let large = try CraftedFiles.noiseJPEG(width: 6000, height: 4000)
        let deadline = DecodeGuard(deadlineSeconds: 0.05)
        let late = large.withUnsafeBytes { raw in
            Result { () throws(VipsError) in
                try DirectJPEGDecode.decode(raw, shrink: 1, failOn: .warning, resolution: (1, 1), stop: deadline)
            }
        }
        if case .failure(let error) = late { #expect(error.message == "ran past its deadline") } else {
            Issue.record("a 24 MP decode finished inside 50 ms")
        }
        let stoppedAt = try #require(deadline.computationStoppedAt, "stopped inside the decode")
        #expect((0..<100).contains(stoppedAt))
    }
}
