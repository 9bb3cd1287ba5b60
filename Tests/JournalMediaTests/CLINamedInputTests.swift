import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 32's CLI details: inputs named on the command line, usage errors that point to the
/// right help, and help text that keeps its examples as written.
@Suite struct CLINamedInputTests {
    @Test func aNamedInputMissingOrNotMediaIsAUsageErrorForConvertAndInspect() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let notes = root.appendingPathComponent("notes.txt")
        try Data("call the framer on monday\n".utf8).write(to: notes)
        let out = root.appendingPathComponent("out")

        let missing = try TestSupport.runCLI(["inspect", root.appendingPathComponent("nope").path])
        #expect(missing.status == 2 && missing.stdout.isEmpty, "\(missing.stderr)")
        #expect(missing.stderr.contains("does not exist"))
        let convertMissing = try TestSupport.runCLI(["convert", root.appendingPathComponent("nope").path, "-o", out.path])
        #expect(convertMissing.status == 2)

        for arguments in [["inspect", notes.path], ["convert", notes.path, "-o", out.path]] {
            let run = try TestSupport.runCLI(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("notes.txt is not media: a text file"), "\(run.stderr)")
            #expect(run.stdout.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
        // --strict: such a file is a failed asset, as before.
        let strict = try TestSupport.runCLI(["convert", notes.path, "-o", out.path, "--strict"])
        #expect(strict.status == 1, "\(strict.stderr)")
        // Inside a folder it is still passed over and listed.
        let elsewhere = try TestSupport.temporaryFolder("named-input-out")
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let folder = try TestSupport.runCLI(["convert", root.path, "-o", elsewhere.appendingPathComponent("out").path])
        #expect(folder.status == 0 && folder.stderr.contains("notes.txt: ignored"), "\(folder.stderr)")
    }

    @Test func inspectRelativePrintsPathsAsTheManifestDoes() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in/2024")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["cmyk.jpg"], to: input)
        let folder = root.appendingPathComponent("in")
        let given = try TestSupport.runCLI(["inspect", folder.path])
        #expect(given.stdout.contains("\"source\":\"\(folder.path)/2024/cmyk.jpg\""), "\(given.stdout)")
        let relative = try TestSupport.runCLI(["inspect", "--relative", folder.path])
        #expect(relative.status == 0)
        #expect(relative.stdout.contains("\"source\":\"2024/cmyk.jpg\""), "\(relative.stdout)")
        let out = root.appendingPathComponent("out")
        #expect(try TestSupport.runCLI(["convert", folder.path, "-o", out.path]).status == 0)
        #expect(try TestSupport.manifest(in: out).assets.map(\.source) == ["2024/cmyk.jpg"])
    }

    @Test func aBadColourPointsToColorHelp() throws {
        let run = try TestSupport.runCLI(["color", "red"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("See 'journal-media color --help'"), "\(run.stderr)")
        #expect(run.stderr.contains("Usage: journal-media color"), "\(run.stderr)")
    }

    /// argument-parser re-wraps every help line longer than the terminal (80 columns when
    /// not a terminal), at spaces: examples are kept as written only when each line fits.
    @Test func helpKeepsExamplesVerbatimAndDefaultsOnce() throws {
        let environment = ["COLUMNS": "80"]
        let convert = try TestSupport.runCLI(["convert", "--help"], environment: environment).stdout
        let lines = convert.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for block in [
            ["  OUTPUT/<relative path>.<role>.<ext>", "  e.g. out/2024/IMG_0001.HEIC.thumbnail.webp"],
            ["  {\"renditions\": [",
             "    {\"role\": \"thumbnail\", \"format\": \"webp\", \"width\": 512, \"quality\": 80},",
             "    {\"role\": \"cover\", \"format\": \"jpeg\", \"width\": 1200, \"height\": 630,",
             "     \"fit\": \"cover\"}]}"],
        ] {
            let start = try #require(lines.firstIndex(of: block[0]), "\(block[0]) in convert --help")
            #expect(Array(lines[start..<min(lines.count, start + block.count)]) == block)
        }
        let inspect = try TestSupport.runCLI(["inspect", "--help"], environment: environment).stdout
        #expect(inspect.contains("""
              {"source":"IMG_0001.JPG","format":"jpeg","mediaType":"image/jpeg",
               "bytes":2481234,"captureDate":{"local":"2023-06-01T14:03:22.120",
            """))
        let suggestion = try TestSupport.runCLI(["suggestion", "--help"], environment: environment).stdout
        #expect(suggestion.components(separatedBy: "1200x1500").count == 2, "--card-size's default once: \(suggestion)")
    }
}
