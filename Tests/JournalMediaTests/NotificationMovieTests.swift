import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Movie notification attachments (MP4, H.264 + AAC, encoded in-process), read back by
/// ffprobe and ffmpeg, the peers, as a user's player would read them.
@Suite(.serialized) struct NotificationMovieTests {
    static let options = ProcessingOptions(renditions: Defaults.renditions + [Defaults.notificationRendition])

    /// What ffprobe reads from a file: its format and streams.
    struct Probe {
        var formatName: String
        var duration: Double
        var streams: [[String: Any]]

        var video: [String: Any]? { streams.first { $0["codec_type"] as? String == "video" } }
        var audio: [String: Any]? { streams.first { $0["codec_type"] as? String == "audio" } }
        /// The display-matrix rotation ffprobe reports, 0 when there is none.
        var rotation: Int {
            let sideData = video?["side_data_list"] as? [[String: Any]] ?? []
            return sideData.compactMap { $0["rotation"] as? Int }.first ?? 0
        }
    }

    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/\(tool)")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments.joined(separator: " "))")
        return data
    }

    static func ffprobe(_ url: URL) throws -> Probe {
        let data = try run("ffprobe", ["-v", "error", "-of", "json", "-show_format", "-show_streams", url.path])
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let format = try #require(root["format"] as? [String: Any])
        return Probe(formatName: format["format_name"] as? String ?? "",
                     duration: Double(format["duration"] as? String ?? "") ?? -1,
                     streams: root["streams"] as? [[String: Any]] ?? [])
    }

    /// The first frame ffmpeg decodes (display rotation applied, as players do) at `width`×`height`, as PNG.
    static func firstFrame(_ url: URL, width: Int, height: Int) throws -> TestImage {
        let data = try run("ffmpeg", ["-v", "error", "-i", url.path, "-frames:v", "1", "-vf", "scale=\(width):\(height)",
                                      "-f", "image2pipe", "-c:v", "png", "-"])
        return try TestImage(Array(data))
    }

    func movie(_ result: AssetResult, role: String, in folder: URL) throws -> (Rendition, URL) {
        let rendition = try #require(result.renditions.first { $0.role == role }, "no \(role) in \(result.renditions.map(\.role))")
        let url = folder.appendingPathComponent("\(role).mp4")
        try Data(rendition.data).write(to: url)
        return (rendition, url)
    }

    func livePhoto(still: String, motion: String) -> AssetResult {
        AssetProcessor(options: Self.options).process(
            livePhoto: ProbedAsset.open(TestSupport.sample(still), name: still),
            motion: ProbedAsset.open(TestSupport.sample(motion), name: motion), pairedBy: .given)
    }

    @Test func livePhotoGivesAJPEGAndAnH264AACMP4() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = livePhoto(still: "live/IMG_0002.JPG", motion: "live/IMG_0002.MOV")
        #expect(result.error == nil && result.livePhoto?.motionError == nil)
        let still = try #require(result.renditions.first { $0.role == "notification" })
        #expect(still.format == .jpeg && still.attachment?.uti == "public.jpeg")
        let (rendition, url) = try movie(result, role: "notification-motion", in: folder)
        #expect(rendition.format == .mp4)
        let attachment = try #require(rendition.attachment)
        #expect(attachment.uti == "public.mpeg-4")
        #expect(attachment.limitBytes == 50_000_000)
        #expect(rendition.bytes <= attachment.limitBytes)
        let time = try #require(attachment.thumbnailTimeSeconds)
        #expect(time >= 0 && time < 3)
        #expect(attachment.thumbnailClippingRect != nil)

        let probe = try Self.ffprobe(url)
        #expect(probe.formatName.contains("mp4"))
        #expect(probe.video?["codec_name"] as? String == "h264")
        #expect(probe.video?["pix_fmt"] as? String == "yuv420p")
        #expect(probe.video?["width"] as? Int == 320 && probe.video?["height"] as? Int == 240)
        #expect(probe.audio?["codec_name"] as? String == "aac", "the original has sound")
        #expect(abs(probe.duration - 3.0) < 0.15, "the whole 3 s motion: \(probe.duration)")
        #expect(probe.rotation == 0)
    }

    @Test func rotatedMotionIsTurnedUprightInThePixels() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The motion is a 180×320 movie whose display matrix turns it to 320×180.
        let result = livePhoto(still: "live/IMG_0001.JPG", motion: "video-rotated-90.mp4")
        #expect(result.livePhoto?.motionError == nil)
        let (rendition, url) = try movie(result, role: "notification-motion", in: folder)
        #expect(rendition.width == 320 && rendition.height == 180)
        let probe = try Self.ffprobe(url)
        #expect(probe.video?["codec_name"] as? String == "h264")
        #expect(probe.video?["width"] as? Int == 320 && probe.video?["height"] as? Int == 180)
        #expect(probe.rotation == 0, "rotation applied to the pixels, none left for the player")
        #expect(rendition.bytes <= NotificationLimits.videoBytes)
        // The first frame looks like ffmpeg's own upright rendering of the original.
        let ours = try Self.firstFrame(url, width: 64, height: 36)
        let oracle = try Self.firstFrame(TestSupport.sample("video-rotated-90.mp4"), width: 64, height: 36)
        for (x, y) in [(12, 8), (52, 8), (12, 28), (52, 28)] {
            let a = try ours.mean(around: x, y, size: 7), b = try oracle.mean(around: x, y, size: 7)
            for band in 0..<3 { #expect(abs(a[band] - b[band]) < 24, "(\(x), \(y)) band \(band): \(a) vs \(b)") }
        }
    }

    @Test func hlgMovieIsToneMappedLikeItsPoster() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = AssetProcessor(options: Self.options).processBlocking(
            fileAt: TestSupport.sample("video-hdr-hlg.mov"), displayName: "video-hdr-hlg.mov")
        #expect(result.error == nil)
        #expect(result.video?.posterTimeSeconds == 0, "the poster is the first frame of this short clip")
        let (_, url) = try movie(result, role: "notification-video", in: folder)
        let probe = try Self.ffprobe(url)
        #expect(probe.video?["pix_fmt"] as? String == "yuv420p")
        #expect(probe.video?["color_transfer"] as? String == "bt709")
        // The MP4's first frame, as ffmpeg decodes it, looks like the tone-mapped poster.
        let poster = try TestImage(try #require(result.renditions.first { $0.role == "fallback" }).data)
        let frame = try Self.firstFrame(url, width: poster.width, height: poster.height)
        for (x, y) in [(poster.width / 4, poster.height / 4), (poster.width * 3 / 4, poster.height / 2),
                       (poster.width / 2, poster.height * 3 / 4)] {
            let a = try frame.mean(around: x, y, size: 9), b = try poster.mean(around: x, y, size: 9)
            for band in 0..<3 { #expect(abs(a[band] - b[band]) < 20, "(\(x), \(y)) band \(band): \(a) vs \(b)") }
        }
    }

    /// A 4K H.264 + AAC movie made once with ffmpeg: 2 s of testsrc2 at 10 frames per second.
    static let uhdMovie: Result<URL, any Error> = Result {
        let folder = try TestSupport.temporaryFolder("uhd-movie")
        let url = folder.appendingPathComponent("uhd.mp4")
        _ = try run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=10:duration=2",
                               "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=2",
                               "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac",
                               "-shortest", url.path])
        return url
    }

    @Test func a4KVideoBecomesA1280MP4UnderFiftyMegabytes() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.uhdMovie.get()
        let result = AssetProcessor(options: Self.options).processBlocking(fileAt: source, displayName: "uhd.mp4")
        #expect(result.error == nil)
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback", "notification", "notification-video"])
        let (rendition, url) = try movie(result, role: "notification-video", in: folder)
        #expect(rendition.bytes <= 50_000_000)
        #expect(rendition.attachment?.thumbnailTimeSeconds == result.video?.posterTimeSeconds)
        let probe = try Self.ffprobe(url)
        #expect(probe.video?["codec_name"] as? String == "h264")
        #expect(probe.video?["width"] as? Int == 1280 && probe.video?["height"] as? Int == 720)
        #expect(probe.audio?["codec_name"] as? String == "aac")
        #expect(abs(probe.duration - 2.0) < 0.15, "it fits whole: \(probe.duration)")
    }

    @Test func aMovieOverTheBudgetIsCutToItsFirstSeconds() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.uhdMovie.get()
        let media = try MediaFile(path: source.path)
        // 200 kB hold about 1.5 s at the 720p10 bitrate: the whole 2 s do not fit, the first 1 s does.
        let movie = try media.movieAttachment(MovieAttachmentRequest(role: "clip", clipSeconds: 1, maxBytes: 200_000))
        #expect(!movie.wholeMovie)
        #expect(movie.data.count <= 200_000)
        let url = folder.appendingPathComponent("clip.mp4")
        try Data(movie.data).write(to: url)
        let probe = try Self.ffprobe(url)
        #expect(abs(probe.duration - 1.0) < 0.15, "\(probe.duration)")
        #expect(probe.video?["codec_name"] as? String == "h264")
        #expect(probe.audio?["codec_name"] as? String == "aac")
    }

    @Test func audioWithCoverGivesTheCoverAndOnRequestAnM4A() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = Self.options
        options.notificationAudio = true
        for name in ["song-cover.mp3", "song-cover.m4a"] {
            let result = AssetProcessor(options: options).processBlocking(fileAt: TestSupport.sample(name), displayName: name)
            #expect(result.error == nil, "\(name)")
            #expect(result.kind == .artwork)
            #expect(result.renditions.map(\.role) == ["thumbnail", "fallback", "notification", "notification-audio"])
            let cover = try #require(result.renditions.first { $0.role == "notification" })
            #expect(cover.format == .jpeg && cover.attachment?.uti == "public.jpeg")
            let (sound, url) = try movie(result, role: "notification-audio", in: folder)
            #expect(sound.format == .m4a)
            #expect(sound.attachment?.uti == "public.mpeg-4-audio")
            #expect(sound.attachment?.limitBytes == 5_000_000)
            #expect(sound.attachment?.thumbnailClippingRect == nil && sound.attachment?.thumbnailTimeSeconds == nil)
            #expect(sound.bytes <= 5_000_000)
            let probe = try Self.ffprobe(url)
            #expect(probe.formatName.contains("m4a"))
            #expect(probe.video == nil)
            #expect(probe.audio?["codec_name"] as? String == "aac")
            #expect(abs(probe.duration - 1.5) < 0.15, "\(name): \(probe.duration)")
        }
        // Off unless asked for.
        let plain = AssetProcessor(options: Self.options).processBlocking(fileAt: TestSupport.sample("song-cover.m4a"))
        #expect(!plain.renditions.contains { $0.role == "notification-audio" })
    }

    @Test func longAudioIsCutToItsFirstSeconds() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("long.m4a")
        _ = try Self.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:sample_rate=44100:duration=30",
                                    "-ac", "2", "-c:a", "aac", source.path])
        let media = try MediaFile(path: source.path)
        // 100 kB hold about 5.6 s of 128 kbit/s stereo: the 30 s do not fit, the first 2 s do.
        let sound = try media.audioAttachment(AudioAttachmentRequest(role: "a", clipSeconds: 2, maxBytes: 100_000))
        #expect(!sound.wholeSound)
        #expect(sound.data.count <= 100_000)
        let url = folder.appendingPathComponent("clip.m4a")
        try Data(sound.data).write(to: url)
        let probe = try Self.ffprobe(url)
        #expect(abs(probe.duration - 2.0) < 0.1, "\(probe.duration)")
        #expect(probe.audio?["channels"] as? Int == 2)
        #expect(probe.audio?["sample_rate"] as? String == "44100")
    }
}
