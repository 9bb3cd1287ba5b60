import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The cards' own PNG writer, checked by decoding its files with libpng (through libvips,
/// which verifies the chunk CRCs and zlib's Adler-32) and comparing every pixel.
@Suite struct CardPNGEncoderTests {
    /// The pixels libvips reads back from `png`, and the chunk types in the file.
    static func decode(_ png: [UInt8]) throws -> (width: Int, height: Int, bands: Int, bytes: [UInt8], chunks: [String]) {
        var chunks: [String] = []
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            chunks.append(String(decoding: png[offset + 4..<offset + 8], as: UTF8.self))
            offset += 12 + length
        }
        let image = try png.withUnsafeBytes { buffer throws(VipsError) -> VipsImageHandle in
            let load = try VipsOperationCall("pngload_buffer")
            try load.set("buffer", .borrowedBlob(buffer))
            try load.set("fail_on", .nick("warning"))
            try load.build()
            return try load.outputImage().materialised()
        }
        var size = 0
        guard let raw = vips_image_write_to_memory(image.pointer, &size) else {
            throw VipsError(message: VipsRuntime.takeErrorBuffer())
        }
        defer { g_free(raw) }
        return (image.width, image.height, image.bands,
                Array(UnsafeRawBufferPointer(start: raw, count: size)), chunks)
    }

    static func encode(_ rgb: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        let image = try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: height)
        let png = try CardPNGEncoder.encode(DecodedImage(image: image, hasRealTransparency: false))
        return try #require(png)
    }

    @Test func aDrawnCardDecodesToExactlyItsPixelsWithoutMetadataChunks() throws {
        let spec = CardSamples.spec(headline: "Morning run along the river", lines: ["10,02 km", "52 min"],
                                    chips: ["calm", "grateful"], footnote: "Sat 4 Oct",
                                    hero: .route([(0..<200).map { CardPoint(x: Double($0) / 199, y: 0.5 + 0.3 * sin(Double($0) / 20)) }]))
        let card = try CardRenderer.render(spec, images: [:])
        let png = try #require(try CardPNGEncoder.encode(card.image))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try Self.decode(png)
        #expect(decoded.chunks == ["IHDR", "IDAT", "IEND"])
        #expect(decoded.width == 600 && decoded.height == 750 && decoded.bands == 3)
        #expect(decoded.bytes == (try CardPixels(card)).bytes)
        // Flat colour compresses: far below the 1.35 MB of raw pixels.
        #expect(png.count < 120_000)
        // Deterministic.
        #expect(try CardPNGEncoder.encode(card.image) == png)
    }

    @Test func noiseSpanningSeveralBlocksDecodesExactly() throws {
        // 180,000 literals: three Huffman blocks of at most 65,536 tokens.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let rgb = (0..<300 * 200 * 3).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let decoded = try Self.decode(try Self.encode(rgb, width: 300, height: 200))
        #expect(decoded.width == 300 && decoded.height == 200 && decoded.bytes == rgb)
    }

    @Test func widestCanvasWithRepeatedRowsAndRunsDecodesExactly() throws {
        // 4096 px rows (a 12,289-byte row distance), rows repeating the one above, runs of
        // every length around deflate's 258-byte limit, and single odd pixels.
        let width = 4096, height = 12
        var rgb = [UInt8](repeating: 200, count: width * height * 3)
        for y in 0..<height where y % 3 != 2 {
            for x in 0..<width where (x * 7 + y * 13) % (86 + y) == 0 {
                rgb[(y * width + x) * 3 + y % 3] = UInt8(x % 251)
            }
        }
        for x in 0..<width { rgb[(5 * width + x) * 3] = UInt8(x / 16 % 256) }
        let decoded = try Self.decode(try Self.encode(rgb, width: width, height: height))
        #expect(decoded.width == width && decoded.height == height && decoded.bytes == rgb)
    }

    @Test func onePixelWideAndSingleColourImagesDecodeExactly() throws {
        let tall = (0..<40 * 3).map { UInt8($0 % 7 * 30) }
        #expect(try Self.decode(try Self.encode(tall, width: 1, height: 40)).bytes == tall)
        let flat = [UInt8](repeating: 17, count: 64 * 64 * 3)
        let png = try Self.encode(flat, width: 64, height: 64)
        #expect(try Self.decode(png).bytes == flat)
        // 12 KB of pixels: the chunks and one block's code tables, a few runs.
        #expect(png.count < 300)
    }
}
