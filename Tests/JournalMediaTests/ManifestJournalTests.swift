import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The manifest journal (issue 14, item 6): entries are appended as they finish instead of
/// the whole manifest being rewritten every 2 s; a killed run resumes from the journal; the
/// manifest is written once at the end, streamed, byte for byte what `encoded()` gives.
@Suite(.serialized) struct ManifestJournalTests {
    func journalLines(_ output: URL) -> [String] {
        let text = (try? String(contentsOf: output.appendingPathComponent(ManifestJournal.fileName), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    @Test func theStreamedManifestIsByteForByteTheEncodedOne() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["photo.heic", "icon.svg", "truncated.jpg", "empty.png", "song-cover.mp3"], to: input)
        let output = root.appendingPathComponent("out")
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()
        #expect(manifest.assets.count == 5 && manifest.summary.failed == 2)
        let written = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        #expect(written == (try manifest.encoded()))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(ManifestJournal.fileName).path),
                "the journal is removed once the manifest holds its entries")

        var empty = manifest
        empty.assets = []
        var streamed = Data()
        try empty.encode { streamed.append($0) }
        #expect(streamed == (try empty.encoded()))
    }

    /// SIGKILL in the middle of a run: no manifest.json was written yet, the journal holds
    /// what finished, and the next run reuses exactly those entries (a torn last line from the
    /// crash is skipped), then writes the manifest and removes the journal.
    @Test func aKilledRunResumesFromTheJournal() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for i in 0..<30 {
            try FileManager.default.copyItem(at: TestSupport.sample("photo.heic"), to: input.appendingPathComponent("\(i).heic"))
        }
        let output = root.appendingPathComponent("out")
        let process = Process()
        process.executableURL = TestSupport.cli
        process.arguments = ["convert", input.path, "-o", output.path, "--jobs", "1", "--quiet"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while journalLines(output).count < 4 && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.02) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed mid-run, not finished")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("manifest.json").path))

