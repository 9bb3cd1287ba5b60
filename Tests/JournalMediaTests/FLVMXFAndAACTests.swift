import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaVideo

/// Issue 17: FLV and MXF are admitted by content as movies, raw ADTS AAC as audio (which has
/// no tags, so no artwork). The posters' size, codec and upright markers are checked with the
/// other containers in VideoContainerTests. Samples: Tests/SampleMaker/make-video-flv-mxf-aac.sh.
@Suite struct FLVMXFAndAACTests {
    /// The magic bytes, and near misses that must stay unrecognised.
    @Test func snifferRecognisesFLVMXFAndADTS() throws {
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("video-h264.flv")) == .flv)
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("video-mpeg2.mxf")) == .mxf)
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("audio-tone.aac")) == .aac)
        #expect(FormatSniffer.sniff(Array("FLV".utf8) + [0x01, 0x05, 0, 0, 0, 0x09, 0, 0, 0, 0]) == .flv)
        #expect(FormatSniffer.sniff(Array("FLV".utf8) + [0x02, 0x05, 0, 0, 0, 0x09, 0, 0, 0, 0]) == nil)
        #expect(FormatSniffer.sniff(Array("FLV is a format\n".utf8)) == nil)
        let partition: [UInt8] = [0x06, 0x0E, 0x2B, 0x34, 0x02, 0x05, 0x01, 0x01, 0x0D, 0x01, 0x02, 0x01, 0x01, 0x02, 0x04, 0x00]
        #expect(FormatSniffer.sniff(partition) == .mxf)
        var otherKey = partition
        otherKey[8] = 0x0E
        #expect(FormatSniffer.sniff(otherKey) == nil)
        // One 31-byte ADTS frame (ExifTool's AAC.aac header), then the next frame's sync.
        var adts: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x03, 0xFF, 0xFC] + [UInt8](repeating: 0, count: 24)
        #expect(FormatSniffer.sniff(adts) == .aac)
        #expect(FormatSniffer.sniff(adts + [0xFF, 0xF1, 0x50, 0x80]) == .aac)
        #expect(FormatSniffer.sniff(adts + [0x12, 0x34, 0x56, 0x78]) == nil)  // no second frame where the first ends
        adts[1] = 0xF5  // layer 10: an MPEG layer II header, neither ADTS nor the layer III taken as MP3
        #expect(FormatSniffer.sniff(adts) == nil)
        #expect(FormatSniffer.sniff(try MediaSamples.bytes("song-no-cover.mp3")) == .mp3)
    }

    /// Raw ADTS AAC holds no tags and so no picture: read (duration about 1 s), then the same
    /// "no artwork" failure as an MP3 without a cover, not unsupportedFormat.
    @Test func adtsAACHasNoArtwork() throws {
        let inspected = CaptureDateReader.inspect(fileAt: TestSupport.sample("audio-tone.aac"))
        #expect(inspected.error == nil && inspected.format == .aac)
        #expect((0.9...1.2).contains(inspected.durationSeconds ?? 0), "\(String(describing: inspected.durationSeconds))")
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("audio-tone.aac"),
                                                      displayName: "audio-tone.aac")
        #expect(result.kind == .artwork && result.mediaType == "audio/aac")
        #expect(result.error?.stage == .probe && result.error?.reason == .noArtwork, "\(String(describing: result.error))")
    }

    /// FLV's old Sorenson Spark codec (as VP6) is off the decoder allow-list: the file is opened
    /// and described, then refused naming the codec.
    @Test func sorensonFLVIsRefusedNamingTheCodec() throws {
        let media = try MediaSamples.open("limits/video-sorenson.flv")
        #expect(try media.videoInfo().codec == "flv1")
        #expect(throws: AssetError(file: "limits/video-sorenson.flv", stage: .decode, reason: .unsupportedCodec,
                                   message: "flv1 video is not on the decoder allow-list")) {
            try media.posterFrame()
        }
    }

    /// The name plays no part: text called `.flv` or `.mxf` is refused at the sniff.
    @Test func textNamedFLVIsRefusedAtTheSniff() throws {
        for name in ["clip.flv", "clip.mxf", "tone.aac"] {
            let text = try MediaSamples.temporaryFile(name, Array("not a movie at all\n".utf8))
            let result = AssetProcessor().processBlocking(fileAt: text, displayName: name)
            let error = try #require(result.error)
            #expect(error.file == name && error.stage == .sniff && error.reason == .unsupportedFormat)
        }
    }
}
