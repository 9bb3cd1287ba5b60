import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 33, item 6: one check of rendition specs, with a typed error naming the spec, the
/// field and the problem, used by preset files, library batches and `convert --size/--quality`.
@Suite struct RenditionSpecValidationTests {
    func spec(_ role: String, _ format: RenditionFormat = .png, width: Int = 10, quality: Int? = nil,
              effort: Int? = nil, maxBytes: Int? = nil) -> RenditionSpec {
        var spec = RenditionSpec(role: role, format: format, width: width, quality: quality)
        spec.effort = effort
        spec.maxBytes = maxBytes
        return spec
    }

    @Test func theErrorSaysWhichSpecWhichFieldAndWhatIsWrong() {
        #expect(throws: RenditionSpecError(index: 1, role: "b", field: .quality, problem: .outOfRange(101, 1...100))) {
            try RenditionSpec.validate([spec("a"), spec("b", .jpeg, quality: 101)])
        }
        #expect(throws: RenditionSpecError(index: 0, role: "t", field: .effort, problem: .outOfRange(8, 0...6))) {
            try RenditionSpec.validate([spec("t", .webp, effort: 8)])
        }
        #expect(throws: RenditionSpecError(index: nil, role: nil, field: nil, problem: .noRenditions)) {
            try RenditionSpec.validate([])
        }
        #expect(throws: RenditionSpecError(index: 1, role: "a", field: .role, problem: .duplicateRole)) {
            try RenditionSpec.validate([spec("a"), spec("a")])
        }
        #expect(throws: RenditionSpecError(index: 0, role: "notification", field: .format,
                                           problem: .notAnAttachmentFormat(.webp))) {
            try RenditionSpec.validate([spec("notification", .webp)])
        }
        #expect(throws: RenditionSpecError(index: 0, role: "a", field: .format, problem: .attachmentOnlyFormat(.gif))) {
            try RenditionSpec.validate([spec("a", .gif)])
        }
        #expect(throws: RenditionSpecError(index: 0, role: "a", field: .maxBytes, problem: .outOfRange(10, 1024...(1 << 30)))) {
            try RenditionSpec.validate([spec("a", maxBytes: 10)])
        }
        let error = RenditionSpecError(index: 2, role: "x", field: .width, problem: .outOfRange(0, RenditionSpec.sides))
        #expect(error.description == "renditions[2].width: 0 is out of range 1–\(Defaults.maxRenditionSide)")
        #expect(throws: Never.self) { try RenditionSpec.validate(Defaults.renditions) }
    }

    /// A preset names the precise field (a bad role was reported against the whole list), a
    /// library caller's batch is refused for what a preset file is refused for (an effort out
    /// of range reached the encoder), and `--size` says its range the same way.
    @Test func presetsBatchesAndTheCommandLineShareTheCheck() async throws {
        do {
            _ = try Preset.parse(Data(#"{"renditions": [{"role": "../../x", "format": "png", "width": 10}]}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.path == "renditions[0].role")
            #expect(error.message == #""../../x" must be lowercase letters, digits and '-', starting with a letter"#)
        }
        let output = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let batch = Batch(inputs: [TestSupport.sample("alpha-disc.png")], output: output.appendingPathComponent("out"),
                          options: ProcessingOptions(renditions: [spec("t", .webp, effort: 8)]))
        await #expect(throws: BatchError.invalidPreset("renditions[0].effort: 8 is out of range 0–6")) {
            try await batch.run()
        }
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("alpha-disc.png").path, "-o",
                                          output.appendingPathComponent("cli").path, "--size", "0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--size: 0 is out of range 1–\(Defaults.maxRenditionSide)"), "\(run.stderr)")
        let quality = try TestSupport.runCLI(["convert", TestSupport.sample("alpha-disc.png").path, "-o",
                                              output.appendingPathComponent("cli").path, "--quality", "101"])
        #expect(quality.status == 2 && quality.stderr.contains("--quality: 101 is out of range 1–100"), "\(quality.stderr)")
    }
}
