import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// A JPEG that already fits the fallback's box, upright, sRGB and at no higher quality than
/// asked is its own fallback: the coded picture copied without metadata (`JPEGFallbackReuse`).
/// Samples in Samples/jpeg-reuse/ (Tests/SampleMaker/make-samples.sh): `in-box-gps.jpg`
/// (libjpeg through libvips, Q80 4:2:0, 480×360, sRGB profile, EXIF with GPS, XMP, a comment
/// and bytes after EOI, added by ExifTool) and `in-box-q95.jpg` (Q95 4:4:4, no metadata).
@Suite struct JPEGFallbackReuseTests {
    func process(_ name: String, renditions: [RenditionSpec] = Defaults.renditions) -> AssetResult {
        AssetProcessor(options: ProcessingOptions(renditions: renditions))
            .processBlocking(fileAt: TestSupport.sample(name), displayName: name)
    }

    func fallback(_ result: AssetResult) throws -> Rendition {
        try #require(result.renditions.first { $0.role == "fallback" }, "\(result.error?.message ?? "no fallback")")
    }

    /// Largest per-sample difference between two decoded images of the same size.
    func largestDifference(_ a: [UInt8], _ b: [UInt8]) throws -> Double {
        let first = try TestImage(a), second = try TestImage(b)
        try #require(first.width == second.width && first.height == second.height)
        let difference = try VipsOperationCall("subtract")
        try difference.set("left", .image(first.image))
        try difference.set("right", .image(second.image))
        try difference.build()
        let absolute = try VipsOperationCall("abs")
        try absolute.set("in", .image(try difference.outputImage()))
        try absolute.build()
        let maximum = try VipsOperationCall("max")
        try maximum.set("in", .image(try absolute.outputImage()))
        try maximum.build()
        return try maximum.outputDouble("out")
    }

    @Test func anInBoxJPEGIsCopiedWithItsExactPixelsAndNoMetadata() throws {
        let source = Array(try Data(contentsOf: TestSupport.sample("jpeg-reuse/in-box-gps.jpg")))
        #expect(MetadataStrippingTests.exifEntries(source).gps >= 4, "the sample carries GPS, so the check below can fail")
        #expect(Set(MetadataStrippingTests.metadataBlocks(source)).isSuperset(of: ["EXIF", "XMP", "ICC"]))
        let result = process("jpeg-reuse/in-box-gps.jpg")
        let fallback = try fallback(result)
        #expect((fallback.width, fallback.height) == (480, 360))
        // The same pixels as the source, bit for bit: no second generation of JPEG loss.
        #expect(try largestDifference(fallback.data, source) == 0)
        #expect(MetadataStrippingTests.metadataBlocks(fallback.data).isEmpty)
        #expect(MetadataStrippingTests.exifEntries(fallback.data).total == 0)
        let text = String(decoding: fallback.data, as: UTF8.self)
        #expect(!text.contains("private note") && !text.contains("holiday") && !text.contains("TRAILER"))
        #expect(fallback.data.suffix(2) == [0xFF, 0xD9], "ends at the picture's EOI")
        #expect(fallback.bytes == fallback.data.count && fallback.bytes < source.count)
        // The thumbnail and colours are still made, from the decode.
        let thumbnail = try #require(result.renditions.first { $0.role == "thumbnail" })
        #expect((thumbnail.width, thumbnail.height) == (480, 360))
        #expect(result.colors != nil && result.placeholder != nil)
    }

    @Test func aHigherQualityJPEGIsEncodedAgain() throws {
        let source = Array(try Data(contentsOf: TestSupport.sample("jpeg-reuse/in-box-q95.jpg")))
        let layout = try #require(source.withUnsafeBytes { JPEGCodedLayout.parse($0) })
        #expect(JPEGFallbackReuse.estimatedQuality(lumaTable: try #require(layout.lumaTable)) > 94)
        let fallback = try fallback(process("jpeg-reuse/in-box-q95.jpg"))
        #expect((fallback.width, fallback.height) == (480, 360))
        #expect(fallback.bytes < source.count / 2, "re-encoded at Q85 4:2:0: \(fallback.bytes) of \(source.count) bytes")
        let fallbackLayout = try #require(fallback.data.withUnsafeBytes { JPEGCodedLayout.parse($0) })
        #expect(fallbackLayout.chromaLayout == .subsampled420)
    }

    @Test func theSpecDecidesQualitySubsamplingAndProgressive() throws {
        func fallbackIsCopy(_ spec: RenditionSpec) throws -> Bool {
            let source = Array(try Data(contentsOf: TestSupport.sample("jpeg-reuse/in-box-gps.jpg")))
            let layout = try #require(source.withUnsafeBytes { JPEGCodedLayout.parse($0) })
            let rendition = try fallback(process("jpeg-reuse/in-box-gps.jpg", renditions: [spec]))
            return rendition.data == source.withUnsafeBytes { layout.pictureOnly($0) }
        }
        var spec = RenditionSpec(role: "fallback", format: .jpeg, width: 1600, quality: 85)
        #expect(try fallbackIsCopy(spec), "Q80 source, Q85 asked")
        spec.quality = 70
        #expect(try !fallbackIsCopy(spec), "Q80 source, Q70 asked")
        spec.quality = 85
        spec.chromaSubsampling = .off
        #expect(try !fallbackIsCopy(spec), "4:2:0 source, 4:4:4 asked")
        spec.chromaSubsampling = .on
        #expect(try fallbackIsCopy(spec))
        spec.progressive = true
        #expect(try !fallbackIsCopy(spec), "baseline source, progressive asked")
        spec.progressive = nil
        spec.maxBytes = 20_000
        #expect(try !fallbackIsCopy(spec), "a byte limit is met by encoding")
        spec.maxBytes = nil
        spec.width = 400
        #expect(try !fallbackIsCopy(spec), "larger than the box")
        // Only the JPEG spec is a copy; a WebP spec of the same size is encoded.
        let webp = RenditionSpec(role: "fallback", format: .webp, width: 1600)
        let result = process("jpeg-reuse/in-box-gps.jpg", renditions: [webp])
        #expect(try fallback(result).format == .webp)
    }

