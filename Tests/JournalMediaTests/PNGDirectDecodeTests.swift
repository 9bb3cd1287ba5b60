import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 29, the PNG class: `PNGDirectDecode` (libdeflate and an own unfilter, no libpng)
/// against libvips' `pngload_buffer` (libpng + zlib) on PNGs made by real encoders: every
/// colour type, bit depth 1–8, filter type, Adam7, tRNS, several IDATs (Samples/png/decode,
/// made by netpbm's pnmtopng, and the libvips-made samples). Tolerance: identical samples,
/// bands, interpretation and resolution; an alpha channel libvips gives as 255 everywhere is
/// the one difference, dropped by the decode. Damaged files are declined (nil), so they meet
/// libvips and its error as before.
@Suite struct PNGDirectDecodeTests {
    static let decodeSamples: [String] = {
        let folder = TestSupport.sample("png/decode").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".png") && $0 != "grey16.png" }.sorted().map { "png/decode/\($0)" }
    }()

    static func bytes(_ sample: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: TestSupport.sample(sample)))
    }

    static func direct(_ bytes: [UInt8]) throws -> PNGDirectDecode.Picture? {
        try VipsRuntime.ensure()
        return try bytes.withUnsafeBytes { try PNGDirectDecode.decode($0, maxPixels: 1 << 24) }
    }

    static func libvips(_ bytes: [UInt8]) throws -> VipsImageHandle {
        try bytes.withUnsafeBytes { raw in
            let load = try VipsOperationCall("pngload_buffer")
            try load.set("buffer", .borrowedBlob(raw))
            try load.set("fail_on", .nick("warning"))
            try load.build()
            return try load.outputImage().materialised()
        }
    }

    static func samples(_ image: VipsImageHandle) throws -> [UInt8] {
        let pixels = try #require(image.memoryPixels)
        return Array(UnsafeBufferPointer(start: pixels, count: image.width * image.height * image.bands))
    }

    @Test(arguments: decodeSamples + ["png/sticker.png", "png/grey-sticker.png", "png/opaque-alpha.png",
                                      "alpha-edge.png", "alpha-disc.png"])
    func theDecodeGivesLibpngsSamples(_ sample: String) throws {
        let bytes = try Self.bytes(sample)
        let ours = try #require(try Self.direct(bytes), "\(sample) declined")
        let reference = try Self.libvips(bytes)
        #expect(ours.image.width == reference.width && ours.image.height == reference.height)
        #expect(ours.image.interpretation == reference.interpretation, "\(sample)")
        #expect(ours.image.pointer.pointee.Xres == reference.pointer.pointee.Xres
                && ours.image.pointer.pointee.Yres == reference.pointer.pointee.Yres, "\(sample) resolution")
        var expected = try Self.samples(reference)
        if reference.hasAlpha {
            let bands = reference.bands
            let alpha = stride(from: bands - 1, to: expected.count, by: bands).map { expected[$0] }
            let opaque = alpha.allSatisfy { $0 == 255 }
            #expect(ours.hasRealTransparency == !opaque, "\(sample)")
            if opaque {
                expected = expected.enumerated().filter { $0.offset % bands != bands - 1 }.map(\.element)
                #expect(ours.image.bands == bands - 1, "\(sample): opaque alpha kept")
            } else {
                #expect(ours.image.bands == bands, "\(sample)")
            }
        } else {
            #expect(!ours.hasRealTransparency && ours.image.bands == reference.bands, "\(sample)")
        }
        let found = try Self.samples(ours.image)
        let differing = zip(found, expected).filter { $0 != $1 }.count
        #expect(found.count == expected.count && differing == 0, "\(sample): \(differing) samples differ")
    }

    @Test func sixteenBitPNGsAreLeftToLibvips() throws {
        #expect(try Self.direct(try Self.bytes("png/decode/grey16.png")) == nil)
    }

    /// A chunk's data and CRC replaced (the CRC recomputed, so only the content is wrong).
    static func replacingChunk(_ file: [UInt8], type: String, with data: [UInt8]) throws -> [UInt8] {
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self) == type {
                var chunk: [UInt8] = [UInt8(data.count >> 24), UInt8((data.count >> 16) & 0xFF),
                                      UInt8((data.count >> 8) & 0xFF), UInt8(data.count & 0xFF)]
                chunk += Array(type.utf8) + data
                let crc = PNGRenditionTests.crc32(Array(chunk.dropFirst(4)))
                chunk += [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
                return Array(file[..<offset]) + chunk + Array(file[(offset + 12 + length)...])
            }
            offset += 12 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    static func chunkData(_ file: [UInt8], type: String) throws -> [UInt8] {
        try #require(try PNGRenditionTests.chunks(file).first { $0.0 == type }).1
    }

    /// Damaged files: a flipped byte under a CRC, a zlib stream with a bad checksum (CRC made
    /// right), data after the zlib stream, a file cut inside IDAT, a palette index past a
    /// shortened palette, an unknown critical chunk: each declined, and through the photo
    /// decode each ends as it does on the library path (the same error, or the same pixels).
    @Test func damagedFilesAreDeclinedAndMeetLibvips() throws {
        let sticker = try Self.bytes("png/decode/rgba8-paeth.png")
        let idat = try Self.chunkData(sticker, type: "IDAT")
        var flipped = sticker
        flipped[sticker.count - 20] ^= 0x40
        var badAdler = idat
        badAdler[badAdler.count - 1] ^= 0x01
        let palette = try Self.bytes("png/decode/palette4.png")
        let shortPalette = Array(try Self.chunkData(palette, type: "PLTE").prefix(8 * 3))
        let crc = PNGRenditionTests.crc32(Array("ABCD".utf8))
        let unknownCritical = Array(sticker[..<33]) + [0, 0, 0, 0] + Array("ABCD".utf8)
            + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)] + Array(sticker[33...])
        let damaged: [(String, [UInt8])] = [
            ("flipped byte", flipped),
            ("bad Adler-32", try Self.replacingChunk(sticker, type: "IDAT", with: badAdler)),
            ("data after the stream", try Self.replacingChunk(sticker, type: "IDAT", with: idat + [0, 0, 0])),
            ("cut inside IDAT", Array(sticker.prefix(sticker.count - 40))),
            ("index past the palette", try Self.replacingChunk(palette, type: "PLTE", with: shortPalette)),
            ("unknown critical chunk", unknownCritical),
        ]
        for (name, file) in damaged {
            #expect(try Self.direct(file) == nil, "\(name) was decoded")
            func outcome(libraryPaths: Bool) -> String {
                FastPaths.$libraryPathsInThisTask.withValue(libraryPaths) {
                    do {
                        return try file.withUnsafeBytes { raw in
                            let header = try ImageHeaderReader.read(raw, format: .png)
                            let image = try ImageDecoder.decode(raw, header: header, width: 30, height: 30,
                                                                allowUpscale: false).image
                            return "\(image.width)×\(image.height)×\(image.bands)"
                        }
                    } catch {
                        return "error: \(error)"
                    }
                }
            }
            #expect(outcome(libraryPaths: false) == outcome(libraryPaths: true), "\(name)")
        }
    }

    /// `pngDecode` and `opaqueAlpha` through the photo decode, on both paths: every sample
    /// whole, and the photo-sized ones into a box a third of their size. Tolerance: whole,
    /// identical samples; shrunk, PSNR ≥ 35 dB (the project's Lanczos against libvips'
    /// thumbnail, as `pngResampledDecode`).
    @Test func thePhotoDecodeMatchesTheLibraryPaths() throws {
        var worst = FastPathDifferentialTests.Difference(), cases = 0
        let photos = ["png/sticker.png", "png/grey-sticker.png", "png/opaque-alpha.png", "alpha-edge.png"]
        for sample in Self.decodeSamples + photos {
            let bytes = try Self.bytes(sample)
            let header = try bytes.withUnsafeBytes { try ImageHeaderReader.read($0, format: .png) }
            for divisor in photos.contains(sample) ? [1, 3] : [1] {
                let box = (max(1, header.displayWidth / divisor), max(1, header.displayHeight / divisor))
                let (fast, library) = try FastPathDifferentialTests.bothDecodes(bytes, format: .png, box: box)
                let difference = try FastPathDifferentialTests.Difference.between(fast, library)
                if divisor == 1 {
                    #expect(difference.maxDiff == 0, "\(sample) whole: \(difference)")
                } else {
                    #expect(difference.psnr >= 35, "\(sample) into \(box): \(difference)")
                }
                worst.worsen(difference)
                cases += 1
            }
        }
        FastPathDifferentialTests.report("pngDecode + opaqueAlpha (photo decode)", worst, cases: cases)
    }

    /// `opaqueAlpha` on a decode that is not a PNG (a TIFF with alpha 255 everywhere):
    /// the same three bands as libvips' `flatten`, and no transparency.
    @Test func anOpaqueAlphaIsDroppedAsFlattenDropsIt() throws {
        let rgba = try FastPathDifferentialTests.image(width: 61, height: 47, bands: 3)
        let join = try VipsOperationCall("bandjoin_const")
        try join.set("in", .image(rgba))
        try join.set("c", .doubles([255]))
        try join.build()
        let opaque = try join.outputImage().materialised()
        let bytes = try FastPathDifferentialTests.encoded(opaque, saver: "tiffsave_buffer", [])
        let (fast, library) = try FastPathDifferentialTests.bothDecodes(bytes, format: .tiff)
        #expect(fast.bands == 3 && fast.memoryPixels != nil)
        #expect(try FastPathDifferentialTests.Difference.between(fast, library.materialised()).maxDiff == 0)
    }
}
