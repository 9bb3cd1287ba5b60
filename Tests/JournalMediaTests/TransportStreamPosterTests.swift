import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaVideo

/// Issue 17: a short MPEG-TS clip whose only keyframe is its first frame. MPEG-TS seeks are
/// timestamp searches that know nothing of keyframes, so every poster candidate lands past
/// that keyframe; the poster must still be the clip's first frame, not an error. Sample:
/// Tests/SampleMaker/make-video-issue17-more.sh (1.2 s of H.264 with a 100-frame GOP, 2 s of AAC).
@Suite struct TransportStreamPosterTests {
    @Test func aShortClipFallsBackToItsFirstKeyframe() throws {
        let media = try MediaSamples.open("video-short.ts")
        #expect(try media.videoInfo().codec == "h264")
        let poster = try media.posterFrame()
        #expect(poster.width == 192 && poster.height == 144)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 40)

        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("video-short.ts"),
                                                      displayName: "video-short.ts")
        #expect(result.error == nil && result.kind == .video, "\(String(describing: result.error))")
        #expect(result.renditions.map(\.role).contains("thumbnail"))
    }
}
