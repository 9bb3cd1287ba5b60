import CLCMS2
import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaResampling
@testable import JournalMediaVideo

/// The HEIC colour pass's own matrix-shaper conversion (`MatrixShaperConversion`, built by
/// `MatrixShaperProfiles`) against LittleCMS's transform of the same profile to libvips' sRGB,
/// on the profiles real files carry and on their pixels; and the turn it does in the same pass.
@Suite struct MatrixShaperConversionTests {
    /// Largest difference of any channel accepted against LittleCMS, in 8-bit levels.
    static let tolerance = 1

    /// Samples with the RGB profiles phones and cameras write: an iPhone's v4 Display P3, a
    /// v2 Display P3 (libvips' sP3C), Adobe RGB (1998), Google's v4 sRGB.
    static let profiled = ["location/iphone-se-live.heic", "photo-p3-rotated.heic", "adobe-rgb-16bit.png",
                           "location/pixel6-ultrahdr.jpg", "orientation-6-gps-p3.jpg"]

    /// The ICC profile libvips reads from the file's header.
    static func profile(of name: String) throws -> [UInt8] {
        let loader = name.hasSuffix(".png") ? "pngload" : name.hasSuffix(".jpg") ? "jpegload" : "heifload"
        let load = try VipsOperationCall(loader)
        try load.set("filename", .string(TestSupport.sample(name).path))
        try load.build()
        let image = try load.outputImage()
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(image.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data, length > 0 else {
            throw VipsError(message: "\(name) has no ICC profile")
        }
        return Array(UnsafeRawBufferPointer(start: data, count: length))
    }

    /// Every 5th level of each channel (and 255): 140,608 pixels.
    static let cube: [UInt8] = {
        let levels = Array(stride(from: 0, through: 255, by: 5)).map(UInt8.init)
        var pixels: [UInt8] = []
        for r in levels { for g in levels { for b in levels { pixels += [r, g, b] } } }
        return pixels
    }()

    /// LittleCMS's own optimised transform of `rgb` (what the HEIC path used before).
    static func littleCMS(_ rgb: [UInt8], profile: [UInt8]) throws -> [UInt8] {
        let kept = try #require(DirectProfileTransform.cachedConversion(profile, allowMatrixShaper: false)?.transform)
        var out = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                cmsDoTransform(kept.handle, source.baseAddress, target.baseAddress, cmsUInt32Number(rgb.count / 3))
            }
        }
        return out
    }

    static func matrixShaper(_ rgb: [UInt8], width: Int, height: Int, orientation: Int = 1, profile: [UInt8]) throws -> [UInt8] {
        let conversion = try #require(DirectProfileTransform.cachedConversion(profile)?.matrixShaper,
                                      "the profile is not taken as a matrix-shaper")
        var out = [UInt8](repeating: 0, count: rgb.count)
        rgb.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                conversion.convert(source.baseAddress!, width: width, height: height, orientation: orientation,
                                   into: target.baseAddress!)
            }
        }
        return out
    }

    static func compare(_ ours: [UInt8], _ reference: [UInt8], _ what: String) {
        #expect(ours.count == reference.count)
        let differences = zip(ours, reference).map { abs(Int($0) - Int($1)) }
        let largest = differences.max() ?? 0
        let differing = differences.filter { $0 > 0 }.count
        print("matrix-shaper vs LittleCMS, \(what): \(differing) of \(differences.count) samples differ, largest \(largest)")
        #expect(largest <= tolerance, "\(what): largest difference \(largest) levels")
    }

    @Test(arguments: profiled)
    func cubeMatchesLittleCMS(_ name: String) throws {
        let profile = try Self.profile(of: name)
        let ours = try Self.matrixShaper(Self.cube, width: Self.cube.count / 3, height: 1, profile: profile)
        Self.compare(ours, try Self.littleCMS(Self.cube, profile: profile), "\(name)'s profile, RGB cube")
    }

    /// libvips' built-in Display P3 profile, what an nclx-tagged P3 HEIC is converted from.
    @Test func builtInDisplayP3MatchesLittleCMS() throws {
        let profile = try #require(DirectProfileTransform.displayP3Profile)
        let ours = try Self.matrixShaper(Self.cube, width: Self.cube.count / 3, height: 1, profile: profile)
        Self.compare(ours, try Self.littleCMS(Self.cube, profile: profile), "libvips' p3, RGB cube")
    }

    /// The Display P3 photos' own decoded pixels (before any colour conversion).
    @Test(arguments: ["location/iphone-se-live.heic", "photo-p3-rotated.heic"])
    func photoPixelsMatchLittleCMS(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let decoded = try bytes.withUnsafeBytes { try HEIFHEVCDecoder.attempt($0, boxWidth: 4096, boxHeight: 4096).get() }
        let profile = try #require(decoded.iccProfile)
        let stored = decoded.storedSize
        let ours = try Self.matrixShaper(decoded.rgb, width: stored.width, height: stored.height, profile: profile)
        Self.compare(ours, try Self.littleCMS(decoded.rgb, profile: profile), "\(name), \(stored.width)×\(stored.height) decoded")
    }

    /// The turn done in the conversion's pass equals converting, then turning.
    @Test(arguments: 1...8)
    func turnsInTheSamePass(_ orientation: Int) throws {
        let profile = try Self.profile(of: "photo-p3-rotated.heic")
        let (width, height) = (7, 3)
        let rgb = (0..<(width * height * 3)).map { UInt8(($0 * 37) % 256) }
        let ours = try Self.matrixShaper(rgb, width: width, height: height, orientation: orientation, profile: profile)
        let converted = try Self.matrixShaper(rgb, width: width, height: height, profile: profile)
        let turned = PixelOrientation.upright(converted, width: width, height: height, bands: 3, orientation: orientation)
        #expect(ours == turned.pixels, "orientation \(orientation)")
    }

    /// A profile whose colour goes through a lookup table (`A2B0`) is left to LittleCMS.
    /// A Display P3 JPEG decoded at full size (400×600 stored, EXIF orientation 6: above the
    /// size lcms converts directly, so the decode converts it with the matrix-shaper tables and
    /// turns it in the same pass) equals libvips' own route, `jpegload` + `icc_transform` to
    /// sRGB + `autorot`, within one level, upright (600×400).
    @Test func aLargeP3JPEGIsConvertedAndTurnedInOnePass() throws {
        let name = "orientation-6-gps-p3.jpg"
        let bytes = Array(try Data(contentsOf: TestSupport.sample(name)))
        let decoded = try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .jpeg)
            #expect(header.orientation == 6 && header.hasProfile && !header.profileIsSRGB)
            return try ImageDecoder.decode(buffer, header: header, width: 10_000, height: 10_000, allowUpscale: false)
        }
        let image = decoded.image
        #expect(image.width == 600 && image.height == 400)
        #expect(image.width * image.height > DirectProfileTransform.maxPixels)
        let ours = try #require(image.memoryPixels, "converted into memory")
        let load = try VipsOperationCall("jpegload")
        try load.set("filename", .string(TestSupport.sample(name).path))
        try load.build()
        let transform = try VipsOperationCall("icc_transform")
        try transform.set("in", .image(try load.outputImage()))
        try transform.set("output_profile", .string("srgb"))
        try transform.set("embedded", .bool(true))
        try transform.build()
        let turn = try VipsOperationCall("autorot")
        try turn.set("in", .image(try transform.outputImage()))
        try turn.build()
        let expected = try turn.outputImage().materialised()
        let theirs = try #require(expected.memoryPixels)
        #expect(expected.width == 600 && expected.height == 400 && expected.bands == 3)
        var worst = 0
        for index in 0..<(600 * 400 * 3) { worst = max(worst, abs(Int(ours[index]) - Int(theirs[index]))) }
        withExtendedLifetime((image, expected)) {}
        #expect(worst <= Self.tolerance, "largest difference \(worst) levels")
    }

    @Test func lookupTableProfileGoesToLittleCMS() throws {
        let profile = try #require(Self.lookupTableProfile())
        let kept = try #require(DirectProfileTransform.cachedConversion(profile))
        #expect(kept.matrixShaper == nil && kept.transform != nil)
        let converted = try #require(try DirectProfileTransform.packedRGBToSRGB(Self.cube, width: Self.cube.count / 3, height: 1,
                                                                               profile: profile))
        let pixels = try #require(converted.memoryPixels)
        #expect(Array(UnsafeBufferPointer(start: pixels, count: Self.cube.count)) == (try Self.littleCMS(Self.cube, profile: profile)))
    }

    /// An sRGB-primaries profile with an `A2B0` lookup table beside its matrix and curves
    /// (made with LittleCMS: a 2-point table from RGB to XYZ).
    static func lookupTableProfile() -> [UInt8]? {
        guard let profile = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(profile) }
        // A version 2 profile: its A2B0 is written as a lut16, which takes a table alone.
        cmsSetProfileVersion(profile, 2.1)
        guard let pipeline = cmsPipelineAlloc(nil, 3, 3) else { return nil }
        defer { cmsPipelineFree(pipeline) }
        // Corners of the RGB cube to XYZ (16-bit PCS encoding, 1.0 = 0x8000), a rough sRGB.
        var table: [cmsUInt16Number] = []
        for r in 0..<2 { for g in 0..<2 { for b in 0..<2 {
            let x = 0.4361 * Double(r) + 0.3851 * Double(g) + 0.1431 * Double(b)
            let y = 0.2225 * Double(r) + 0.7169 * Double(g) + 0.0606 * Double(b)
            let z = 0.0139 * Double(r) + 0.0971 * Double(g) + 0.7141 * Double(b)
            table += [x, y, z].map { cmsUInt16Number(min(65535, $0 * 32768)) }
        } } }
        guard let stage = cmsStageAllocCLut16bit(nil, 2, 3, 3, table) else { return nil }
        guard cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, stage) != 0,
              cmsWriteTag(profile, cmsSigAToB0Tag, UnsafeRawPointer(pipeline)) != 0 else { return nil }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard cmsSaveProfileToMem(profile, &bytes, &size) != 0 else { return nil }
        return bytes
    }
}

