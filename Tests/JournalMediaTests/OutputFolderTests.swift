import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// The output folder's safety (issue 14): one writer at a time, writability checked before any
/// decode, long names within NAME_MAX, nothing written through symbolic links planted in it.
@Suite(.serialized) struct OutputFolderTests {
    /// Creates `in/` with `names` copied from Samples/ (name in the folder → sample name).
    func makeInput(_ names: [String: String], label: String = #function) throws -> (root: URL, input: URL, output: URL) {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        for (name, sample) in names {
            let url = input.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestSupport.sample(sample), to: url)
        }
        return (root, input, root.appendingPathComponent("out"))
    }

    /// Takes the output folder's lock from this process, as a running batch would.
    func holdLock(on output: URL) throws -> Int32 {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let fd = open(output.appendingPathComponent(OutputFolderLock.fileName).path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd
    }

    @Test func aSecondRunIntoALockedFolderExitsAtOnceOrWaits() throws {
        let (root, input, output) = try makeInput(["a.heic": "photo.heic", "b.svg": "icon.svg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let fd = try holdLock(on: output)
        let timings = root.appendingPathComponent("timings.jsonl")

        let refused = try TestSupport.runCLI(["convert", input.path, "-o", output.path, "--timings", timings.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is in use by another journal-media run"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--wait"))
        #expect(((try? Data(contentsOf: timings)) ?? Data()).isEmpty, "nothing was processed")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("manifest.json").path))

        let waiting = Process()
        waiting.executableURL = TestSupport.cli
        waiting.arguments = ["convert", input.path, "-o", output.path, "--wait"]
        let err = Pipe()
        waiting.standardError = err
        try waiting.run()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(waiting.isRunning, "queued behind the lock")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("manifest.json").path))
        close(fd)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("waiting for the other run"))
        let manifest = try Manifest.decode(try Data(contentsOf: output.appendingPathComponent("manifest.json")))
        #expect(manifest.summary.succeeded == 2)
    }

    /// A lock that is let go within moments is not another run's: a process spawned on another
    /// thread holds a copy of this process's descriptors until it execs, so a run that starts
    /// right after an earlier run in the same process ended could see the earlier lock for a
    /// moment (CI failed `livePhotoIsReusedOnlyWhileBothFilesAreUnchanged` this way). The
    /// second acquire waits that out instead of refusing.
    @Test func aLockLetGoWithinMomentsIsTakenRatherThanRefused() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let fd = try holdLock(on: output)
        let release = Thread { Thread.sleep(forTimeInterval: 0.3); close(fd) }
        release.start()
        let lock = try await OutputFolderLock.acquire(in: output, wait: false)
        withExtendedLifetime(lock) {}
    }

    /// The audit's case: two runs over the same inputs into one folder at once. With `--wait`
    /// both succeed, one after the other, and no entry or temporary file is lost.
    @Test func twoConcurrentRunsWithWaitLoseNothing() throws {
        var names: [String: String] = [:]
        for i in 0..<4 {
            names["\(i)-photo.heic"] = "photo.heic"
            names["\(i)-cmyk.jpg"] = "cmyk.jpg"
        }
        let (root, input, output) = try makeInput(names)
        defer { try? FileManager.default.removeItem(at: root) }
        let runs = (0..<2).map { _ in Process() }
        for run in runs {
            run.executableURL = TestSupport.cli
            run.arguments = ["convert", input.path, "-o", output.path, "--wait", "--jobs", "1", "--quiet"]
            run.standardError = FileHandle.nullDevice
            try run.run()
        }
        for run in runs { run.waitUntilExit() }
        #expect(runs.map(\.terminationStatus) == [0, 0])
        let manifest = try Manifest.decode(try Data(contentsOf: output.appendingPathComponent("manifest.json")))
        #expect(manifest.assets.count == 8 && manifest.summary.succeeded == 8)
        let files = (FileManager.default.enumerator(atPath: output.path)?.allObjects as? [String]) ?? []
        #expect(files.filter { $0.hasSuffix(".webp") }.count == 8)
        #expect(!files.contains { $0.hasSuffix(AtomicFile.temporarySuffix) })
    }

    /// An output that cannot be created fails before any input is decoded, with exit 2.
    @Test func anOutputThatCannotBeCreatedFailsBeforeDecoding() throws {
        let (root, input, _) = try makeInput(["a.heic": "photo.heic"])
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        let timings = root.appendingPathComponent("timings.jsonl")
        let run = try TestSupport.runCLI(["convert", input.path, "-o", file.appendingPathComponent("out").path,
                                          "--timings", timings.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot create output folder"), "\(run.stderr)")
        #expect(((try? Data(contentsOf: timings)) ?? Data()).isEmpty, "nothing was processed")
    }

    /// Whether this machine can mount a read-only tmpfs in a private mount namespace
    /// (`unshare -m`, needs CAP_SYS_ADMIN): root ignores mode bits, so a read-only mount is
    /// the honest read-only folder.
    static let canMountReadOnly: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "sh", "-c", "mount -t tmpfs -o ro tmpfs /mnt"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    /// A read-only output folder (a read-only tmpfs, existing, and a folder to create in it)
    /// fails at once with exit 2 and a clear message; no input is processed.
    @Test(.enabled(if: OutputFolderTests.canMountReadOnly, "needs unshare -m and mount (CAP_SYS_ADMIN); as root, mode bits cannot make a folder read-only"))
    func aReadOnlyOutputFailsBeforeDecoding() throws {
        let (root, input, _) = try makeInput(["a.heic": "photo.heic", "b.svg": "icon.svg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let readOnly = root.appendingPathComponent("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        for (output, expected) in [(readOnly.path, "is not writable"), (readOnly.path + "/sub", "cannot create output folder")] {
            let timings = root.appendingPathComponent("timings-\(expected.count).jsonl")
            let script = #"mount -t tmpfs -o ro tmpfs "$1" && exec "$2" convert "$3" -o "$4" --timings "$5""#
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["-m", "sh", "-c", script, "sh", readOnly.path, TestSupport.cli.path, input.path, output, timings.path]
            let err = Pipe()
            process.standardError = err
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2, "\(stderr)")
            #expect(stderr.contains(expected) && stderr.contains("Read-only file system"), "\(stderr)")
            #expect(((try? Data(contentsOf: timings)) ?? Data()).isEmpty, "nothing was processed")
        }
    }

    /// Names near NAME_MAX: a 240-byte name whose `.thumbnail.webp` output is exactly 255
    /// bytes (its old temporary name was ~30 bytes longer and failed), and 251-byte names
    /// whose outputs are shortened with a hash, distinct for names differing only at the end.
    @Test func longNamesConvertWithinNameMax() async throws {
        let exact = String(repeating: "a", count: 235) + ".heic"             // 240 bytes
        let longA = "é" + String(repeating: "é", count: 119) + "-one.heic"   // 249 bytes, 2-byte characters
        let longB = "é" + String(repeating: "é", count: 119) + "-two.heic"
        let (root, input, output) = try makeInput([exact: "photo.heic", longA: "photo.heic", longB: "photo.heic"])
        defer { try? FileManager.default.removeItem(at: root) }
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()
        #expect(manifest.summary.succeeded == 3, "\(manifest.assets.compactMap(\.error))")
        let byName = Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.source, $0) })
        let exactPaths = byName[exact]?.renditions.compactMap(\.path) ?? []
        #expect(exactPaths.contains(exact + ".thumbnail.webp"))
        var seen = Set<String>()
        for name in [exact, longA, longB] {
            for path in byName[name]?.renditions.compactMap(\.path) ?? [] {
                #expect(path.utf8.count <= AtomicFile.nameMax)
                #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path))
                #expect(seen.insert(path).inserted, "no two assets share an output")
            }
        }
        let shortened = byName[longA]?.renditions.compactMap(\.path) ?? []
        #expect(shortened.count == 2 && shortened.allSatisfy { $0.hasPrefix("ééé") && $0.contains("~") })

        // A re-run finds the shortened outputs and reuses every entry.
        let again = try await Batch(inputs: [input], output: output, jobs: 2).run()
        #expect(again.summary.skipped == 3)
    }

    /// A symbolic link planted inside the output folder is never written through: a linked
    /// sub-folder gives that asset a `write` error, and a link at a rendition's final name is
    /// replaced by the rendition while its target stays untouched.
    @Test func symbolicLinksInsideTheOutputAreNotWrittenThrough() async throws {
        let (root, input, output) = try makeInput(["sub/a.heic": "photo.heic", "b.svg": "icon.svg"])
        defer { try? FileManager.default.removeItem(at: root) }
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let victim = elsewhere.appendingPathComponent("victim")
        try Data("keep me".utf8).write(to: victim)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("sub"), withDestinationURL: elsewhere)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("b.svg.thumbnail.webp"), withDestinationURL: victim)

        let manifest = try await Batch(inputs: [input], output: output, jobs: 1).run()
        let linked = manifest.assets.first { $0.source == "sub/a.heic" }
        #expect(linked?.error?.stage == .write)
        #expect(linked?.error?.message.contains("symbolic link") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["victim"])
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
        let replaced = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("b.svg.thumbnail.webp").path)
        #expect(replaced[.type] as? FileAttributeType == .typeRegular)
        #expect(manifest.assets.first { $0.source == "b.svg" }?.error == nil)
    }

    /// Issue 27, item 9: `convert A -o out` then `convert B -o out` keeps A's renditions (the
    /// manifest was written for other inputs) and says so; `--prune` then removes them, naming
    /// each; a deleted input of the same inputs is still pruned without asking.
    @Test func aRunOverOtherInputsKeepsTheEarlierRunsOutputs() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b")
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: TestSupport.sample("cmyk.jpg"), to: a.appendingPathComponent("one.jpg"))
        try FileManager.default.copyItem(at: TestSupport.sample("scene.webp"), to: a.appendingPathComponent("two.webp"))
        try FileManager.default.copyItem(at: TestSupport.sample("alpha-disc.png"), to: b.appendingPathComponent("three.png"))
        let out = root.appendingPathComponent("out")
        func files() -> Set<String> {
            Set(((FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String]) ?? [])
                .filter { $0.hasSuffix(".webp") })
        }

        let first = try TestSupport.runCLI(["convert", a.path, "-o", out.path, "--size", "32"])
        #expect(first.status == 0, "\(first.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect((written as? [String: Any])?["inputs"] as? [String] == [a.resolvingSymlinksInPath().path])
        let second = try TestSupport.runCLI(["convert", b.path, "-o", out.path, "--size", "32", "--wait"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(files() == ["one.jpg.image.webp", "two.webp.image.webp", "three.png.image.webp"], "A's outputs are kept")
        #expect(second.stderr.contains("was written for other inputs (\(a.resolvingSymlinksInPath().path)); "
                                       + "2 renditions it listed that this run did not make were kept"), "\(second.stderr)")
        #expect(!second.stderr.contains("removed"))

        // Asked: the earlier run's listed renditions go, each named; nothing else.
        #expect(try TestSupport.runCLI(["convert", a.path, "-o", out.path, "--size", "32", "--prune"]).status == 0)
        let asked = try TestSupport.runCLI(["convert", b.path, "-o", out.path, "--size", "32", "--prune"])
        #expect(asked.status == 0, "\(asked.stderr)")
        #expect(asked.stderr.contains("journal-media: note: removed stale rendition one.jpg.image.webp"), "\(asked.stderr)")
        #expect(asked.stderr.contains("2 stale renditions removed"))
        #expect(files() == ["three.png.image.webp"])

        // The same inputs: a deleted input's renditions go without --prune.
        try FileManager.default.copyItem(at: TestSupport.sample("cmyk.jpg"), to: b.appendingPathComponent("four.jpg"))
        #expect(try TestSupport.runCLI(["convert", b.path, "-o", out.path, "--size", "32"]).status == 0)
        try FileManager.default.removeItem(at: b.appendingPathComponent("four.jpg"))
        let same = try TestSupport.runCLI(["convert", b.path, "-o", out.path, "--size", "32"])
        #expect(same.stderr.contains("removed stale rendition four.jpg.image.webp"), "\(same.stderr)")
        #expect(files() == ["three.png.image.webp"])
    }
}
