import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The `journal-media` executable: exit statuses, stderr, presets, interrupted runs.
@Suite(.serialized) struct CLITests {
    @Test func exitStatusesFollowTheManual() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let good = root.appendingPathComponent("good")
        try FileManager.default.createDirectory(at: good, withIntermediateDirectories: true)
        try TestSupport.copySamples(["photo.heic", "icon.svg"], to: good)

        let ok = try TestSupport.runCLI(["convert", good.path, "--output", root.appendingPathComponent("o1").path])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.isEmpty)
        #expect(!ok.stderr.contains("\r"), "no progress line when stderr is not a terminal")
        #expect(ok.stderr.contains("2 assets: 2 succeeded, 0 failed"))

        let all = root.appendingPathComponent("all")
        try FileManager.default.createDirectory(at: all, withIntermediateDirectories: true)
        try TestSupport.copySamples(to: all)  // the top-level samples: three broken images, one song, one WAV and one AAC without cover
        let mixed = try TestSupport.runCLI(["convert", all.path, "-o", root.appendingPathComponent("o2").path])
        #expect(mixed.status == 1)
        let errorLines = mixed.stderr.split(separator: "\n").filter { $0.hasPrefix("journal-media: error:") }
        #expect(errorLines.count == 6, "one line per failed asset: \(mixed.stderr)")
        #expect(errorLines.contains { $0.contains("song-no-cover.mp3: probe: no artwork") })
        #expect(errorLines.contains { $0.contains("audio-voice.wav: probe: no artwork") })
        #expect(errorLines.contains { $0.contains("audio-tone.aac: probe: no artwork") })
        #expect(errorLines.contains { $0.contains("truncated.jpg: decode:") })
        #expect(errorLines.contains { $0.contains("not-an-image.jpg: sniff:") })

        // The same failures again, unchanged: listed with their old errors, not retried, and
        // not by themselves a reason for exit status 1 (issue 32).
        let quiet = try TestSupport.runCLI(["convert", all.path, "-o", root.appendingPathComponent("o2").path, "--quiet"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        let kept = quiet.stderr.split(separator: "\n")
        #expect(kept.count == 6 && kept.allSatisfy { $0.hasPrefix("journal-media: failed earlier:") }, "\(quiet.stderr)")
        let retried = try TestSupport.runCLI(["convert", all.path, "-o", root.appendingPathComponent("o2").path, "--quiet",
                                              "--retry-failed"])
        #expect(retried.status == 1)
        #expect(retried.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("journal-media: error:") })

        let missing = try TestSupport.runCLI(["convert", root.appendingPathComponent("nope").path, "-o", root.appendingPathComponent("o3").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("does not exist"))

        let inside = try TestSupport.runCLI(["convert", good.path, "-o", good.appendingPathComponent("out").path])
        #expect(inside.status == 2)
        #expect(inside.stderr.contains("inside input"))

        let badFlag = try TestSupport.runCLI(["convert", good.path, "-o", root.path + "/o4", "--jobs", "0"])
        #expect(badFlag.status == 2)
        let unknown = try TestSupport.runCLI(["convert", good.path, "--bogus"])
        #expect(unknown.status == 2)
        let noOutput = try TestSupport.runCLI(["convert", good.path])
        #expect(noOutput.status == 2)

        let help = try TestSupport.runCLI(["convert", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--max-pixels") && help.stdout.contains("manifest.json"))
    }

    @Test func presetFileReplacesTheRenditions() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let preset = root.appendingPathComponent("preset.json")
        try Data("""
            {"renditions": [
              {"role": "preview", "format": "webp", "width": 300},
              {"role": "cover", "format": "jpeg", "width": 128, "height": 128, "fit": "cover", "quality": 70}
            ]}
            """.utf8).write(to: preset)
        let out = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path, "--preset", preset.path])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try TestSupport.manifest(in: out)
        #expect(manifest.preset.map(\.role) == ["preview", "cover"])
        let entry = try #require(manifest.assets.first)
        #expect(entry.renditions.map(\.path) == ["photo.heic.preview.webp", "photo.heic.cover.jpg"])
        #expect(entry.renditions.map(\.width) == [300, 128])
        #expect(entry.renditions.map(\.height) == [200, 128])

        try Data(#"{"renditions": [{"role": "Bad Role", "format": "webp", "width": 10}]}"#.utf8).write(to: preset)
        let invalid = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path, "--preset", preset.path])
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("Bad Role"))
        try Data(#"{"renditions": [{"role": "x", "format": "gif", "width": 10}]}"#.utf8).write(to: preset)
        #expect(try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", out.path, "--preset", preset.path]).status == 2)
    }

    /// `--timings FILE`: one JSON line per processed asset, stages adding up to the total;
    /// a re-run that reuses everything lists nothing.
    @Test func timingsFileListsEachProcessedAsset() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["photo.heic", "orientation-6-gps-p3.jpg", "truncated.jpg"], to: input)
        let timings = root.appendingPathComponent("timings.jsonl")
        let arguments = ["convert", input.path, "-o", root.appendingPathComponent("out").path, "--timings", timings.path]
        let run = try TestSupport.runCLI(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try String(contentsOf: timings, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        var sources: [String] = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            sources.append(try #require(object["source"] as? String))
            let stages = ["read", "metadata", "decode", "analyze", "encode", "write"].compactMap { object[$0] as? Double }
            #expect(stages.count == 6 && stages.allSatisfy { $0 >= 0 })
            let total = try #require(object["seconds"] as? Double)
            #expect(abs(stages.reduce(0, +) - total) < 0.0001 && total > 0)
        }
        #expect(sources.sorted() == ["orientation-6-gps-p3.jpg", "photo.heic", "truncated.jpg"])

        // The unchanged failure is kept (issue 32); --retry-failed processes only it again.
        let again = try TestSupport.runCLI(arguments)
        #expect(again.status == 0)
        #expect(try String(contentsOf: timings, encoding: .utf8).isEmpty)
        let retried = try TestSupport.runCLI(arguments + ["--retry-failed"])
        #expect(retried.status == 1)
        let relisted = try String(contentsOf: timings, encoding: .utf8).split(separator: "\n")
        #expect(relisted.count == 1 && relisted.first?.contains("\"truncated.jpg\"") == true)
    }

    @Test func maxPixelsRefusesLargeImagesFromTheHeader() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("photo.heic").path, "-o", root.path + "/out", "--max-pixels", "1000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("photo.heic: limits:"))
    }

    /// A run killed at an arbitrary moment leaves only complete files under final names,
    /// and the next run completes the batch.
    @Test func aKilledRunLeavesNoPartialFileAndTheNextRunCompletes() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for i in 0..<24 {
            for name in ["photo.heic", "adobe-rgb-16bit.png", "cmyk.jpg"] {
                try FileManager.default.copyItem(at: TestSupport.sample(name), to: input.appendingPathComponent("\(i)-\(name)"))
            }
        }
        let out = root.appendingPathComponent("out")
        for delay in [0.25, 0.6] {
            let process = Process()
            process.executableURL = TestSupport.cli
            process.arguments = ["convert", input.path, "-o", out.path, "--jobs", "2", "--quiet"]
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let files = (FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String]) ?? []
            for file in files where !file.hasPrefix(".") && !file.contains("/.") && file != "manifest.json" {
                #expect(throws: Never.self, "\(file) is complete") {
                    _ = try TestImage(contentsOf: out.appendingPathComponent(file)).image.materialised()
                }
            }
            if FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path) {
                #expect(throws: Never.self) { _ = try TestSupport.manifest(in: out) }
            }
        }
        let finish = try TestSupport.runCLI(["convert", input.path, "-o", out.path])
        #expect(finish.status == 0, "\(finish.stderr)")
        let manifest = try TestSupport.manifest(in: out)
        #expect(manifest.assets.count == 72 && manifest.summary.succeeded == 72)
        let left = (FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String]) ?? []
        #expect(!left.contains { $0.hasSuffix(AtomicFile.temporarySuffix) })
        #expect(left.filter { $0.hasSuffix(".webp") || $0.hasSuffix(".jpg") }.count == 144)
    }
}
