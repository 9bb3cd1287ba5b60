import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// `MediaFile.posterFrame(_:)` on the video samples, checked on pixels: upright, not black,
/// HDR not washed out.
@Suite struct VideoPosterTests {
    @Test func rotatedClipsPosterIsUpright() throws {
        let poster = try MediaSamples.open("video-rotated-90.mp4").posterFrame()
        #expect(poster.width == 320 && poster.height == 180)
        #expect(poster.bytesPerRow == 960 && poster.rgb.count == 320 * 180 * 3)
        #expect(poster.timeSeconds < 0.25, "10 % of 2 s lands on the keyframe at 0")
        #expect(!poster.toneMapped)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 35)
    }

    @Test func maxDimensionDownscalesInTheConversion() throws {
        let poster = try MediaSamples.open("video-rotated-90.mp4").posterFrame(PosterOptions(maxDimension: 160))
        #expect(poster.width == 160 && poster.height == 90)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 40)
        let large = try MediaSamples.open("video-rotated-90.mp4").posterFrame(PosterOptions(maxDimension: 1600))
        #expect(large.width == 320 && large.height == 180, "never enlarged")
    }

    /// B-frames and open GOPs: the decoder's reordering delay must not push the poster to a
    /// later keyframe (seconds 1–4 of the clip are upside down).
    @Test func openGOPClipsPosterIsTheKeyframeAtOrBeforeTheTarget() throws {
        let poster = try MediaSamples.open("video-open-gop.mp4").posterFrame()
        #expect(poster.timeSeconds < 0.1, "10 % of 4 s lands on the keyframe at 0 (t = \(poster.timeSeconds))")
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 35)
    }

    @Test func blackStartClipsPosterIsNotBlack() throws {
        let poster = try MediaSamples.open("video-black-start.mp4").posterFrame()
        #expect(poster.timeSeconds >= 1.0, "the black first second was skipped (t = \(poster.timeSeconds))")
        #expect(poster.meanLuma > 60 && poster.lumaDeviation > 20)
        #expect(colourfulnessAndLuma(poster.rgb).luma > 60)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 35)

        // With a single candidate the black keyframe at 0 is all there is: kept, but judged.
        let only = try MediaSamples.open("video-black-start.mp4").posterFrame(PosterOptions(maxCandidates: 1))
        #expect(only.timeSeconds < 0.1 && only.meanLuma < 5)
        #expect(!PosterQuality(meanLuma: only.meanLuma, deviation: only.lumaDeviation).isAcceptable)
    }

    /// HLG (the table curve) and PQ in DCI-P3 primaries (no table curve: libavfilter's zscale +
    /// tonemap graph) come back tone-mapped, neither dark nor blown, with the scene's own
    /// colours: the corner markers, in the right places.
    @Test(arguments: ["video-hdr-hlg.mov", "video-hdr-pq-dci-p3.mov"])
    func hdrPosterIsToneMappedInTheScenesColours(_ name: String) throws {
        let poster = try MediaSamples.open(name).posterFrame()
        #expect(poster.toneMapped)
        #expect(poster.width == 320 && poster.height == 180)
        let luma = colourfulnessAndLuma(poster.rgb).luma
        #expect((70...190).contains(luma), "mean luma \(luma)")
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 45)
    }

    @Test func hlgPosterIsNotWashedOut() throws {
        let mapped = colourfulnessAndLuma(try MediaSamples.open("video-hdr-hlg.mov").posterFrame().rgb)
        let naive = try MediaSamples.open("video-hdr-hlg.mov").posterFrame(PosterOptions(toneMapHDR: false))
        #expect(!naive.toneMapped)
        let flat = colourfulnessAndLuma(naive.rgb)
        #expect(mapped.chroma > flat.chroma * 1.3,
                "tone-mapped chroma \(mapped.chroma) vs BT.2020 shown as BT.709 \(flat.chroma)")
    }

    @Test func livePhotoMoviePoster() throws {
        let poster = try MediaSamples.open("live/IMG_0001.MOV").posterFrame()
        #expect(poster.width == 320 && poster.height == 240)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 40)
    }

    @Test func candidateTimes() {
        func times(_ duration: Double?, _ limit: Int = 4) -> [Double] {
            PosterFrameExtractor.candidateTimes(duration: duration, limit: limit).map { ($0 * 1000).rounded() / 1000 }
        }
        #expect(times(0.6) == [0, 0.15, 0.3, 0.45], "under 1 s: start at 0")
        #expect(times(2) == [0.2, 0.5, 1, 1.5])
        #expect(times(600) == [5, 150, 300, 450], "10 % capped at 5 s")
        #expect(times(600, 2) == [5, 150])
        #expect(times(nil) == [0])
    }

    @Test func posterSizeKeepsAspectAndNeverEnlarges() {
        #expect(PosterFrameExtractor.posterSize(width: 3840, height: 2160, aspect: 1, maxDimension: 1600) == (1600, 900))
        #expect(PosterFrameExtractor.posterSize(width: 1440, height: 1080, aspect: 4.0 / 3, maxDimension: nil) == (1920, 1080))
        #expect(PosterFrameExtractor.posterSize(width: 320, height: 180, aspect: nil, maxDimension: 1600) == (320, 180))
    }

    @Test func rgbRotationMovesCornersClockwise() {
        // 2×1: red, blue.
        let pixels: [UInt8] = [255, 0, 0, 0, 0, 255]
        let quarter = RGBRotation.rotate(pixels, width: 2, height: 1, clockwise: 90)
        #expect(quarter.width == 1 && quarter.height == 2 && quarter.rgb == pixels, "red on top, blue below")
        let half = RGBRotation.rotate(pixels, width: 2, height: 1, clockwise: 180)
        #expect(half.rgb == [0, 0, 255, 255, 0, 0])
        let threeQuarters = RGBRotation.rotate(pixels, width: 2, height: 1, clockwise: 270)
        #expect(threeQuarters.width == 1 && threeQuarters.rgb == [0, 0, 255, 255, 0, 0], "blue on top")
        // 2×2: the top-left pixel goes to the top-right for 90°.
        let square: [UInt8] = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
        #expect(RGBRotation.rotate(square, width: 2, height: 2, clockwise: 90).rgb == [3, 3, 3, 1, 1, 1, 4, 4, 4, 2, 2, 2])
    }
}
