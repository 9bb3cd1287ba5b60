import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Re-runs of `convert` over a folder that did not change (issue 32): unchanged inputs are
/// not read again, unchanged failures are not retried, and neither makes the run fail.
@Suite struct ReRunTests {
    /// A temporary folder with `in/` holding `samples` and the path of `out/`.
    static func folder(with samples: [String], _ label: String = #function) throws -> (root: URL, input: URL, output: URL) {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(samples, to: input)
        return (root, input, root.appendingPathComponent("out"))
    }

    /// Overwrites `url` in place (same inode) with other bytes of the same length, and puts
    /// its modification time back: only reading the file can tell.
    static func changeInPlaceKeepingSizeAndTime(_ url: URL) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let modified = try #require(attributes[.modificationDate] as? Date)
        var stamp = stat()
        #expect(stat(url.path, &stamp) == 0)
        let handle = try FileHandle(forUpdating: url)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size - 2)
        try handle.write(contentsOf: Data([0xAA, 0x55]))
        try handle.close()
        var times = [stamp.st_atim, stamp.st_mtim]
        #expect(utimensat(AT_FDCWD, url.path, &times, 0) == 0)
        let after = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect(after[.modificationDate] as? Date == modified && after[.size] as? UInt64 == size)
    }

    @Test func anUnchangedInputIsNotReadAgainUnlessVerified() async throws {
        let (root, input, output) = try Self.folder(with: ["cmyk.jpg", "scene.webp"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try await Batch(inputs: [input], output: output, jobs: 1).run()
        let entry = try #require(first.assets.first { $0.source == "cmyk.jpg" })
        var info = stat()
        #expect(stat(input.appendingPathComponent("cmyk.jpg").path, &info) == 0)
        #expect(entry.inode == UInt64(info.st_ino) && entry.device == UInt64(info.st_dev), "identity recorded")
        #expect(try TestSupport.manifest(in: output).assets.first { $0.source == "cmyk.jpg" }?.inode == entry.inode)

        // Same size, time and inode: not read, so the changed bytes go unnoticed and the
        // entry (its SHA-256 too) is the earlier one.
        try Self.changeInPlaceKeepingSizeAndTime(input.appendingPathComponent("cmyk.jpg"))
        let quiet = try await Batch(inputs: [input], output: output, jobs: 1).run()
        #expect(quiet.summary.skipped == 2 && quiet.summary.processed == 0)
        #expect(quiet.assets.first { $0.source == "cmyk.jpg" }?.sha256 == entry.sha256)

        // --verify reads and hashes it, and redoes it.
        var verifying = Batch(inputs: [input], output: output, jobs: 1)
        verifying.verify = true
        let verified = try await verifying.run()
        #expect(verified.summary.skipped == 1 && verified.summary.processed == 1)
        let redone = try #require(verified.assets.first { $0.source == "cmyk.jpg" })
        #expect(redone.sha256 != entry.sha256)
        #expect(redone.sha256 == ContentDigest.sha256(Array(try Data(contentsOf: input.appendingPathComponent("cmyk.jpg")))))
    }

    @Test func aReplacedFileIsReadAndItsNewIdentityKept() async throws {
        let (root, input, output) = try Self.folder(with: ["cmyk.jpg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try await Batch(inputs: [input], output: output, jobs: 1).run()
        let file = input.appendingPathComponent("cmyk.jpg")
        // A copy with the same bytes and time put in its place (another inode): read, found
        // equal, reused, and its new inode recorded.
        let copy = root.appendingPathComponent("copy.jpg")
        try FileManager.default.copyItem(at: file, to: copy)
        var stamp = stat()
        #expect(stat(file.path, &stamp) == 0)
        var times = [stamp.st_atim, stamp.st_mtim]
        #expect(utimensat(AT_FDCWD, copy.path, &times, 0) == 0)
        #expect(rename(copy.path, file.path) == 0)
        var info = stat()
        #expect(stat(file.path, &info) == 0)
        #expect(UInt64(info.st_ino) != first.assets.first?.inode)
        let second = try await Batch(inputs: [input], output: output, jobs: 1).run()
        #expect(second.summary.skipped == 1)
        #expect(second.assets.first?.inode == UInt64(info.st_ino))
        #expect(try TestSupport.manifest(in: output).assets.first?.inode == UInt64(info.st_ino))
    }

    @Test func unchangedFailuresAreListedNotRetriedAndDoNotFailTheRun() throws {
        let (root, input, output) = try Self.folder(with: ["cmyk.jpg", "truncated.jpg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try TestSupport.runCLI(["convert", input.path, "-o", output.path])
        #expect(first.status == 1, "a new failure: \(first.stderr)")
        #expect(first.stderr.contains("journal-media: error: truncated.jpg"))

        let second = try TestSupport.runCLI(["convert", input.path, "-o", output.path])
        #expect(second.status == 0, "only an earlier failure: \(second.stderr)")
        #expect(second.stderr.contains("journal-media: failed earlier: truncated.jpg"), "\(second.stderr)")
        #expect(!second.stderr.contains("journal-media: error:"))
        #expect(second.stderr.contains("2 assets: 1 succeeded, 1 failed (1 earlier, not retried), 2 skipped"),
                "\(second.stderr)")
        let manifest = try TestSupport.manifest(in: output)
        #expect(manifest.summary.skipped == 2 && manifest.summary.failed == 1)
        #expect(manifest.assets.first { $0.source == "truncated.jpg" }?.error?.reason == .truncated)

        let retried = try TestSupport.runCLI(["convert", input.path, "-o", output.path, "--retry-failed"])
        #expect(retried.status == 1 && retried.stderr.contains("journal-media: error: truncated.jpg"))
        // A new failure among old ones still makes the run fail.
        try TestSupport.copySamples(["empty.png"], to: input)
        let mixed = try TestSupport.runCLI(["convert", input.path, "-o", output.path])
        #expect(mixed.status == 1 && mixed.stderr.contains("journal-media: error: empty.png"), "\(mixed.stderr)")
        #expect(mixed.stderr.contains("journal-media: failed earlier: truncated.jpg"))
    }

    @Test func etaIsInBytesSoLargeFilesFirstDoNotSkewIt() throws {
        // Ten assets, the first (largest) three hold 90 % of the bytes and took 9 s: the rest
        // (10 % of the bytes) will take about 1 s, not 7 × 3 s.
        var progress = BatchProgress(done: 3, total: 10, failed: 0, skipped: 0, elapsedSeconds: 9)
        progress.bytesTotal = 1000
        progress.bytesDone = 900
        let eta: Double = try #require(progress.secondsRemaining)
        #expect(abs(eta - 1) < 0.01, "\(eta)")
        // Under 10 % of the bytes done: no ETA yet.
        progress.bytesDone = 90
        #expect(progress.secondsRemaining == nil)
    }
}
