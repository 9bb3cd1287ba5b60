import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// The command line as a user of vipsthumbnail and ffmpeg would try it: quick renditions by
/// flag, stale outputs pruned, a progress line that fits the terminal, Ctrl-C that finishes
/// cleanly, a --version that names every library.
@Suite struct CLIPolishTests {
    @Test func sizeFormatAndQualityMakeOneRenditionWithoutAPreset() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path,
                                          "--size", "256", "--format", "avif", "--quality", "60"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try TestSupport.manifest(in: out)
        let rendition = try #require(manifest.assets.first?.renditions.first)
        #expect(manifest.preset.count == 1 && rendition.role == "image" && rendition.format == .avif)
        #expect(max(rendition.width, rendition.height) == 256)
        let bytes = Array(try Data(contentsOf: out.appendingPathComponent(try #require(rendition.path))))
        #expect(FormatSniffer.sniff(bytes) == .avif)
        let image = try TestImage(bytes)
        #expect(image.width == rendition.width && image.height == rendition.height)

        let webp = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o",
                                           root.appendingPathComponent("webp").path, "-s", "100"])
        #expect(webp.status == 0)
        #expect(try TestSupport.manifest(in: root.appendingPathComponent("webp")).preset
            == [RenditionSpec(role: "image", format: .webp, width: 100, quality: 80)])

        let gif = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path, "--format", "gif"])
        #expect(gif.status == 2 && gif.stderr.contains("accepted: webp, jpeg, png, avif"))
        #expect(gif.stderr.hasPrefix("journal-media: error: --format gif"), "one error prefix: \(gif.stderr)")
        #expect(!gif.stderr.contains("Error: "))
        let both = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path,
                                           "--size", "100", "--preset", "x.json"])
        #expect(both.status == 2 && both.stderr.contains("not both"))
    }

    @Test func staleRenditionsArePrunedAndNothingElse() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("photo.heic"), to: input.appendingPathComponent("a.heic"))
        try FileManager.default.copyItem(at: TestSupport.sample("cmyk.jpg"), to: input.appendingPathComponent("sub/b.jpg"))
        let out = root.appendingPathComponent("out")
        #expect(try TestSupport.runCLI(["convert", input.path, "-o", out.path]).status == 0)
        let mine = out.appendingPathComponent("notes.txt")
        try Data("the user's own file".utf8).write(to: mine)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub/b.jpg.fallback.jpg").path))

        // A preset change: the old roles' files go, the user's file stays.
        let changed = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--size", "64"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stderr.contains("4 stale renditions removed"))
        let left = Set((FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String]) ?? [])
        #expect(left.contains("a.heic.image.webp") && left.contains("sub/b.jpg.image.webp"))
        #expect(!left.contains { $0.hasSuffix(".thumbnail.webp") || $0.hasSuffix(".fallback.jpg") })
        #expect(left.contains("notes.txt"))

        // A deleted input: its renditions go; with --no-prune they stay.
        try FileManager.default.removeItem(at: input.appendingPathComponent("sub/b.jpg"))
        let kept = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--size", "64", "--no-prune"])
        #expect(kept.status == 0)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub/b.jpg.image.webp").path))
        let pruned = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--size", "64"])
        #expect(pruned.status == 0)
        // --no-prune's manifest no longer listed b.jpg, so only what that manifest named can go:
        // the file written before it stays, as it is not the toolkit's to remove any more.
        #expect(FileManager.default.fileExists(atPath: mine.path))
        #expect(try TestSupport.manifest(in: out).assets.map(\.source) == ["a.heic"])
    }

    @Test func summaryCountsInTheSingular() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("cmyk.jpg").path, "-o", root.appendingPathComponent("o").path])
        #expect(run.status == 0)
        #expect(run.stderr.contains("1 asset: 1 succeeded"), "\(run.stderr)")
        // The count itself, not the rate that follows it ("3.1 assets/s" is right and once
        // made this check fail in a full run).
        #expect(!run.stderr.contains("1 assets:"), "\(run.stderr)")
    }

    @Test func versionNamesEveryNativeLibrary() throws {
        let run = try TestSupport.runCLI(["--version"])
        #expect(run.status == 0)
        for name in ["libvips", "libavformat", "libavcodec", "libswscale", "libexif.so.", "OpenSSL", "pango"] {
            #expect(run.stdout.contains(name), "\(name) in \(run.stdout)")
        }
    }

    @Test func etaWaitsForARateThatMeansSomething() {
        let instantFailure = BatchProgress(done: 1, total: 100, failed: 1, skipped: 0, elapsedSeconds: 0.01)
        #expect(instantFailure.secondsRemaining == nil)
        let reused = BatchProgress(done: 50, total: 100, failed: 0, skipped: 49, elapsedSeconds: 2)
        #expect(reused.secondsRemaining == nil)
        let steady = BatchProgress(done: 10, total: 100, failed: 0, skipped: 0, elapsedSeconds: 5)
        #expect(steady.secondsRemaining == 45)
    }

    /// Under a 30-column pseudo-terminal: every redraw of the progress line fits; Ctrl-C makes
    /// the run finish what is in flight, write the manifest, print the summary and exit 130.
    @Test func progressLineFitsTheTerminalAndCtrlCFinishesCleanly() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for i in 0..<80 {
            try FileManager.default.copyItem(at: TestSupport.sample("photo.heic"),
                                             to: input.appendingPathComponent(String(format: "p%03d.heic", i)))
        }
        let out = root.appendingPathComponent("out")
        let terminal = try PseudoTerminal(columns: 30)
        let process = Process()
        process.executableURL = TestSupport.cli
        process.arguments = ["convert", input.path, "-o", out.path, "--jobs", "1"]
        process.standardError = terminal.follower
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait for a few redraws, then interrupt.
        var text = terminal.read(until: { $0.components(separatedBy: "\r").count > 4 }, timeout: 60)
        kill(process.processIdentifier, SIGINT)
        text += terminal.read(until: { $0.contains(" → ") }, timeout: 60)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit && process.terminationStatus == 130, "\(text)")
        // Split on the scalars: "\r\n" (the terminal's newline) is one Character in Swift.
        let redraws = text.replacingOccurrences(of: "\u{1B}[K", with: "").unicodeScalars
            .split(whereSeparator: { $0 == "\r" || $0 == "\n" }).map { String(String.UnicodeScalarView($0)) }
            .filter { $0.hasPrefix("[") }
        #expect(redraws.count >= 3)
        for line in redraws { #expect(line.count <= 29, "\(line) is wider than the terminal") }
        #expect(text.contains("interrupted; finishing the assets in flight"))
        #expect(text.contains("interrupted: "))
        let manifest = try TestSupport.manifest(in: out)
        #expect(manifest.assets.count > 0 && manifest.assets.count < 80, "stopped part-way: \(manifest.assets.count)")
        #expect(manifest.assets.allSatisfy { $0.error == nil })
        // Every rendition the manifest lists is there and complete; the re-run finishes the rest.
        for entry in manifest.assets {
            for rendition in entry.renditions {
                _ = try TestImage(contentsOf: out.appendingPathComponent(try #require(rendition.path)))
            }
        }
        let rest = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--quiet"])
        #expect(rest.status == 0)
        #expect(try TestSupport.manifest(in: out).assets.count == 80)
    }

    /// Issue 27, item 10: SIGTERM during `--force` leaves a manifest that still lists every
    /// rendition on disk (the assets not redone keep their earlier entries) and says it is
    /// partial (`"complete": false`); the next run completes it and drops the flag.
    @Test func sigtermDuringForceKeepsEveryEntry() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let count = 60
        for i in 0..<count {
            try FileManager.default.copyItem(at: TestSupport.sample("photo.heic"),
                                             to: input.appendingPathComponent(String(format: "p%03d.heic", i)))
        }
        let out = root.appendingPathComponent("out")
        let first = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--size", "48"])
        #expect(first.status == 0, "\(first.stderr)")
        let full = try TestSupport.manifest(in: out)
        #expect(full.assets.count == count && Self.completeKey(in: out) == nil)

        // --force, one at a time; SIGTERM once three assets are redone.
        let timings = root.appendingPathComponent("timings.jsonl")
        let process = Process()
        process.executableURL = TestSupport.cli
        process.arguments = ["convert", input.path, "-o", out.path, "--size", "48", "--force", "--jobs", "1",
                             "--timings", timings.path]
        process.standardError = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let lines = (try? String(contentsOf: timings, encoding: .utf8))?.split(separator: "\n").count ?? 0
            if lines >= 3 { break }
            usleep(5_000)
        }
        #expect(process.isRunning, "the run must still be going when it is signalled")
        process.terminate()  // SIGTERM
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)

        let partial = try TestSupport.manifest(in: out)
        let redone = (try String(contentsOf: timings, encoding: .utf8)).split(separator: "\n").count
        #expect(redone < count, "stopped part-way: \(redone) redone")
        #expect(Self.completeKey(in: out) == false)
        #expect(partial.assets.count == count, "every asset keeps an entry")
        let listed = Set(partial.assets.flatMap { $0.renditions.compactMap(\.path) })
        let onDisk = Set(((FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String]) ?? [])
            .filter { $0.hasSuffix(".webp") })
        #expect(onDisk.count == count && listed == onDisk, "every rendition on disk is listed")

        let resumed = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--size", "48"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let done = try TestSupport.manifest(in: out)
        #expect(Self.completeKey(in: out) == nil && done.assets.count == count)
    }

    /// manifest.json's "complete" key, read as JSON (nil when absent).
    static func completeKey(in out: URL) -> Bool? {
        guard let data = try? Data(contentsOf: out.appendingPathComponent("manifest.json")),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["complete"] as? Bool
    }
}

