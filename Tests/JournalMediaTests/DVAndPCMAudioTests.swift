import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaVideo

/// Issue 17: DV (tape camcorders' raw DIF files) is admitted by content as a video; WAV and
/// AIFF as audio, with artwork from an ID3 chunk's picture. Samples:
/// Tests/SampleMaker/make-video-issue17-more.sh (ffmpeg's dvvideo, pcm and aiff/ID3 writers).
@Suite struct DVAndPCMAudioTests {
    /// One NTSC DV frame: 720×480 stored, shown 640×480 (sample aspect 8:9), the scene upright.
    @Test func dvIsReadAsAVideo() throws {
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("video-dv.dv")) == .dv)
        let media = try MediaSamples.open("video-dv.dv")
        let info = try media.videoInfo()
        #expect(info.codec == "dvvideo" && info.codedWidth == 720 && info.codedHeight == 480)
        #expect(info.displayWidth == 640 && info.displayHeight == 480)
        try expectUprightMarkers(TestImage(poster: try media.posterFrame()), tolerance: 40)
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("video-dv.dv"), displayName: "video-dv.dv")
        #expect(result.error == nil && result.kind == .video && result.mediaType == "video/dv")
    }

    /// A DV file cut inside its frame: libav hands the frame over at full size and the decoder
    /// paints the missing half grey without complaint; the toolkit refuses it, saying so.
    @Test func aCutDVFileIsRefusedAsTruncated() throws {
        let cut = try MediaSamples.temporaryFile("cut.dv", Array(try MediaSamples.bytes("video-dv.dv").prefix(60_000)))
        let media = try MediaFile(path: cut.path, name: "cut.dv")
        let error = try #require(throws: AssetError.self) { try media.posterFrame() }
        #expect(error.file == "cut.dv" && error.stage == .decode && error.reason == .truncated)
        #expect(error.message.contains("the file ends inside a DV frame (60000 bytes of its 120000)"), "\(error.message)")
    }

    /// AIFF with an ID3 chunk: its JPEG cover gives the artwork renditions.
    @Test func aiffCoverFromItsID3Chunk() throws {
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("audio-cover.aiff")) == .aiff)
        let cover = try MediaSamples.open("audio-cover.aiff").coverArt()
        #expect(FormatSniffer.sniff(cover.bytes) == .jpeg)
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("audio-cover.aiff"),
                                                      displayName: "audio-cover.aiff")
        #expect(result.error == nil && result.kind == .artwork && result.mediaType == "audio/aiff",
                "\(String(describing: result.error))")
        let thumbnail = try #require(result.renditions.first { $0.role == "thumbnail" })
        #expect(thumbnail.width == 240 && thumbnail.height == 240)
    }

    /// WAV without a picture: read (duration 1 s), then the same "no artwork" failure as an
    /// MP3 without a cover.
    @Test func wavWithoutAPictureHasNoArtwork() throws {
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("audio-voice.wav")) == .wav)
        let inspected = CaptureDateReader.inspect(fileAt: TestSupport.sample("audio-voice.wav"))
        #expect(inspected.error == nil && inspected.format == .wav && inspected.durationSeconds == 1)
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("audio-voice.wav"),
                                                      displayName: "audio-voice.wav")
        #expect(result.kind == .artwork && result.mediaType == "audio/wav")
        #expect(result.error?.stage == .probe && result.error?.reason == .noArtwork)
    }
}
