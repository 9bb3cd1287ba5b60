import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// `SourceFile` and `ContentDigest`: the digest is SHA-256, images are held whole, movies
/// are streamed through the digest with only their head kept, and the movie still plays.
@Suite struct SourceFileTests {
    /// A FIFO among the inputs is refused at once as "not a regular file" by every opener
    /// (the whole-file read, the header reader, libavformat's check), instead of an open
    /// that waits for a writer forever.
    @Test(.timeLimit(.minutes(1))) func fifosAreRefusedWithoutWaiting() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jm-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect(throws: AssetError.self) { try SourceFile.read(URL(fileURLWithPath: path)) }
        #expect(throws: RegularFileError.self) { try FileBytes(path: path) }
        do {
            _ = try MediaFile(path: path, name: "fifo")
            Issue.record("a FIFO was opened as media")
        } catch {
            #expect(error.stage == .read && error.message == "not a regular file")
        }
    }

    @Test func digestIsSHA256() {
        // FIPS 180-2 test vectors.
        #expect(ContentDigest.sha256(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ContentDigest.sha256([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(ContentDigest.sha256(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func imagesAreReadWhole() throws {
        let url = TestSupport.sample("orientation-6-gps-p3.jpg")
        let expected = Array(try Data(contentsOf: url))
        let source = try SourceFile.read(url)
        #expect(source.bytes == expected)
        #expect(source.size == expected.count && !source.isHeadOnly)
        #expect(source.sha256 == ContentDigest.sha256(expected))
    }

    /// A 3 MiB movie (a sample MP4 followed by a `free` box, which players skip): only the
    /// head is kept, the digest covers every byte, and the poster is still made from the file.
    @Test func moviesAreStreamedThroughTheDigest() async throws {
        var movie = Array(try Data(contentsOf: TestSupport.sample("video-rotated-90.mp4")))
        let padding = 3 << 20
        movie += [UInt8(padding >> 24 & 0xff), UInt8(padding >> 16 & 0xff), UInt8(padding >> 8 & 0xff), UInt8(padding & 0xff)]
        movie += Array("free".utf8) + [UInt8](repeating: 0x5a, count: padding - 8)
        let url = try TestSupport.temporaryFolder().appendingPathComponent("long.mp4")
        try Data(movie).write(to: url)

        let source = try SourceFile.read(url)
        #expect(source.isHeadOnly)
        #expect(source.bytes == Array(movie.prefix(SourceFile.mediaHeadLength)))
        #expect(source.size == movie.count)
        #expect(source.sha256 == ContentDigest.sha256(movie))

        let result = AssetProcessor().processBlocking(fileAt: url)
        #expect(result.error == nil)
        #expect(result.kind == .video && result.bytes == movie.count && result.sha256 == source.sha256)
        #expect(result.renditions.count == 2)
    }
}
