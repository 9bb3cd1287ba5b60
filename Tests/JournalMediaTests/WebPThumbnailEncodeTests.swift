import CVips
import Foundation
import Testing
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 19: the default thumbnail's WebP encode is libwebp's method 2 (libvips effort 2)
/// with libvips' cheap defaults and nothing more: one `WebPEncode`, no sharp-YUV
/// (`smart_subsample`), no preset, no `min_size`/`near_lossless`, no second encode. A
/// 512×384 photo then costs ~66 M instructions in libwebp (callgrind), against ~2.4× that at
/// Pillow's method 4 (Benchmarks/RESULTS.md). If an option that costs CPU comes back, the
/// bytes stop matching the reference encode made here with every such option spelled out off.
@Suite struct WebPThumbnailEncodeTests {
    func encode(_ image: VipsImageHandle, effort: Int) throws -> [UInt8] {
        let save = try VipsOperationCall("webpsave_buffer")
        try save.set("in", .image(image))
        try save.set("Q", .int(80))
        try save.set("effort", .int(effort))
        try save.set("smart_subsample", .bool(false))
        try save.set("preset", .nick("default"))
        try save.set("near_lossless", .bool(false))
        try save.set("lossless", .bool(false))
        try save.set("min_size", .bool(false))
        try save.set("alpha_q", .int(100))
        try save.set("strip", .bool(true))
        try save.build()
        return WebPMetadataRemover.removingMetadata(try save.outputBytes())
    }

    /// RIFF chunk tags after the 12-byte header; nil when the chunk lengths do not add up.
    func chunkTags(_ bytes: [UInt8]) -> [String]? {
        guard bytes.count >= 12 else { return nil }
        var tags: [String] = []
        var offset = 12
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            tags.append(String(decoding: bytes[offset..<offset + 4], as: UTF8.self))
            offset += 8 + length + (length & 1)
        }
        return offset == bytes.count ? tags : nil
    }

    @Test(arguments: ["orientation-6-gps-p3.jpg", "photo.heic"])
    func theDefaultThumbnailIsOneCheapLossyEncode(sample: String) throws {
        let spec = try #require(Defaults.renditions.first { $0.role == "thumbnail" })
        #expect(spec.format == .webp && spec.effort == nil && spec.byteLimit == nil)
        let source = try TestImage(contentsOf: TestSupport.sample(sample)).image
        let rendition = try RenditionRenderer.render(
            DecodedImage(image: source, hasRealTransparency: false), spec: spec,
            sourceWidth: source.width, sourceHeight: source.height, allowUpscale: false)
        let size = RenditionRenderer.scaledSize(for: spec, sourceWidth: source.width, sourceHeight: source.height,
                                                allowUpscale: false)
        #expect(rendition.width == size.width && rendition.height == size.height)
        let resized: VipsImageHandle
        if size.width == source.width && size.height == source.height {
            resized = source
        } else {
            resized = try #require(try InMemoryResize.resized(source, width: size.width, height: size.height))
        }
        let cheap = try encode(resized, effort: 2)
        let sameBytes = rendition.data == cheap
        #expect(sameBytes, "\(rendition.data.count) B, reference effort 2 with every costly option off: \(cheap.count) B")
        // One lossy VP8 bitstream (libvips 8.14 writes it in an extended file, whose header
        // flags the remover clears): no alpha, no metadata chunks.
        #expect(chunkTags(rendition.data) == ["VP8X", "VP8 "])
        #expect(rendition.data.count > 20 && rendition.data[20] == 0, "VP8X flags: nothing but the bitstream")
        // Effort 2 costs a few per cent of bytes against libvips' default effort 4.
        let effort4 = try encode(resized, effort: 4)
        #expect(rendition.data.count <= effort4.count * 110 / 100,
                "\(rendition.data.count) B vs \(effort4.count) B at effort 4")
    }
}
