import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Issue 17: the containers and codecs every player opens (AVI, AVCHD MPEG-TS, Matroska,
/// WebM, Motion-JPEG QuickTime, AV1 MP4), the decoder allow-list, and the error a lying or
/// refused file gets. Samples: Tests/SampleMaker/make-video-container-samples.sh (the scene's
/// corner markers at 192×144).
@Suite struct VideoContainerTests {
    struct Case: Sendable, CustomStringConvertible {
        let sample: String
        let format: SourceFormat
        let codec: String
        let duration: ClosedRange<Double>
        var description: String { sample }
    }

    static let cases: [Case] = [
        Case(sample: "video-mpeg4.avi", format: .avi, codec: "mpeg4", duration: 1.9...2.1),
        Case(sample: "video-h264.mts", format: .mpegTS, codec: "h264", duration: 1.9...2.1),
        Case(sample: "video-hevc.mkv", format: .mkv, codec: "hevc", duration: 1.9...2.1),
        Case(sample: "video-vp9.webm", format: .webm, codec: "vp9", duration: 1.9...2.1),
        Case(sample: "video-mjpeg.mov", format: .mov, codec: "mjpeg", duration: 1.45...1.6),
        Case(sample: "video-av1.mp4", format: .mp4, codec: "av1", duration: 0.9...1.1),
        // Stored turned 90° anticlockwise: ProjectionPoseRoll −90 (libav's display matrix), and
        // a ROTATE=90 track tag without a projection.
        Case(sample: "video-roll-90.webm", format: .webm, codec: "vp9", duration: 0.9...1.1),
        Case(sample: "video-rotate-tag.mkv", format: .mkv, codec: "h264", duration: 0.9...1.1),
        // FLV (15 frames; the last one's duration counted, as ffprobe's 1.133 s) and MXF OP1a.
        Case(sample: "video-h264.flv", format: .flv, codec: "h264", duration: 0.9...1.2),
        Case(sample: "video-mpeg2.mxf", format: .mxf, codec: "mpeg2video", duration: 0.9...1.1),
    ]

    /// Sniffed by content, opened through the allow-lists, and its poster upright with the
    /// scene's markers where they belong; duration and size as ffprobe reads them.
    @Test(arguments: cases) func posterIsUprightWithTheRightDuration(_ c: Case) throws {
        #expect(FormatSniffer.sniff(try MediaSamples.bytes(c.sample)) == c.format)
        let media = try MediaSamples.open(c.sample)
        let info = try media.videoInfo()
        #expect(info.codec == c.codec)
        #expect(info.displayWidth == 192 && info.displayHeight == 144)
        let duration = try #require(info.durationSeconds)
        #expect(c.duration.contains(duration), "duration \(duration)")
        let poster = try media.posterFrame()
        #expect(poster.width == 192 && poster.height == 144)
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 40)
    }

    /// Motion-JPEG frames are full-range 4:2:2 (`yuvj422p`): read as limited range, the
    /// markers' dark channels (20) would come out near 4 and the white near 255 clipped; read
    /// right, they are within a few levels of the scene.
    @Test func motionJPEGIsConvertedWithFullRange() throws {
        let poster = try MediaSamples.open("video-mjpeg.mov").posterFrame()
        try expectUprightMarkers(TestImage(poster: poster), tolerance: 9)
    }

    /// The whole pipeline: a manifest entry per container, the media type from the content,
    /// the container's creation date where it has one.
    @Test func pipelineGivesRenditionsAndContainerDates() throws {
        let processor = AssetProcessor()
        let expected: [String: (mediaType: String, date: String?, source: String?)] = [
            "video-mpeg4.avi": ("video/x-msvideo", nil, nil),
            "video-h264.mts": ("video/mp2t", nil, nil),
            "video-hevc.mkv": ("video/x-matroska", "2019-05-04T10:20:30Z", "matroska.DateUTC"),
            "video-vp9.webm": ("video/webm", nil, nil),
            "video-mjpeg.mov": ("video/quicktime", "2021-08-09T07:06:05Z", "quicktime.creation_time"),
            "video-av1.mp4": ("video/mp4", nil, nil),
            "video-h264.flv": ("video/x-flv", nil, nil),
            "video-mpeg2.mxf": ("application/mxf", nil, nil),
        ]
        for (sample, want) in expected {
            let result = processor.processBlocking(fileAt: TestSupport.sample(sample), displayName: sample)
            #expect(result.error == nil, "\(sample): \(String(describing: result.error))")
            #expect(result.kind == .video && result.mediaType == want.mediaType, "\(sample)")
            #expect(result.renditions.map(\.role).contains("thumbnail"), "\(sample)")
            if let date = want.date {
                #expect(result.captureDate?.utcText == date && result.captureDate?.source == want.source,
                        "\(sample): \(String(describing: result.captureDate))")
            } else {
                #expect(result.captureDate?.confidence == .fileModified, "\(sample)")
            }
        }
    }

    /// The name plays no part: an AVI called `.mp4` is read as the AVI it is; text called
    /// `.mkv` is refused at the sniff, naming the file.
    @Test func aLyingExtensionIsIgnoredOrRefusedAtTheSniff() throws {
        let processor = AssetProcessor()
        let avi = try MediaSamples.temporaryFile("clip.mp4", try MediaSamples.bytes("video-mpeg4.avi"))
        let read = processor.processBlocking(fileAt: avi, displayName: "clip.mp4")
        #expect(read.error == nil && read.kind == .video && read.mediaType == "video/x-msvideo")

        let text = try MediaSamples.temporaryFile("clip.mkv", Array("not a movie at all\n".utf8))
        let refused = processor.processBlocking(fileAt: text, displayName: "clip.mkv")
        let error = try #require(refused.error)
        #expect(error.file == "clip.mkv" && error.stage == .sniff && error.reason == .unsupportedFormat)

        // A transport stream cut to two packets is not taken for one (three in a row needed).
        let ts = try MediaSamples.bytes("video-h264.mts")
        #expect(FormatSniffer.sniff(ts.prefix(4 + 192 * 2)) == nil)
        #expect(FormatSniffer.sniff(ts.prefix(4 + 192 * 2 + 1)) == .mpegTS)
    }

    /// An admitted container carrying a codec that is not on the decoder allow-list (FFV1 in
    /// Matroska, kept in Samples/limits/ with the other refused files): opened and described,
    /// but refused before a decoder is opened.
    @Test func aCodecOffTheAllowListIsATypedDecodeError() throws {
        let media = try MediaSamples.open("limits/video-ffv1.mkv")
        #expect(try media.videoInfo().codec == "ffv1")
        #expect(throws: AssetError(file: "limits/video-ffv1.mkv", stage: .decode, reason: .unsupportedCodec,
                                   message: "ffv1 video is not on the decoder allow-list")) {
            try media.posterFrame()
        }
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("limits/video-ffv1.mkv"),
                                                      displayName: "video-ffv1.mkv")
        #expect(result.error?.stage == .decode && result.error?.reason == .unsupportedCodec)
    }

    /// `inspect` reads durations the header does not declare (MPEG-TS) and container dates.
    @Test func inspectReportsDurationsAndDates() {
        let ts = CaptureDateReader.inspect(fileAt: TestSupport.sample("video-h264.mts"))
        #expect(ts.format == .mpegTS && ts.error == nil)
        #expect((1.9...2.1).contains(ts.durationSeconds ?? 0), "\(String(describing: ts.durationSeconds))")
        let mkv = CaptureDateReader.inspect(fileAt: TestSupport.sample("video-hevc.mkv"))
        #expect(mkv.durationSeconds == 2 && mkv.captureDate?.source == "matroska.DateUTC")
        let line = mkv.jsonLine(source: "video-hevc.mkv")
        #expect(line.contains("\"durationSeconds\":2,") && line.contains("\"contentIdentifier\":null"))
    }

    @Test func snifferRecognisesTheNewContainers() {
        func ebml(_ docType: String) -> [UInt8] {
            [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x80 | UInt8(docType.utf8.count)]
                + Array(docType.utf8) + [0x42, 0x87, 0x81, 0x04]
        }
        #expect(FormatSniffer.sniff(ebml("webm")) == .webm)
        #expect(FormatSniffer.sniff(ebml("matroska")) == .mkv)
        #expect(FormatSniffer.sniff(ebml("other")) == nil)
        #expect(FormatSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI LIST".utf8)) == .avi)
        #expect(FormatSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .wav)
        #expect(FormatSniffer.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        var ts = [UInt8](repeating: 0xFF, count: 188 * 4)
        for packet in 0..<4 { ts[packet * 188] = 0x47 }
        #expect(FormatSniffer.sniff(ts) == .mpegTS)
        ts[188 * 2] = 0
        #expect(FormatSniffer.sniff(ts) == nil)
    }
}
