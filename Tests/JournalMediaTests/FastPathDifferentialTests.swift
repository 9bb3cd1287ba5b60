import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Issue 33, item 5: each fast path (`FastPath`) against the library path it replaces, on the
/// samples and on files generated here by the real encoders (libjpeg, libwebp, x265 and libaom
/// through libvips' savers): 1×1, 1×N and N×1, odd and prime sizes, grey, alpha, CMYK,
/// progressive, restart markers. Each test states its tolerance and prints the worst case it
/// measured (`FASTPATH <name>: …`, the figures of docs/fast-paths.md). The library side runs
/// through the same call with `FastPaths.libraryPathsInThisTask` set, as
/// `JOURNAL_MEDIA_LIBRARY_PATHS=1` would run it.
@Suite struct FastPathDifferentialTests {
    // MARK: generated images

    /// Edge-case sizes: a single pixel, single rows and columns, primes, odd sizes.
    static let sizes: [(Int, Int)] = [(1, 1), (1, 37), (37, 1), (2, 3), (13, 7), (101, 53), (257, 17)]

    /// A deterministic picture: gradients, a hard-edged checker and noise on the colour bands; the
    /// alpha band (2 or 4 bands) clear on the left third, half-clear in the middle, opaque right.
    static func pattern(width: Int, height: Int, bands: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var out = [UInt8](repeating: 0, count: width * height * bands)
        let alpha = bands == 2 || bands == 4
        for y in 0..<height {
            for x in 0..<width {
                for band in 0..<bands {
                    state ^= state << 13; state ^= state >> 7; state ^= state << 17
                    let noise = Int(state % 25) - 12
                    let value: Int
                    if alpha && band == bands - 1 {
                        value = x * 3 < width ? 0 : x * 3 < 2 * width ? 128 + noise : 255
                    } else {
                        let gx = x * 255 / max(1, width - 1), gy = y * 255 / max(1, height - 1)
                        let checker = ((x / 5 + y / 3) % 2) * 70
                        value = (band % 3 == 0 ? gx : band % 3 == 1 ? gy : (gx + gy) / 2) / 2 + checker + 40 + noise
                    }
                    out[(y * width + x) * bands + band] = UInt8(clamping: value)
                }
            }
        }
        return out
    }