/// A HEIF's `irot`/`imir` sequence as the one EXIF orientation the colour pass applies.
@Suite struct HEIFOrientationTests {
    /// Every sequence of up to three turns and mirrors gives what applying them one by one gives.
    @Test func composedOrientationEqualsTheSteps() {
        let steps: [HEIFCodedImage.Transform] = [.rotate(quarterTurns: 1), .rotate(quarterTurns: 2), .rotate(quarterTurns: 3), .mirror(horizontal: true),
                                                 .mirror(horizontal: false)]
        var sequences: [[HEIFCodedImage.Transform]] = [[]], last: [[HEIFCodedImage.Transform]] = [[]]
        for _ in 0..<3 {
            last = last.flatMap { sequence in steps.map { sequence + [$0] } }
            sequences += last
        }
        let (width, height) = (5, 3)
        let pixels = (0..<(width * height * 3)).map { UInt8($0) }
        for sequence in sequences {
            var (rgb, w, h) = (pixels, width, height)
            for step in sequence {
                let orientation = switch step {
                case .rotate(let turns): [1, 8, 3, 6][turns]
                case .mirror(let horizontal): horizontal ? 2 : 4
                case .crop: 1
                }
                (rgb, w, h) = PixelOrientation.upright(rgb, width: w, height: h, bands: 3, orientation: orientation)
            }
            let composed = PixelOrientation.upright(pixels, width: width, height: height, bands: 3,
                                                    orientation: HEIFUpright.orientation(sequence))
            #expect(composed.pixels == rgb && composed.width == w, "\(sequence)")
        }
    }
}