// glibc's pseudo-terminal calls, which its Swift module does not import (they need _XOPEN_SOURCE).
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?

/// A pseudo-terminal pair with a set width: the leader end is read by the test, the
/// follower end is a child's stderr (so `isatty` is true).
final class PseudoTerminal {
    let leader: Int32
    let follower: FileHandle

    init(columns: UInt16) throws {
        leader = posix_openpt(O_RDWR | O_NOCTTY)
        guard leader >= 0, grantpt(leader) == 0, unlockpt(leader) == 0, let name = ptsname(leader) else {
            throw POSIXError(.ENOTTY)
        }
        let fd = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw POSIXError(.ENOTTY) }
        var size = winsize(ws_row: 24, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(fd, UInt(TIOCSWINSZ), &size)
        follower = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        let flags = fcntl(leader, F_GETFL)
        _ = fcntl(leader, F_SETFL, flags | O_NONBLOCK)
    }

    /// Reads what arrived until `done` says so or `timeout` seconds pass.
    func read(until done: (String) -> Bool, timeout: Double) -> String {
        var collected = [UInt8]()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(leader, $0.baseAddress, $0.count) }
            if n > 0 {
                collected += buffer[0..<n]
                if done(String(decoding: collected, as: UTF8.self)) { break }
            } else {
                usleep(20_000)
            }
        }
        return String(decoding: collected, as: UTF8.self)
    }

    deinit { close(leader) }
}
