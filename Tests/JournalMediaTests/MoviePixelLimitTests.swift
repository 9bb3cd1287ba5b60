import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaVideo

/// Issue 14, item 2: a movie's frame size is held to the pixel limit before libav allocates a
/// frame. Samples/limits/sps-16000x16000.mp4 is a 1.6 KB libx264 clip (64×64, Baseline) whose
/// sequence parameter set was rewritten to declare 16000×16000 (Tests/SampleMaker/
/// sps_dimensions.py); decoding it costs ffmpeg 2 GB, and cost this toolkit ~770 MB before.
@Suite struct MoviePixelLimitTests {
    static let sample = TestSupport.sample("limits/sps-16000x16000.mp4")

    @Test func aFrameSizeOverTheLimitIsRefusedFromTheHeaders() async throws {
        for options in [ProcessingOptions(), ProcessingOptions(maxPixels: 1_000_000)] {
            let result = await AssetProcessor(options: options).process(fileAt: Self.sample)
            let error = try #require(result.error)
            #expect(error.stage == .limits && error.reason == .overPixelLimit, "\(error)")
            #expect(error.message.contains("16000×16000"), "\(error.message)")
            #expect(result.width == 16_000 && result.renditions.isEmpty)
        }
    }

    /// libavcodec's own cap on the poster decoder: with `max_pixels` below a real clip's
    /// 180×320 frames, libav refuses to allocate them and no poster comes out; with the
    /// default cap the same open makes one.
    @Test func thePosterDecoderCarriesTheCap() throws {
        let clip = TestSupport.sample("video-rotated-90.mp4").path
        let capped = try MediaFile(path: clip, maxPixels: 10_000)
        #expect(throws: AssetError.self) { try capped.posterFrame() }
        let poster = try MediaFile(path: clip).posterFrame()
        #expect(poster.width > 0 && poster.height > 0)
    }

    /// The CLI on the clip: refused with the limit's reason, and the whole process stays far
    /// below the ~770 MB the frame allocation cost (a plain clip's run peaks near 80 MB).
    @Test func theCLIStaysSmallOnTheClip() throws {
        let folder = try TestSupport.temporaryFolder()
        let run = try ChildProcessPeak.runCLI(["convert", Self.sample.path, "--output", folder.path,
                                               "--max-pixels", "1000000"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("limits: 16000×16000 video frames are over the limit"), "\(run.stderr)")
        #expect(run.peakBytes < 200 * 1024 * 1024, "peak RSS \(run.peakBytes / 1_048_576) MiB")
    }
}