    @Test func sourcesThatNeedTheirPixelsChangedAreEncoded() throws {
        // Orientation 6 with a Display P3 profile, orientation 8, CMYK: each fallback must be
        // an sRGB, upright, re-encoded JPEG, never the source's coded picture.
        for name in ["orientation-6-gps-p3.jpg", "orientation-8-srgb.jpg", "cmyk.jpg"] {
            let source = Array(try Data(contentsOf: TestSupport.sample(name)))
            let result = process(name)
            let rendition = try fallback(result)
            if let layout = source.withUnsafeBytes({ JPEGCodedLayout.parse($0) }) {
                #expect(rendition.data != source.withUnsafeBytes { layout.pictureOnly($0) }, "\(name)")
            }
            #expect((rendition.width, rendition.height) == (result.width, result.height), "\(name)")
            #expect(try TestImage(rendition.data).bands == 3, "\(name)")
        }
    }

    @Test func aDamagedJPEGIsEncodedFromItsRepairedPixelsAtFullSize() throws {
        // libjpeg decodes past a corrupt restart marker; the fallback must be the repaired
        // pixels at the source's size, not the damaged stream.
        let result = process("formats/restart-marker-damaged.jpg")
        #expect(result.warnings?.contains { $0.contains("RST") } == true)
        let rendition = try fallback(result)
        #expect((rendition.width, rendition.height) == (96, 64))
        let source = Array(try Data(contentsOf: TestSupport.sample("formats/restart-marker-damaged.jpg")))
        if let layout = source.withUnsafeBytes({ JPEGCodedLayout.parse($0) }) {
            #expect(rendition.data != source.withUnsafeBytes { layout.pictureOnly($0) })
        }
    }

    @Test func theQualityEstimateInvertsLibjpegsScaling() throws {
        // libjpeg (through libvips' jpegsave) at several qualities: the estimate is the setting.
        let image = try TestImage(contentsOf: TestSupport.sample("jpeg-reuse/in-box-q95.jpg"))
        for quality in [30, 50, 75, 85, 92] {
            let save = try VipsOperationCall("jpegsave_buffer")
            try save.set("in", .image(image.image))
            try save.set("Q", .int(quality))
            try save.build()
            let bytes = try save.outputBytes()
            let layout = try #require(bytes.withUnsafeBytes { JPEGCodedLayout.parse($0) })
            let estimate = JPEGFallbackReuse.estimatedQuality(lumaTable: try #require(layout.lumaTable))
            #expect(abs(estimate - Double(quality)) < 0.3, "Q\(quality): \(estimate)")
        }
    }

    @Test func theLayoutWalkRefusesWhatItCannotCopy() throws {
        let source = Array(try Data(contentsOf: TestSupport.sample("jpeg-reuse/in-box-gps.jpg")))
        let layout = try #require(source.withUnsafeBytes { JPEGCodedLayout.parse($0) })
        #expect(layout.process == .baseline && layout.width == 480 && layout.height == 360)
        #expect(layout.trailingBytes == "TRAILER-AFTER-EOI-0123456789".utf8.count)
        // Cut inside the scan: no EOI, no layout (a truncated file is never copied).
        let cut = Array(source.prefix(source.count / 2))
        #expect(cut.withUnsafeBytes { JPEGCodedLayout.parse($0) } == nil)
        // Not a JPEG, or only its first bytes.
        #expect([UInt8](repeating: 0, count: 100).withUnsafeBytes { JPEGCodedLayout.parse($0) } == nil)
        #expect(Array(source.prefix(4)).withUnsafeBytes { JPEGCodedLayout.parse($0) } == nil)
        // Without its Huffman tables (as Motion-JPEG frames are stored): not copied.
        var withoutTables: [UInt8] = [0xFF, 0xD8]
        var at = 2
        while at + 4 <= source.count, source[at] == 0xFF, source[at + 1] != 0xDA {
            let end = at + 2 + (Int(source[at + 2]) << 8 | Int(source[at + 3]))
            if source[at + 1] != 0xC4 { withoutTables += source[at..<end] }
            at = end
        }
        withoutTables += source[at...]
        #expect(withoutTables.count < source.count - 100)
        #expect(withoutTables.withUnsafeBytes { JPEGCodedLayout.parse($0) } == nil)
        // The picture walk of the copy finds the same frame and tables.
        let copy = source.withUnsafeBytes { layout.pictureOnly($0) }
        let again = try #require(copy.withUnsafeBytes { JPEGCodedLayout.parse($0) })
        #expect(again.tables == layout.tables && again.components == layout.components && again.trailingBytes == 0)
    }
}
