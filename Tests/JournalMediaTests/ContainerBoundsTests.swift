import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaMetadata

/// Issue 14, item 1: a chunk, segment, box, extent or TIFF value that declares more bytes than
/// the file holds is refused in the probe, before any decoder allocates what it declares.
@Suite struct ContainerBoundsTests {
    func refusal(_ bytes: [UInt8], _ name: String) async throws -> AssetError {
        let result = await AssetProcessor().process(data: bytes, filename: name)
        let error = try #require(result.error, "\(name) was not refused")
        #expect(error.stage == .probe && error.reason == .truncated, "\(error)")
        #expect(result.renditions.isEmpty)
        return error
    }

    /// The audit's file: a tiny PNG whose text chunk declares 0x7FFFFFFF bytes (libpng used to
    /// allocate all of them: 2.16 GB for 4–11 s). All three text chunk types, each refused
    /// at once; the CLI run on one of them stays small.
    @Test(arguments: ["tEXt", "zTXt", "iTXt"])
    func pngTextChunkDeclaringTwoGigabytesIsRefused(_ type: String) async throws {
        let png = try CraftedFiles.noisePNG(width: 8, height: 8)
        let bomb = CraftedFiles.insertingChunk(into: png, type: type, declaredLength: 0x7FFF_FFFF,
                                               payload: Array("Comment\0".utf8))
        #expect(bomb.count < 1_000)
        let error = try await refusal(bomb, "bomb.png")
        #expect(error.message.contains("PNG chunk \(type) at byte 33 declares 2147483647 bytes"), "\(error.message)")

        let folder = try TestSupport.temporaryFolder()
        let input = try CraftedFiles.write(bomb, "bomb-\(type).png", in: folder)
        let run = try ChildProcessPeak.runCLI(["convert", input.path, "--output", folder.appendingPathComponent("out").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("probe: PNG chunk \(type)"), "\(run.stderr)")
        #expect(run.peakBytes < 200 * 1024 * 1024, "peak RSS \(run.peakBytes / 1_048_576) MiB")
    }

    /// A JPEG cut inside its EXIF segment (APP1): the segment's length runs past the end.
    @Test func jpegSegmentPastTheEndIsRefused() async throws {
        let jpeg = Array(try Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")))
        let app1 = try #require((2..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 })
        let error = try await refusal(Array(jpeg[..<(app1 + 40)]), "cut.jpg")
        #expect(error.message.hasPrefix("JPEG segment APP1 at byte \(app1)"), "\(error.message)")
    }

    /// A WebP whose first chunk declares more than the RIFF holds, and one whose RIFF header does.
    @Test func riffChunkPastTheEndIsRefused() async throws {
        var webp = Array(try Data(contentsOf: TestSupport.sample("scene.webp")))
        var header = webp
        webp.replaceSubrange(16..<20, with: [0xF0, 0xFF, 0xFF, 0x7F])
        let chunk = try await refusal(webp, "chunk.webp")
        #expect(chunk.message.hasPrefix("RIFF chunk VP8"), "\(chunk.message)")
        header.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0x7F])
        let riff = try await refusal(header, "riff.webp")
        #expect(riff.message.hasPrefix("RIFF header at byte 0 declares 2147483632 bytes"), "\(riff.message)")
    }

    /// A HEIC whose `meta` box claims a megabyte more than the file has, and one cut right
    /// after its `meta` box, so the image item's extent points past the end.
    @Test func isoBMFFBoxAndItemExtentPastTheEndAreRefused() async throws {
        let heic = Array(try Data(contentsOf: TestSupport.sample("heif/10bit.heic")))
        let boxes = HEIFMeta<MemoryBytes>.children(in: MemoryBytes(bytes: heic), from: 0, to: heic.count)
        let meta = try #require(boxes.first { $0.type == "meta" })
        var grown = heic
        let start = meta.content - 8
        let claimed = UInt32(meta.end - start + 1_000_000)
        grown.replaceSubrange(start..<start + 4, with: withUnsafeBytes(of: claimed.bigEndian, Array.init))
        let box = try await refusal(grown, "box.heic")
        #expect(box.message.hasPrefix("ISO-BMFF box meta at byte \(start)"), "\(box.message)")

        let cut = try await refusal(Array(heic[..<meta.end]), "cut.heic")
        #expect(cut.message.contains("ISO-BMFF item") && cut.message.contains("extent"), "\(cut.message)")
    }

    /// A TIFF written by libvips, with its first strip moved to the last bytes of the file, and
    /// one with an entry whose count × type size is larger than the file.
    @Test func tiffStripAndEntryPastTheEndAreRefused() async throws {
        let tiff = try CraftedFiles.noiseTIFF()
        let stripOffsets = try #require(CraftedFiles.tiffEntry(tiff, tag: 0x0111))
        var strip = tiff
        CraftedFiles.patchTIFFFirstValue(&strip, entry: stripOffsets, to: UInt32(tiff.count - 2))
        let stripError = try await refusal(strip, "strip.tif")
        #expect(stripError.message.hasPrefix("TIFF strip 0 at byte \(tiff.count - 2)"), "\(stripError.message)")

        var entry = tiff
        // The entry's count field: 12-byte entries, count at +4 (little-endian from libvips).
        entry.replaceSubrange(stripOffsets.entry + 4..<stripOffsets.entry + 8, with: [0xFF, 0xFF, 0xFF, 0x3F])
        let entryError = try await refusal(entry, "entry.tif")
        #expect(entryError.message.hasPrefix("TIFF entry 0x111"), "\(entryError.message)")
    }

    /// Every committed sample still image passes the check unchanged (no false refusals),
    /// including the truncated JPEG, whose damage is in its scan data (the decoder's to report).
    @Test func committedSamplesPass() throws {
        let root = TestSupport.samples
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
        var checked = 0
        for file in files {
            let bytes = Array((try? Data(contentsOf: root.appendingPathComponent(file))) ?? Data())
            guard let format = FormatSniffer.sniff(bytes), format.isImage else { continue }
            checked += 1
            #expect(ContainerBounds.check(MemoryBytes(bytes: bytes), format: format) == nil, "\(file)")
        }
        #expect(checked > 30)
    }
}
