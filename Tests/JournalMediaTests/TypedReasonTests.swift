import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 33, item 6: a still cut short is `truncated` because the toolkit's own walk of the file
/// says it ends inside its framing (`CutShortFile`), whatever the library's message says.
/// Before, the reason was guessed from libvips' words (`AssetErrorReason.inferred`): libpng's
/// "read error", libnsgif's "Unexpected end of GIF source data" and OpenJPEG's "Failed to
/// decode the codestream" made cut PNG, GIF and JPEG 2000 files `corrupt`.
@Suite struct TypedReasonTests {
    /// `name` cut to `fraction` of its bytes, processed alone.
    static func cut(_ name: String, fraction: Double = 0.6) throws -> AssetResult {
        let bytes = try Data(contentsOf: TestSupport.sample(name))
        let folder = try TestSupport.temporaryFolder("cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cut-" + (name as NSString).lastPathComponent)
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: file)
        return AssetProcessor().processBlocking(fileAt: file)
    }

    @Test(arguments: ["alpha-disc.png", "scene.gif", "formats/scene.jp2", "orientation-8-srgb.jpg"])
    func aStillCutShortIsTruncated(_ name: String) throws {
        let result = try Self.cut(name)
        let error = try #require(result.error, "\(name) cut short decoded")
        #expect(error.reason == .truncated, "\(name): \(error)")
    }

    /// The walk finds no early end in any complete sample of the four formats (so a damaged but
    /// complete file keeps the library's reason).
    @Test func completeFilesDoNotEndEarly() throws {
        var names = ["alpha-disc.png", "alpha-edge.png", "adobe-rgb-16bit.png", "scene.gif", "formats/scene.jp2",
                     "orientation-8-srgb.jpg", "orientation-6-gps-p3.jpg", "cmyk.jpg", "video-motion-photo.jpg",
                     "formats/restart-marker-damaged.jpg", "formats/ihdr-crc-damaged.png"]
        names += try FileManager.default.contentsOfDirectory(atPath: TestSupport.sample("jpeg-decode").path)
            .filter { $0.hasSuffix(".jpg") }.map { "jpeg-decode/\($0)" }
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(name)))
            let format: SourceFormat = name.hasSuffix(".png") ? .png : name.hasSuffix(".gif") ? .gif
                : name.hasSuffix(".jp2") ? .jp2 : .jpeg
            #expect(CutShortFile.endsInside(MemoryBytes(bytes: bytes), format: format) == nil, "\(name)")
            let cut = Array(bytes.prefix(bytes.count * 3 / 4))
            // (A motion photo's JPEG ends before its movie: cutting the movie leaves it whole.)
            if name != "video-motion-photo.jpg" {
                #expect(CutShortFile.endsInside(MemoryBytes(bytes: cut), format: format) != nil, "\(name) cut at 3/4")
            }
        }
    }

    /// A complete file that a library fails on keeps the library's reason: the PNG whose IHDR
    /// fails its CRC is `corrupt`, not `truncated`.
    @Test func aDamagedCompleteFileKeepsItsReason() throws {
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("formats/ihdr-crc-damaged.png"))
        #expect(result.error?.reason == .corrupt, "\(String(describing: result.error))")
    }
}
