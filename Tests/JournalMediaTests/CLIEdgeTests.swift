import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// The CLI's edges found by the hardening audit: hostile file names on stderr, file names
/// that look like flags.
@Suite(.serialized) struct CLIEdgeTests {
    /// A file name holding a newline must not forge a second error line, and an ANSI escape
    /// must not reach the terminal; the manifest keeps the exact names.
    @Test func controlCharactersInNamesAreEscapedOnStderr() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let evil = "evil\njournal-media: error: fake.jpg"
        let ansi = "\u{1B}[31mred\u{9B}2J\u{7F}.jpg"
        for name in [evil, ansi] {
            try FileManager.default.copyItem(at: TestSupport.sample("not-an-image.jpg"),
                                             to: input.appendingPathComponent(name))
        }
        let out = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["convert", input.path, "-o", out.path])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        let errorLines = lines.filter { $0.hasPrefix("journal-media: error:") }
        #expect(errorLines.count == 2, "two failed files, two error lines: \(lines)")
        #expect(errorLines.contains { $0.hasPrefix(#"journal-media: error: evil\njournal-media: error: fake.jpg: sniff:"#) })
        #expect(errorLines.contains { $0.hasPrefix(#"journal-media: error: \x1B[31mred\u{009B}2J\x7F.jpg: sniff:"#) })
        #expect(!run.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!run.stderr.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })

        let manifest = try Manifest.decode(try Data(contentsOf: out.appendingPathComponent("manifest.json")))
        #expect(Set(manifest.assets.map(\.source)) == [evil, ansi])
    }

    /// Values typed on the command line come back escaped in the parser's own error text.
    @Test func argumentParserErrorsEscapeTheTypedValues() throws {
        let run = try TestSupport.runCLI(["convert", "x", "-o", "y", "--jobs", "2\njournal-media: error: fake"])
        #expect(run.status == 2)
        #expect(!run.stderr.split(separator: "\n").contains { $0.hasPrefix("journal-media: error: fake") })
        #expect(run.stderr.contains(#"2\njournal-media: error: fake"#))
    }

    /// `convert -leading-dash.svg` once printed the help and exited 0 (read as the flag
    /// cluster `-l -e -a -d -i -n -g -- -h …`). An existing file is converted; a name that is
    /// nothing exits 2; `--` works.
    @Test func fileNamesStartingWithADashAreNeverReadAsHelp() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let name = "-leading-dash.svg"
        try FileManager.default.copyItem(at: TestSupport.sample("icon.svg"), to: root.appendingPathComponent(name))

        let asFile = try TestSupport.runCLI(["convert", name, "-o", "out1"], in: root)
        #expect(asFile.status == 0, "\(asFile.stderr)")
        #expect(!asFile.stdout.contains("USAGE") && !asFile.stdout.contains("OVERVIEW"))
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out1/\(name).thumbnail.webp").path))

        let afterTerminator = try TestSupport.runCLI(["convert", "-o", "out2", "--", name], in: root)
        #expect(afterTerminator.status == 0, "\(afterTerminator.stderr)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out2/\(name).fallback.png").path))

        let missing = try TestSupport.runCLI(["convert", "-nothing-here.webp", "-o", "out3"], in: root)
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("unknown option '-nothing-here.webp'"))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out3").path))
    }
}
