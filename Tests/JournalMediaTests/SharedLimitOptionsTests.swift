import Foundation
import Testing
@testable import JournalMedia

/// Issue 33, item 6: the decode limits are declared once (`DecodeLimitOptions`,
/// `PixelLimitOption`) for `convert`, `suggestion` and `serve`, with the same names, help and
/// checks.
@Suite struct SharedLimitOptionsTests {
    @Test func everyCommandHasTheSameLimitFlagsAndDefaults() throws {
        for command in ["convert", "suggestion"] {
            let help = try TestSupport.runCLI([command, "--help"]).stdout
            for flag in ["--max-pixels <max-pixels>", "--max-tiled-pixels <pixels>", "--max-bytes <bytes>",
                         "--timeout <seconds>", "-j, --jobs <jobs>"] {
                #expect(help.contains(flag), "\(command) --help lacks \(flag)")
            }
            let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains("(default: \(Defaults.maxPixels))") && flat.contains("(default: 10.0)")
                    && flat.contains("(default: \(Defaults.maxTiledPixels))") && flat.contains("(default: \(Defaults.maxBytes))"),
                    "\(command): \(flat)")
        }
        let serve = try TestSupport.runCLI(["serve", "--help"]).stdout
        #expect(serve.contains("--max-pixels <max-pixels>") && !serve.contains("--max-bytes"))
    }

    /// `suggestion --max-pixels` bounds the pictures of a bundle as `convert`'s bounds files
    /// (the flag did not exist); `serve --max-pixels 0` is refused as `convert`'s is (it was
    /// taken as 1).
    @Test func theLimitsApplyAndAreCheckedAlike() throws {
        let output = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try TestSupport.runCLI(["suggestion", TestSupport.sample("suggestions/morning-run/suggestion.json").path,
                                          "-o", output.path, "--max-pixels", "1000", "--quiet", "--jobs", "1"])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("over the limit of 1000"), "\(run.stderr)")
        // `serve` is given a config file that does not exist: without the check it stops there.
        for command in [["serve", "--config", "/nonexistent/serve.json"],
                        ["convert", TestSupport.sample("alpha-disc.png").path, "-o", output.path + "/c"],
                        ["suggestion", TestSupport.sample("suggestions/morning-run/suggestion.json").path, "-o", output.path]] {
            let refused = try TestSupport.runCLI(command + ["--max-pixels", "0"])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("--max-pixels must be at least 1"), "\(command[0]): \(refused.stderr)")
        }
    }
}