    static func image(width: Int, height: Int, bands: Int, interpretation: VipsInterpretation? = nil,
                      seed: UInt64 = 1) throws -> VipsImageHandle {
        // libvips initialised first: a memory image made before vips_init races another test's.
        try VipsRuntime.ensure()
        let pixels = pattern(width: width, height: height, bands: bands, seed: seed)
        let (image, target) = try VipsImageHandle.memoryImage(
            width: width, height: height, bands: bands,
            interpretation: interpretation ?? (bands <= 2 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB))
        pixels.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: pixels.count) }
        return image
    }

    /// A saver's output (`jpegsave_buffer`, `heifsave_buffer`…) with the given options.
    static func encoded(_ image: VipsImageHandle, saver: String, _ options: [(String, JournalMediaImaging.VipsArgument)]) throws -> [UInt8] {
        let save = try VipsOperationCall(saver)
        try save.set("in", .image(image))
        for (name, value) in options { try save.set(name, value) }
        try save.build()
        return try save.outputBytes()
    }

    // MARK: comparison

    /// How far apart two images' 8-bit samples are; alpha images compared premultiplied (the
    /// colour of invisible pixels does not count).
    struct Difference: CustomStringConvertible {
        var psnr = 99.0, maxDiff = 0, meanDiff = 0.0
        var description: String { String(format: "PSNR %.1f dB, max %d, mean %.2f", psnr, maxDiff, meanDiff) }

        static func between(_ a: [UInt8], _ b: [UInt8], bands: Int, alpha: Bool) -> Difference {
            precondition(a.count == b.count)
            var squares = 0.0, sum = 0.0, worst = 0
            for pixel in stride(from: 0, to: a.count, by: bands) {
                let wa = alpha ? Double(a[pixel + bands - 1]) / 255 : 1, wb = alpha ? Double(b[pixel + bands - 1]) / 255 : 1
                for band in 0..<bands {
                    let last = alpha && band == bands - 1
                    let d = last ? Double(a[pixel + band]) - Double(b[pixel + band])
                        : Double(a[pixel + band]) * wa - Double(b[pixel + band]) * wb
                    squares += d * d
                    sum += abs(d)
                    worst = max(worst, Int(abs(d).rounded()))
                }
            }
            let count = Double(max(1, a.count))
            return Difference(psnr: squares == 0 ? 99 : 10 * log10(255 * 255 / (squares / count)),
                              maxDiff: worst, meanDiff: sum / count)
        }

        static func between(_ a: VipsImageHandle, _ b: VipsImageHandle) throws -> Difference {
            let x = try TestImage(castToUchar: a).image, y = try TestImage(castToUchar: b).image
            try #require(x.width == y.width && x.height == y.height && x.bands == y.bands,
                         "\(x.width)×\(x.height)×\(x.bands) vs \(y.width)×\(y.height)×\(y.bands)")
            let count = x.width * x.height * x.bands
            let pa = try #require(x.memoryPixels), pb = try #require(y.memoryPixels)
            return between(Array(UnsafeBufferPointer(start: pa, count: count)), Array(UnsafeBufferPointer(start: pb, count: count)),
                           bands: x.bands, alpha: x.hasAlpha)
        }

        mutating func worsen(_ other: Difference) {
            psnr = min(psnr, other.psnr)
            maxDiff = max(maxDiff, other.maxDiff)
            meanDiff = max(meanDiff, other.meanDiff)
        }
    }

    static func report(_ name: String, _ worst: Difference, cases: Int, declined: [String] = []) {
        print("FASTPATH \(name): \(cases) cases, worst \(worst)"
              + (declined.isEmpty ? "" : "; declined (library path): \(declined.joined(separator: ", "))"))
    }

    /// The photo source's decode of `bytes` into `box` on the fast paths and on the library paths.
    static func bothDecodes(_ bytes: [UInt8], format: SourceFormat, box: (width: Int, height: Int)? = nil) throws
        -> (fast: VipsImageHandle, library: VipsImageHandle) {
        try bytes.withUnsafeBytes { raw in
            func decode(libraryPaths: Bool) throws -> VipsImageHandle {
                try FastPaths.$libraryPathsInThisTask.withValue(libraryPaths) {
                    let header = try ImageHeaderReader.read(raw, format: format)
                    let size = box ?? (header.displayWidth, header.displayHeight)
                    return try StillDecoding.pixels(raw, header: header, box: size, upscale: false, failOn: .warning).image
                }
            }
            return (try decode(libraryPaths: false), try decode(libraryPaths: true))
        }
    }

    // MARK: the fast paths

    /// `jpegDecode`: the decode on the calling thread gives libvips' `jpegload_buffer` samples byte
    /// for byte at each DCT scale. Tolerance: identical samples (max difference 0).
    @Test func jpegDecodeOnGeneratedFiles() throws {
        var cases = 0
        for (width, height) in Self.sizes {
            let layouts: [(String, VipsImageHandle, [(String, JournalMediaImaging.VipsArgument)])] = [
                ("rgb 4:2:0", try Self.image(width: width, height: height, bands: 3), [("Q", .int(75))]),
                ("rgb 4:4:4", try Self.image(width: width, height: height, bands: 3), [("Q", .int(95)), ("subsample_mode", .nick("off"))]),
                ("grey", try Self.image(width: width, height: height, bands: 1), [("Q", .int(80))]),
                ("progressive", try Self.image(width: width, height: height, bands: 3), [("Q", .int(85)), ("interlace", .bool(true))]),
                ("restart markers", try Self.image(width: width, height: height, bands: 3), [("Q", .int(85)), ("restart_interval", .int(1))]),
                ("cmyk", try Self.image(width: width, height: height, bands: 4, interpretation: VIPS_INTERPRETATION_CMYK), [("Q", .int(90))]),
            ]
            for (name, image, options) in layouts {
                let bytes = try Self.encoded(image, saver: "jpegsave_buffer", options + [("strip", .bool(true))])
                // libvips 8.14's jpegload aborts the process (a 0-pixel image fails its sanity
                // check) when a side is smaller than the shrink; the pipeline never asks for that.
                for shrink in [1, 2, 4, 8] where min(width, height) >= shrink {
                    let expected = try DirectJPEGDecodeTests.libvips(bytes, shrink: shrink, failOn: .warning)
                    let ours = try DirectJPEGDecodeTests.direct(bytes, shrink: shrink, failOn: .warning)
                    #expect(expected.failure == nil && ours.failure == nil, "\(name) \(width)×\(height) 1/\(shrink): \(expected) / \(ours)")
                    #expect(ours == expected, "\(name) \(width)×\(height) at 1/\(shrink): \(ours) vs \(expected)")
                    cases += 1
                }
            }
        }
        Self.report("jpegDecode", Difference(), cases: cases)
    }

    /// `jpegResampledDecode`, `profileTransform`, `srgbProfileMatch`, `heicDecode`, `avifDecode`:
    /// the photo source's decode of every JPEG, HEIC and AVIF sample, whole and into a box a
    /// third of its size, on both paths. Tolerance: PSNR ≥ 30 dB and a mean difference under 3
    /// levels (lossy decoders' chroma upsampling and rounding differ; the known colour gaps of
    /// LibraryPathsTests — nclx P3 and PQ, which libvips 8.14 gets wrong, the irot-first grid
    /// libheif 1.15 refuses, and the overlay whose layer at a negative offset libheif 1.15
    /// mis-draws, compared with pillow-heif in HEIFOverlayTests — are left out).
    @Test func photoDecodesOfTheSamples() throws {
        let knownGaps: Set = ["heif/nclx-p3.heic", "heif/avif-hdr-pq-p3-10bit-rot270.avif", "heif/10bit-422-grid-irot-first.heic",
                              "heif/overlay.heic"]
        var names = ["orientation-8-srgb.jpg", "orientation-6-gps-p3.jpg", "cmyk.jpg", "photo.heic", "photo-p3-rotated.heic"]
        names += try FileManager.default.contentsOfDirectory(atPath: TestSupport.sample("heif").path)
            .filter { $0.hasSuffix(".heic") || $0.hasSuffix(".avif") }.sorted().map { "heif/\($0)" }
        names += try FileManager.default.contentsOfDirectory(atPath: TestSupport.sample("jpeg-decode").path)
            .filter { $0.hasSuffix(".jpg") }.sorted().map { "jpeg-decode/\($0)" }
        var worst = Difference(), cases = 0
        for name in names where !knownGaps.contains(name) {
            let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
            let format: SourceFormat = name.hasSuffix(".avif") ? .avif : name.hasSuffix(".heic") ? .heic : .jpeg
            let header = try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: format) }
            for box in [(header.displayWidth, header.displayHeight),
                        (max(1, header.displayWidth / 3), max(1, header.displayHeight / 3))] {
                let (fast, library) = try Self.bothDecodes(bytes, format: format, box: box)
                let difference = try Difference.between(fast, library)
                #expect(difference.psnr >= 30 && difference.meanDiff < 3, "\(name) into \(box): \(difference)")
                worst.worsen(difference)
                cases += 1
            }
        }
        Self.report("photo decodes (samples)", worst, cases: cases)
    }

    /// `heicDecode` and `avifDecode` on generated files (x265 and libaom through libvips'
    /// `heifsave`, 4:2:0, quality 90): odd, prime, single-row and single-column sizes. A size the
    /// fast path declines goes to libheif, which the pipeline does too. Tolerance: PSNR ≥ 30 dB,
    /// mean difference under 3 levels.
    @Test(arguments: ["hevc", "av1"])
    func heifStillsOnGeneratedFiles(_ compression: String) throws {
        var worst = Difference(), cases = 0
        var declined: [String] = []
        for (width, height) in Self.sizes + [(64, 64), (199, 97)] {
            let image = try Self.image(width: width, height: height, bands: 3)
            let bytes = try Self.encoded(image, saver: "heifsave_buffer",
                                         [("compression", .nick(compression)), ("Q", .int(90)), ("strip", .bool(true))])
            let format: SourceFormat = compression == "av1" ? .avif : .heic
            let fastTaken = bytes.withUnsafeBytes { raw in
                compression == "av1"
                    ? AVIFAV1Decoder.decode(raw, boxWidth: width, boxHeight: height) != nil
                    : HEIFHEVCDecoder.decode(raw, boxWidth: width, boxHeight: height) != nil
            }
            guard fastTaken else { declined.append("\(width)×\(height)"); continue }
            let (fast, library) = try Self.bothDecodes(bytes, format: format)
            let difference = try Difference.between(fast, library)
            #expect(difference.psnr >= 30 && difference.meanDiff < 3, "\(compression) \(width)×\(height): \(difference)")
            worst.worsen(difference)
            cases += 1
        }
        #expect(cases >= 4, "the fast path took too few of the generated files: declined \(declined)")
        Self.report("\(compression == "av1" ? "avifDecode" : "heicDecode") (generated)", worst, cases: cases, declined: declined)
    }

    /// `resize`: the fixed-point Lanczos 3 against libvips' `resize` (kernel lanczos3) on
    /// generated images of 1–4 bands (alpha premultiplied on both sides, compared premultiplied),
    /// down to single rows and columns and odd sizes. Tolerance: PSNR ≥ 34 dB, max difference
    /// ≤ 48 levels (libvips 8.14's `reduce` rounds its taps to 1/64 and treats edges by
    /// replication, ours by renormalising; the worst pixels sit on the checker's hard edges).
    @Test func resizeOnGeneratedImages() throws {
        let shapes: [((Int, Int), (Int, Int))] = [
            ((1, 37), (1, 11)), ((37, 1), (11, 1)), ((3, 3), (1, 1)), ((13, 7), (5, 3)), ((101, 53), (97, 51)),
            ((257, 17), (64, 4)), ((640, 480), (199, 149)), ((600, 400), (469, 313)),
        ]
        var worst = Difference(), cases = 0
        for bands in 1...4 {
            for ((width, height), (outWidth, outHeight)) in shapes {
                let source = try Self.image(width: width, height: height, bands: bands)
                let ours = try #require(try InMemoryResize.resized(source, width: outWidth, height: outHeight),
                                        "declined \(width)×\(height)×\(bands)")
                // With alpha, libvips' resize of premultiplied pixels (as its thumbnail does):
                // the renderer's library path resizes unpremultiplied, so the colour of clear
                // pixels bleeds into their neighbours there (LibraryPathsTests compares such
                // renditions premultiplied).
                func call(_ name: String, _ input: VipsImageHandle, _ settings: [(String, JournalMediaImaging.VipsArgument)] = [])
                    throws -> VipsImageHandle {
                    let operation = try VipsOperationCall(name)
                    try operation.set("in", .image(input))
                    for (key, value) in settings { try operation.set(key, value) }
                    try operation.build()
                    return try operation.outputImage()
                }
                let alpha = bands == 2 || bands == 4
                var theirs = try call("resize", alpha ? try call("premultiply", source) : source,
                                      [("scale", .double(Double(outWidth) / Double(width))),
                                       ("vscale", .double(Double(outHeight) / Double(height))), ("kernel", .nick("lanczos3"))])
                if alpha { theirs = try call("unpremultiply", theirs) }
                theirs = try theirs.materialised()
                let difference = try Difference.between(ours, theirs)
                #expect(difference.psnr >= 34 && difference.maxDiff <= 48,
                        "\(width)×\(height)×\(bands) → \(outWidth)×\(outHeight): \(difference)")
                worst.worsen(difference)
                cases += 1
            }
        }
        Self.report("resize", worst, cases: cases)
    }

    /// `stillEncode`: the JPEG and WebP encodes on the calling thread give libvips' `jpegsave` /
    /// `webpsave` bytes. Tolerance: identical files.
    @Test func stillEncodesOnGeneratedImages() throws {
        let library = DirectStillEncodeTests()
        var cases = 0
        var declined: [String] = []
        for (width, height) in Self.sizes {
            for bands in [1, 3] {
                let image = try Self.image(width: width, height: height, bands: bands)
                for (quality, subsample, progressive) in [(40, "auto", false), (92, "auto", true), (75, "on", false), (75, "off", true)] {
                    guard let ours = try DirectJPEGEncode.encode(image, quality: quality, optimizeCoding: progressive,
                                                                 progressive: progressive, subsampleMode: subsample) else {
                        declined.append("jpeg \(width)×\(height)×\(bands)"); continue
                    }
                    let theirs = try library.libvipsJPEG(image, quality: quality, optimize: progressive,
                                                         progressive: progressive, subsample: subsample)
                    #expect(ours == theirs, "jpeg \(width)×\(height)×\(bands) q\(quality) \(subsample) \(progressive)")
                    cases += 1
                }
            }
            for bands in [3, 4] {
                let image = try Self.image(width: width, height: height, bands: bands)
                guard let ours = try DirectWebPEncode.encode(image, quality: 75, effort: 2) else {
                    declined.append("webp \(width)×\(height)×\(bands)"); continue
                }
                let theirs = try library.libvipsWebP(image, quality: 75, effort: 2)
                #expect(ours == theirs, "webp \(width)×\(height)×\(bands)")
                cases += 1
            }
        }
        Self.report("stillEncode", Difference(), cases: cases, declined: declined)
    }

    /// `profileTransform`: lcms called directly against libvips' `icc_transform` (relative
    /// intent) from the Display P3 profile of a sample and from libvips' built-in CMYK profile,
    /// on generated images. Tolerance: max difference 1 level.
    @Test func profileTransformOnGeneratedImages() throws {
        let photo = try TestImage(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")).image
        var data: UnsafeRawPointer?
        var length = 0
        #expect(vips_image_get_blob(photo.pointer, VIPS_META_ICC_NAME, &data, &length) == 0)
        let start: UnsafeRawPointer = try #require(data)
        let p3 = [UInt8](UnsafeRawBufferPointer(start: start, count: length))
        let cmyk = try #require(DirectProfileTransform.cmykProfile)
        var worst = Difference(), cases = 0
        for (width, height) in Self.sizes {
            for (profile, bands) in [(p3, 3), (cmyk, 4)] {
                let image = try Self.image(width: width, height: height, bands: bands,
                                           interpretation: bands == 4 ? VIPS_INTERPRETATION_CMYK : VIPS_INTERPRETATION_sRGB)
                let ours = try #require(try profile.withUnsafeBytes { try DirectProfileTransform.toSRGB(image, profile: $0) })
                vips_image_set_blob_copy(image.pointer, VIPS_META_ICC_NAME, profile, profile.count)
                let icc = try VipsOperationCall("icc_transform")
                try icc.set("in", .image(image))
                try icc.set("embedded", .bool(true))
                try icc.set("input_profile", .string(bands == 4 ? "cmyk" : "srgb"))
                try icc.set("output_profile", .string("srgb"))
                try icc.set("intent", .nick("relative"))
                try icc.build()
                let difference = try Difference.between(ours, try icc.outputImage().materialised())
                #expect(difference.maxDiff <= 1, "\(bands == 4 ? "cmyk" : "p3") \(width)×\(height): \(difference)")
                worst.worsen(difference)
                cases += 1
            }
        }
        Self.report("profileTransform", worst, cases: cases)
    }

    /// `cardPNG`: the cards' own PNG coder (its own deflate) decodes, through libpng, to exactly
    /// the pixels it was given, as libvips' `pngsave` would. Tolerance: identical pixels.
    @Test func cardPNGOnGeneratedImages() throws {
        var cases = 0
        var ratio = 0.0
        for (width, height) in Self.sizes + [(640, 3), (3, 640), (512, 512)] {
            for seed: UInt64 in [1, 7] {
                let pixels = Self.pattern(width: width, height: height, bands: 3, seed: seed)
                let ours = pixels.withUnsafeBufferPointer { CardPNGEncoder.encode($0.baseAddress!, width: width, height: height) }
                let decoded = try TestImage(ours).image
                #expect(decoded.width == width && decoded.height == height && decoded.bands == 3)
                let count = width * height * 3
                let back = Array(UnsafeBufferPointer(start: try #require(decoded.memoryPixels), count: count))
                #expect(back == pixels, "\(width)×\(height) seed \(seed)")
                let source = try Self.image(width: width, height: height, bands: 3, seed: seed)
                let theirs = try Self.encoded(source, saver: "pngsave_buffer", [("strip", .bool(true))])
                let libpng = try TestImage(theirs).image
                #expect(Array(UnsafeBufferPointer(start: try #require(libpng.memoryPixels), count: count)) == back)
                ratio = max(ratio, Double(ours.count) / Double(theirs.count))
                cases += 1
            }
        }
        print(String(format: "FASTPATH cardPNG: %d cases, identical pixels; largest size against pngsave %.2f×", cases, ratio))
    }

    /// `hdrToneCurve`: the table path against libavfilter's zscale + tonemap graph on the HDR
    /// samples, at poster size. Tolerance: mean luma within 15 levels, colourfulness within 10 %
    /// (HDRToneMapTests' measure). Pixel by pixel they differ more where the YUV → R'G'B'
    /// conversion leaves 0…1 (the HLG sample is a synthetic pattern; zimg linearises such values
    /// unclipped, swscale clips them first), so mean and largest differences are printed only.
    /// The PQ sample's DCI-P3 primaries are not the table path's: both sides are the graph.
    @Test(arguments: ["video-hdr-hlg.mov", "video-hdr-pq-dci-p3.mov"])
    func hdrToneCurveOnTheSamples(_ name: String) throws {
        let c = try HDRToneMapTests.compare(MediaSamples.path(name), maxDimension: 480)
        #expect(abs(c.table.luma - c.graph.luma) < 15, "\(name): luma \(c.table.luma) vs \(c.graph.luma)")
        #expect(abs(c.table.chroma - c.graph.chroma) <= c.graph.chroma * 0.1, "\(name): chroma \(c.table.chroma) vs \(c.graph.chroma)")
        print(String(format: "FASTPATH hdrToneCurve %@: luma %.1f vs %.1f, colourfulness %.1f vs %.1f, mean |d| %.2f, max %d",
                     name, c.table.luma, c.graph.luma, c.table.chroma, c.graph.chroma, c.meanAbsoluteDifference, c.maxDifference))
    }

    // MARK: the one switch

    /// The library paths leave the HDR tone curve out too: a poster made there is the filter
    /// graph's, byte for byte. (Before, `JOURNAL_MEDIA_LIBRARY_PATHS=1` still ran the tables.)
    @Test func theLibraryPathsToneMapWithTheFilterGraph() throws {
        let path = MediaSamples.path("video-hdr-hlg.mov")
        let options = PosterOptions(maxDimension: 320, maxCandidates: 1)
        var graph = options
        graph.forceFilterGraphToneMap = true
        let library = try FastPaths.$libraryPathsInThisTask.withValue(true) { try MediaFile(path: path).posterFrame(options) }
        let reference = try MediaFile(path: path).posterFrame(graph)
        let fast = try MediaFile(path: path).posterFrame(options)
        #expect(library.toneMapped && reference.toneMapped)
        // Bools, so a failure does not diff two 170 K-element arrays.
        let sameAsGraph = library.rgb == reference.rgb, fastDiffers = fast.rgb != reference.rgb
        #expect(sameAsGraph, "the library paths' poster is not the filter graph's")
        #expect(fastDiffers, "the table path is the default")
    }

    /// The library paths convert an sRGB-tagged photo through `icc_transform` as libvips would,
    /// instead of recognising the profile as sRGB and skipping the transform. (Before, the
    /// shortcut ran with `JOURNAL_MEDIA_LIBRARY_PATHS=1` too.) Both within a level of each other.
    @Test func theLibraryPathsTransformAnSRGBTaggedPhoto() throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample("orientation-8-srgb.jpg")))
        let (fastHeader, libraryHeader) = try bytes.withUnsafeBytes { raw in
            (try ImageHeaderReader.read(raw, format: .jpeg),
             try FastPaths.$libraryPathsInThisTask.withValue(true) { try ImageHeaderReader.read(raw, format: .jpeg) })
        }
        #expect(fastHeader.profileIsSRGB)
        #expect(!libraryHeader.profileIsSRGB && libraryHeader.profileUsable)
        let (fast, library) = try Self.bothDecodes(bytes, format: .jpeg)
        let difference = try Difference.between(fast, library)
        #expect(difference.maxDiff <= 2, "\(difference)")
        Self.report("srgbProfileMatch", difference, cases: 1)
    }

    /// Every fast path the catalogue lists is documented with its library path and test, and
    /// the C modules that replace library functions are imported only from FastPaths folders.
    @Test func everyFastPathIsBehindTheDoor() throws {
        let root = TestSupport.packageRoot
        let page = try String(contentsOf: root.appendingPathComponent("docs/fast-paths.md"), encoding: .utf8)
        for path in FastPath.allCases {
            #expect(page.contains("`\(path.rawValue)`"), "docs/fast-paths.md does not list \(path.rawValue)")
        }
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        let fastModules = ["CJPEGDecode", "CJPEGErrors", "CStillEncode", "CResampleKernel", "CLCMS2", "CLibdeflate"]
        var importers: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for module in fastModules where text.contains("import \(module)\n") {
                importers.append(relative)
                #expect(relative.contains("FastPaths/"), "\(relative) imports \(module) outside a FastPaths folder")
            }
        }
        #expect(importers.count >= 6)
    }
}
