import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Issue 17: AVCHD camcorders keep the recording date inside the H.264 stream (an MDPM SEI
/// message, ExifTool's `H264:DateTimeOriginal`), not in the transport stream. Sample:
/// Tests/SampleMaker/make-video-issue17-more.sh (libx264 + the SEI spliced by avchd_mdpm.py).
@Suite struct AVCHDDateTests {
    /// `inspect` and the pipeline both report the camcorder's local time with its zone
    /// (2019:07:14 18:05:09, zone byte 0x27 = −03:30), and reading the date does not cost the
    /// poster its first frames: it is still the upright scene.
    @Test func theStreamDateIsTheCaptureDate() throws {
        let inspected = CaptureDateReader.inspect(fileAt: TestSupport.sample("video-avchd-mdpm.mts"))
        #expect(inspected.error == nil && inspected.format == .mpegTS)
        let date = try #require(inspected.captureDate)
        #expect(date.source == "h264.DateTimeOriginal" && date.confidence == .exact)
        #expect(date.local?.description == "2019-07-14T18:05:09" && date.offsetMinutes == -210)
        #expect(date.utcText == "2019-07-14T21:35:09Z")

        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("video-avchd-mdpm.mts"),
                                                      displayName: "video-avchd-mdpm.mts")
        #expect(result.error == nil && result.kind == .video)
        #expect(result.captureDate == date)

        let media = try MediaSamples.open("video-avchd-mdpm.mts")
        #expect(AVCHDRecordingDate.find(in: media.leadingVideoPackets()) == "2019:07:14 18:05:09-03:30")
        try expectUprightMarkers(TestImage(poster: try media.posterFrame()), tolerance: 40)
    }

    /// A transport stream without the message (an encoder's own SEI only) has no stream date.
    @Test func aPlainStreamHasNone() throws {
        let media = try MediaSamples.open("video-h264.mts")
        let packets = media.leadingVideoPackets()
        #expect(!packets.isEmpty)
        #expect(AVCHDRecordingDate.find(in: packets) == nil)
        #expect(try MediaSamples.open("video-hevc.mkv").leadingVideoPackets().isEmpty)
    }

    /// The zone byte as ExifTool documents it: 0x20 sign, bits 1–4 hours, 0x01 half hour;
    /// 0x40 daylight saving adds an hour (unverified on a real DST recording). Fields that are
    /// not BCD (an unset clock, 0xFF) give no date.
    @Test func zoneByteAndBCD() {
        func text(_ zone: UInt8, _ day: UInt8 = 0x31) -> String? {
            AVCHDRecordingDate.dateText(zone: zone, yearHigh: 0x20, yearLow: 0x08, month: 0x12, day: day,
                                        hour: 0x23, minute: 0x16, second: 0x24)
        }
        #expect(text(0x02) == "2008:12:31 23:16:24+01:00")
        #expect(text(0x27) == "2008:12:31 23:16:24-03:30")
        #expect(text(0x42) == "2008:12:31 23:16:24+02:00")
        #expect(text(0x6A) == "2008:12:31 23:16:24-04:00")
        #expect(text(0x02, 0xFF) == nil)
        #expect(text(0x1F) == nil)  // +15:30 is no zone on Earth
    }
}
