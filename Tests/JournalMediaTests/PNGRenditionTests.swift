import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 29, the PNG class: the PNG fallback of a transparent source is encoded on the calling
/// thread with libdeflate (`DirectPNGEncode`) instead of libvips' libpng + zlib, and PNG
/// sources are decoded whole and shrunk by the project's resizer (`PNGResampledDecode`)
/// instead of libvips' `thumbnail_buffer`. What a user checks: the PNG is valid (every CRC,
/// the chunks libvips writes with `strip` and nothing else), lossless, and smaller than
/// before; the decode looks like libvips' and keeps transparency.
@Suite struct PNGRenditionTests {
    /// The chunks of a PNG file: (type, data), after checking the signature and every CRC.
    static func chunks(_ file: [UInt8]) throws -> [(String, [UInt8])] {
        try #require(file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        var result: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            try #require(offset + 12 + length <= file.count)
            let typeAndData = Array(file[(offset + 4)..<(offset + 8 + length)])
            let stored = file[(offset + 8 + length)..<(offset + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            #expect(crc32(typeAndData) == stored, "\(type) CRC")
            result.append((type, Array(typeAndData.dropFirst(4))))
            offset += 12 + length
        }
        #expect(offset == file.count)
        return result
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// libvips' encode with the settings the renderer gave it before (level 2, filter up).
    static func libvipsPNG(_ image: VipsImageHandle, filterUp: Bool = true) throws -> [UInt8] {
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(image))
        try save.set("compression", .int(2))
        if filterUp { try save.set("filter", .nick("up")) }
        try save.set("strip", .bool(true))
        try save.build()
        return try save.outputBytes()
    }

    static func samePixels(_ a: VipsImageHandle, _ b: VipsImageHandle) throws -> Bool {
        guard a.width == b.width, a.height == b.height, a.bands == b.bands,
              let pa = a.pointer.pointee.data, let pb = b.pointer.pointee.data else { return false }
        return memcmp(pa, pb, a.width * a.height * a.bands) == 0
    }

    /// The 1600 px-style fallback of each PNG sample (RGBA sticker, grey + alpha, opaque RGBA,
    /// a one-pixel-wide strip): libvips reads back the very pixels, the file has IHDR, pHYs,
    /// IDATs and IEND only (as libvips' `strip` save), with the pHYs libvips writes.
    @Test(arguments: [("png/sticker.png", 4), ("png/grey-sticker.png", 2), ("png/opaque-alpha.png", 4),
                      ("alpha-edge.png", 4)])
    func theFallbackIsLosslessWithLibvipsChunks(sample: String, bands: Int) throws {
        let source = try TestImage(contentsOf: TestSupport.sample(sample)).image
        #expect(source.bands == bands)
        let png = try #require(try DirectPNGEncode.encode(source))
        let found = try Self.chunks(png)
        let types = found.map(\.0)
        #expect(types.first == "IHDR" && types.dropFirst().first == "pHYs" && types.last == "IEND")
        #expect(Set(types) == ["IHDR", "pHYs", "IDAT", "IEND"], "\(types)")
        let libvips = try Self.chunks(try Self.libvipsPNG(source))
        #expect(found[0].1 == libvips[0].1, "IHDR")
        #expect(found[1].1 == libvips.first { $0.0 == "pHYs" }?.1, "pHYs")
        #expect(try Self.samePixels(try TestImage(png).image, source))
    }

    @Test func aOnePixelWideStripAndAGreyImageRoundTrip() throws {
        let scene = try TestImage(contentsOf: TestSupport.sample("png/sticker.png")).image
        let crop = try VipsOperationCall("extract_area")
        try crop.set("input", .image(scene))
        for (key, value) in [("left", 7), ("top", 0), ("width", 1), ("height", 300)] { try crop.set(key, .int(value)) }
        try crop.build()
        let strip = try crop.outputImage().materialised()
        let png = try #require(try DirectPNGEncode.encode(strip))
        #expect(try Self.samePixels(try TestImage(png).image, strip))
        let grey = try VipsOperationCall("extract_band")
        try grey.set("in", .image(try TestImage(contentsOf: TestSupport.sample("png/grey-sticker.png")).image))
        try grey.set("band", .int(0))
        try grey.build()
        let one = try grey.outputImage().materialised()
        #expect(one.bands == 1)
        let greyPNG = try #require(try DirectPNGEncode.encode(one))
        #expect(try Self.samePixels(try TestImage(greyPNG).image, one))
    }

    /// Through the renderer, a transparent photo's PNG fallback (no `compression`, no byte
    /// limit) is smaller than libvips' level-2 encode of the same pixels, which is what it was
    /// before (equal size). A spec that names its compression still goes to libvips.
    @Test func theTransparentFallbackIsSmallerThanBefore() throws {
        let source = try TestImage(contentsOf: TestSupport.sample("png/sticker.png")).image
        let decoded = DecodedImage(image: source, hasRealTransparency: true)
        let spec = RenditionSpec(role: "image", format: .png, width: 1600)
        let rendition = try RenditionRenderer.render(decoded, spec: spec, sourceWidth: source.width,
                                                     sourceHeight: source.height, allowUpscale: false)
        let before = try Self.libvipsPNG(source)
        #expect(rendition.data.count < before.count, "\(rendition.data.count) bytes, libvips \(before.count)")
        #expect(try Self.samePixels(try TestImage(rendition.data).image, source))
        var named = spec
        named.compression = 2
        let libvips = try RenditionRenderer.render(decoded, spec: named, sourceWidth: source.width,
                                                   sourceHeight: source.height, allowUpscale: false)
        // (Compared outside #expect: a failing comparison of two large arrays is diffed.)
        let unchanged = libvips.data == (try Self.libvipsPNG(source, filterUp: false))
        #expect(unchanged, "a spec naming its compression is libvips' encode")
    }

    static func decode(_ sample: String, box: Int) throws -> DecodedImage {
        let bytes = Array(try Data(contentsOf: TestSupport.sample(sample)))
        return try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .png)
            return try ImageDecoder.decode(buffer, header: header, width: box, height: box, allowUpscale: false)
        }
    }

    static func flattened(_ image: VipsImageHandle) throws -> VipsImageHandle {
        guard image.hasAlpha else { return image }
        return try ImageDecoder.flatten(image).materialised()
    }

    /// A PNG rendition says the resolution libvips reads from its source, whichever path made
    /// it (each source here is shrunk to 64 px in memory; before, every in-memory shrink said
    /// 1000 px/m, libvips' default for a new image): `exif.png` (pHYs 1000 px/m, its eXIf 72
    /// dpi, which libvips lets win: 2835 px/m, decoded by the project's PNG decoder), a PNG
    /// with pHYs 2834 px/m, a 72 dpi JPEG, and the sticker without pHYs (libvips: 1 px/mm).
    @Test(arguments: [("dates/exif.png", 2835), ("heif/10bit-422.pillow-heif.png", 2834), ("jpeg-decode/grey.jpg", 2835),
                      ("png/sticker.png", 1000)])
    func aRenditionKeepsItsSourcesResolution(sample: String, pixelsPerMetre: Int) async throws {
        let source = try TestImage(contentsOf: TestSupport.sample(sample)).image
        #expect(Int((source.pointer.pointee.Xres * 1000).rounded()) == pixelsPerMetre, "libvips reads \(source.pointer.pointee.Xres) px/mm")
        let processor = AssetProcessor(options: ProcessingOptions(renditions: [RenditionSpec(role: "p", format: .png, width: 64)]))
        let bytes = Array(try Data(contentsOf: TestSupport.sample(sample)))
        let result = await processor.process(data: bytes, filename: (sample as NSString).lastPathComponent)
        let png = try #require(result.renditions.first?.data, "\(result.error.map(String.init(describing:)) ?? "no rendition")")
        let physical = try #require(try Self.chunks(png).first { $0.0 == "pHYs" }?.1)
        let x = physical.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(x == pixelsPerMetre, "\(sample): pHYs \(x) px/m")
        #expect(physical.last == 1, "unit: metre")
    }

    /// A PNG whose alpha is opaque everywhere comes out as RGB held in memory, so both
    /// renditions resize it in memory; before, it was a lazy `flatten` of the decode, which
    /// every rendition resize handed to libvips.
    @Test func anOpaqueAlphaPNGComesOutInMemoryWithoutItsAlpha() throws {
        let decoded = try Self.decode("png/opaque-alpha.png", box: 200)
        #expect(!decoded.hasRealTransparency)
        #expect(decoded.image.bands == 3 && decoded.image.width == 200 && decoded.image.height == 150)
        #expect(decoded.image.memoryPixels != nil)
    }

    /// The decode (whole, then `InMemoryResize`) looks like libvips' thumbnail of the same file:
    /// the RGBA sticker and the grey one flattened on white, and they keep their transparency.
    @Test(arguments: [("png/sticker.png", 4), ("png/grey-sticker.png", 2), ("png/opaque-alpha.png", 3)])
    func theDecodeLooksLikeLibvipsThumbnail(sample: String, bands: Int) throws {
        let decoded = try Self.decode(sample, box: 200)
        #expect(decoded.image.bands == bands)
        #expect(decoded.hasRealTransparency == (bands == 4 || bands == 2))
        let thumbnail = try VipsOperationCall("thumbnail")
        try thumbnail.set("filename", .string(TestSupport.sample(sample).path))
        try thumbnail.set("width", .int(200))
        try thumbnail.set("height", .int(200))
        try thumbnail.build()
        var reference = try thumbnail.outputImage().materialised()
        if bands == 3 { reference = try ImageDecoder.flatten(reference).materialised() }
        let ours = try Self.flattened(decoded.image), theirs = try Self.flattened(reference)
        #expect(ours.width == theirs.width && ours.height == theirs.height && ours.bands == theirs.bands)
        let psnr = try CorpusAVIFCheck.psnr(ours, theirs)
        #expect(psnr >= 35, "\(sample): \(psnr) dB against libvips' thumbnail")
    }
}