        let lines = journalLines(output)
        #expect(lines.count >= 4 && lines.count < 31)
        let header = try JSONDecoder().decode(ManifestJournal.Header.self, from: Data(lines[0].utf8))
        #expect(header == ManifestJournal.Header(journal: 1, preset: Defaults.renditions,
                                                  settings: ProcessingOptions().outputSettings))
        let finished = Set(try lines.dropFirst().map { try JSONDecoder().decode(ManifestEntry.self, from: Data($0.utf8)).source })
        // A crash could cut a line short: it is skipped, and the next line starts cleanly.
        let handle = try FileHandle(forWritingTo: output.appendingPathComponent(ManifestJournal.fileName))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"source":"29.heic","sha2"#.utf8))
        try handle.close()

        let resumed = try TestSupport.runCLI(["convert", input.path, "-o", output.path, "--jobs", "2"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let manifest = try TestSupport.manifest(in: output)
        #expect(manifest.assets.count == 30 && manifest.summary.succeeded == 30)
        #expect(manifest.summary.skipped == finished.count, "every journalled entry reused, nothing else")
        #expect(manifest.summary.processed == 30 - finished.count)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(ManifestJournal.fileName).path))
    }

    /// A journal written with other rendition specs is not replayed: its entries describe
    /// other files.
    @Test func aJournalOfAnotherPresetIsNotReplayed() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["photo.heic", "icon.svg"], to: input)
        let output = root.appendingPathComponent("out")
        _ = try await Batch(inputs: [input], output: output, jobs: 2).run()
        // Leave a journal as a killed run would: the finished manifest's entries, as lines.
        let earlier = try TestSupport.manifest(in: output)
        let defaults = ProcessingOptions().outputSettings
        let journal = try ManifestJournal.open(in: output, preset: Defaults.renditions, settings: defaults, continuing: false)
        for entry in earlier.assets { journal.append(entry) }
        try FileManager.default.removeItem(at: output.appendingPathComponent("manifest.json"))
        #expect(ManifestJournal.replay(in: output, preset: Defaults.renditions, settings: defaults)?.count == 2)
        #expect(ManifestJournal.replay(in: output, preset: Defaults.renditions,
                                       settings: OutputSettings(colors: false)) == nil, "other settings")

        let other = [RenditionSpec(role: "small", format: .png, width: 64)]
        #expect(ManifestJournal.replay(in: output, preset: other, settings: defaults) == nil)
        let redone = try await Batch(inputs: [input], output: output, options: ProcessingOptions(renditions: other), jobs: 2).run()
        #expect(redone.summary.skipped == 0 && redone.summary.processed == 2)
        let same = try await Batch(inputs: [input], output: output, options: ProcessingOptions(renditions: other), jobs: 2).run()
        #expect(same.summary.skipped == 2)
    }

    /// A batch larger than its descriptor budget: files beyond it are reopened when
    /// processed, and each descriptor must be closed once its file is done (they used to be
    /// kept to the end of the run, so the batch failed with "Too many open files" 256 files
    /// past the budget). Run with a descriptor limit of 270 (a budget of 14) over 300 PNGs.
    @Test func aBatchBeyondItsDescriptorBudgetClosesWhatItReopens() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let black = try VipsOperationCall("black")
        try black.set("width", .int(16))
        try black.set("height", .int(16))
        try black.set("bands", .int(3))
        try black.build()
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(try black.outputImage()))
        try save.build()
        let png = Data(try save.outputBytes())
        for i in 0..<300 { try png.write(to: input.appendingPathComponent(String(format: "%03d.png", i))) }
        let output = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["-c", #"ulimit -n 270 && exec "$0" convert "$1" -o "$2" --jobs 2 --quiet"#,
                                          TestSupport.cli.path, input.path, output.path],
                                         executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 0, "\(run.stderr.prefix(500))")
        let manifest = try TestSupport.manifest(in: output)
        #expect(manifest.assets.count == 300 && manifest.summary.succeeded == 300)
    }
    /// Options other than the preset that change entries (colours, notification audio and
    /// clip length) are recorded in the manifest, and a re-run with other ones redoes the
    /// entries instead of reusing what the old settings made.
    @Test func aReRunWithOtherSettingsRedoesTheEntries() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["cmyk.jpg", "audio-cover.aiff"], to: input)
        let output = root.appendingPathComponent("out")
        let specs = Defaults.renditions + [Defaults.notificationRendition]
        func run(colors: Bool, audio: Bool) async throws -> Manifest {
            try await Batch(inputs: [input], output: output,
                            options: ProcessingOptions(renditions: specs, analyzeColors: colors, notificationAudio: audio),
                            jobs: 2).run()
        }
        let plain = try await run(colors: false, audio: false)
        #expect(plain.summary.processed == 2)
        #expect(plain.assets.allSatisfy { $0.colors == nil })
        #expect(plain.settings == OutputSettings(colors: false, notificationClipSeconds: Defaults.notificationClipSeconds,
                                                 notificationAudio: false))
        let written = try TestSupport.manifest(in: output)
        #expect(written.settings == plain.settings, "the settings are in manifest.json")

        let withColours = try await run(colors: true, audio: false)
        #expect(withColours.summary.skipped == 0, "colours were not computed before: nothing to reuse")
        #expect(withColours.assets.filter { $0.colors != nil }.count == 2)
        let withAudio = try await run(colors: true, audio: true)
        #expect(withAudio.summary.skipped == 0)
        let audio = try #require(withAudio.assets.first { $0.source == "audio-cover.aiff" })
        #expect(audio.renditions.contains { $0.role == AssetProcessor.notificationAudioRole }, "\(audio.renditions.map(\.role))")
        let again = try await run(colors: true, audio: true)
        #expect(again.summary.skipped == 2, "same preset and settings: reused")

        // A manifest from before the field existed reads as made with the defaults.
        var old = try TestSupport.manifest(in: output)
        old.settings = nil
        #expect(old.effectiveSettings == ProcessingOptions(renditions: specs).outputSettings)
    }
}
