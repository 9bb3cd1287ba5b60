import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaVideo

/// Issue 14, item 4: every decode has a deadline (`--timeout`, default 10 s) that turns into
/// reason `timeout`.
@Suite struct DecodeDeadlineTests {
    /// A 1.2 KB SVG: twelve squares, each through three stacked large Gaussian blurs, drawn at
    /// 4000 px and rendered for the 1600 px fallback. librsvg draws it in one call of about
    /// 30 s on the 2-core build machine (no tile boundary for libvips' kill flag), so this
    /// checks the caller's side of the deadline.
    static let blurredSVG: String = {
        let squares = (0..<12).map { i in
            "<rect x=\"\(i * 7 % 900)\" y=\"\(i * 13 % 900)\" width=\"900\" height=\"900\" fill=\"#\(String(format: "%02x", i * 40 % 256))80c0\" filter=\"url(#b)\"/>"
        }.joined()
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 1000 1000">
            <defs><filter id="b" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="60"/>\
            <feGaussianBlur stdDeviation="60"/><feGaussianBlur stdDeviation="60"/></filter></defs>\(squares)</svg>
            """
    }()

    /// Run in a child process: the abandoned drawing thread ends with it.
    @Test func aSlowSVGFailsWithTimeoutAtItsDeadline() throws {
        let folder = try TestSupport.temporaryFolder()
        let input = try CraftedFiles.write(Array(Self.blurredSVG.utf8), "blurred.svg", in: folder)
        let output = folder.appendingPathComponent("out")
        let run = try ChildProcessPeak.runCLI(["convert", input.path, "--output", output.path, "--timeout", "1"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("blurred.svg: decode: decoding the SVG took longer than the 1 s limit"), "\(run.stderr)")
        // The deadline, not the drawing, ends the run: well under the drawing's ~30 s.
        #expect(run.seconds < 15, "took \(run.seconds) s")
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: output.appendingPathComponent("manifest.json")))
        #expect(manifest.assets.first?.error?.reason == .timeout)
    }

    /// A normal drawing well inside the same deadline converts as before.
    @Test func anOrdinarySVGIsUnaffected() async throws {
        let result = await AssetProcessor(options: ProcessingOptions(timeoutSeconds: 1))
            .process(fileAt: TestSupport.sample("icon.svg"))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.renditions.count == 2)
    }

    /// Movies: the same limit is libav's interrupt callback; one already past makes the open
    /// fail with `timeout`.
    @Test func aMovieOpenPastItsDeadlineFailsWithTimeout() throws {
        do {
            _ = try MediaFile(path: TestSupport.sample("video-rotated-90.mp4").path, timeLimit: 0)
            Issue.record("the open succeeded past its deadline")
        } catch {
            #expect(error.reason == .timeout && error.stage == .probe, "\(error)")
        }
        #expect(throws: Never.self) { try MediaFile(path: TestSupport.sample("video-rotated-90.mp4").path, timeLimit: 10) }
    }

    @Test func theCLIRefusesANonPositiveTimeout() throws {
        let run = try TestSupport.runCLI(["convert", TestSupport.sample("icon.svg").path, "--output", "/tmp/unused", "--timeout", "0"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--timeout must be a positive number of seconds"), "\(run.stderr)")
    }
}
