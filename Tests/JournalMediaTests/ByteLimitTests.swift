import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 14, item 3: a still is refused from its size before it is read. The audit's case: a
/// 3 GB file starting `FF D8 FF E0` cost 3.2 GB. Here a sparse file (no disk blocks) of that size.
@Suite struct ByteLimitTests {
    @Test func aHugeStillIsRefusedBeforeItIsRead() throws {
        let folder = try TestSupport.temporaryFolder()
        let url = folder.appendingPathComponent("huge.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0]).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 3 << 30)
        try handle.close()
        let run = try ChildProcessPeak.runCLI(["convert", url.path, "--output", folder.appendingPathComponent("out").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("huge.jpg: limits: 3221225472 bytes is over the limit of 536870912 bytes"), "\(run.stderr)")
        #expect(run.peakBytes < 200 * 1024 * 1024, "peak RSS \(run.peakBytes / 1_048_576) MiB")

        let small = try ChildProcessPeak.runCLI(["convert", TestSupport.sample("photo.heic").path, "--output",
                                                 folder.appendingPathComponent("out2").path, "--max-bytes", "1000"])
        #expect(small.status == 1 && small.stderr.contains("limits:"), "\(small.stderr)")
    }
}
