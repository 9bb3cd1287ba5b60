import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// `MediaFile.videoInfo()` on the video samples: what ffprobe shows for them (commands in
/// Tests/SampleMaker/make-media-samples.sh), and clean typed failures on everything else.
@Suite struct VideoProbeTests {
    /// libavformat opens only the demuxers of the formats the sniffer admits: a playlist or a
    /// concat script naming a real sample, and a Sun AU file (PCM written here), are refused at
    /// probe with the container they were detected as, so no other file is ever opened.
    @Test func containersOutsideTheAllowListAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jm-allow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sample = MediaSamples.path("video-rotated-90.mp4")
        // Sun AU: ".snd", data offset, data size, encoding 3 (16-bit linear PCM), rate, channels; big-endian.
        func be(_ value: Int, _ bytes: Int) -> Data {
            Data((0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
        }
        let samples = (0..<8_000).map { Int(8_000 * sin(Double($0) * 0.1)) }
        var au = Data(".snd".utf8) + be(24, 4) + be(samples.count * 2, 4) + be(3, 4) + be(8_000, 4) + be(1, 4)
        for value in samples { au += be(value, 2) }
        let files: [(String, Data, String)] = [
            ("list.m3u8", Data("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nfile://\(sample)\n#EXT-X-ENDLIST\n".utf8), "hls"),
            ("list.ffconcat", Data("ffconcat version 1.0\nfile '\(sample)'\n".utf8), "concat"),
            ("tone.au", au, "au"),
        ]
        for (name, bytes, demuxer) in files {
            let url = folder.appendingPathComponent(name)
            try bytes.write(to: url)
            do {
                _ = try MediaFile(path: url.path, name: name)
                Issue.record("\(name) was opened")
            } catch {
                #expect(error.stage == .probe && error.file == name, "\(error)")
                #expect(error.message.contains("unsupported container (\(demuxer))"), "\(name): \(error.message)")
            }
        }
    }

    @Test func rotatedClipReportsDisplaySizeAfterRotation() throws {
        let info = try MediaSamples.open("video-rotated-90.mp4").videoInfo()
        #expect(info.codec == "h264")
        #expect(info.codedWidth == 180 && info.codedHeight == 320)
        #expect(info.rotation == 90, "display matrix says: turn 90° clockwise")
        #expect(info.displayWidth == 320 && info.displayHeight == 180)
        #expect(abs((info.durationSeconds ?? 0) - 2.0) < 0.05)
        #expect(abs((info.frameRate ?? 0) - 30) < 0.01)
        #expect(info.hasAudio)
        #expect(info.color.bitDepth == 8)
        #expect(!info.color.isHDR)
        #expect(info.contentIdentifier == nil)
    }

    @Test func hlgClipReportsItsColourSignalling() throws {
        let info = try MediaSamples.open("video-hdr-hlg.mov").videoInfo()
        #expect(info.codec == "hevc")
        #expect(info.rotation == 0)
        #expect(info.displayWidth == 320 && info.displayHeight == 180)
        #expect(info.color == VideoColorDescription(transfer: "arib-std-b67", primaries: "bt2020", matrix: "bt2020nc",
                                                    range: "tv", bitDepth: 10))
        #expect(info.color.isHDR)
        #expect(abs((info.durationSeconds ?? 0) - 1.5) < 0.05)
        #expect(abs((info.frameRate ?? 0) - 24) < 0.01)
        #expect(!info.hasAudio)
    }

    @Test func blackStartClip() throws {
        let info = try MediaSamples.open("video-black-start.mp4").videoInfo()
        #expect(info.codec == "h264" && !info.hasAudio && info.rotation == 0)
        #expect(abs((info.durationSeconds ?? 0) - 3.0) < 0.05)
    }

    @Test func livePhotoMoviesCarryTheirContentIdentifiers() throws {
        let first = try MediaSamples.open("live/IMG_0001.MOV").videoInfo()
        #expect(first.contentIdentifier == MediaSamples.livePhotoIdentifier)
        #expect(first.containerTags["creation_time"]?.hasPrefix("2024-06-01T07:30:00") == true)
        #expect(first.codec == "hevc" && first.hasAudio)
        // The samples, like most files outside an iPhone, have no still-image-time key.
        #expect(first.stillImageTimeSeconds == nil)

        let unnamed = try MediaSamples.open("live/IMG_0002.MOV").videoInfo()
        #expect(unnamed.contentIdentifier == nil)
        #expect((unnamed.durationSeconds ?? 99) <= 4)

        let other = try MediaSamples.open("live/IMG_0003.MOV").videoInfo()
        #expect(other.contentIdentifier == MediaSamples.mismatchedVideoIdentifier)
    }

    @Test func audioWithCoverArtIsNotAVideo() throws {
        let media = try MediaSamples.open("song-cover.mp3")
        #expect(throws: AssetError(file: "song-cover.mp3", stage: .probe, reason: .noVideo, message: "no video stream")) {
            try media.videoInfo()
        }
    }

    @Test func nonMediaFilesFailWithTypedErrors() throws {
        for name in ["not-an-image.jpg", "empty.png", "photo.heic", "icon.svg"] {
            do {
                _ = try MediaFile(path: MediaSamples.path(name), name: name).videoInfo()
                Issue.record("\(name) opened as a video")
            } catch {
                #expect(error.file == name)
                #expect(error.stage == .probe, "\(name): \(error)")
            }
        }
        #expect(throws: AssetError.self) { try MediaFile(path: "/nonexistent/clip.mov") }
        do {
            _ = try MediaFile(path: TestSupport.samples.path, name: "Samples")
            Issue.record("a folder opened")
        } catch {
            #expect(error.stage == .read && error.message == "not a regular file")
        }
    }

    /// Cut copies of a real clip: each one opens and yields a poster, or fails with a typed
    /// error naming the file, and none hangs or crashes.
    @Test func truncatedClipsFailCleanly() throws {
        let whole = try MediaSamples.bytes("video-rotated-90.mp4")
        let mdat = try #require(boxOffset("mdat", in: whole), "the sample has its moov box first (exiftool rewrote it)")

        // Cut inside the moov box: no index, nothing to open.
        let noIndex = try MediaSamples.temporaryFile("no-index.mp4", Array(whole.prefix(mdat / 2)))
        do {
            _ = try MediaFile(path: noIndex.path, name: "no-index.mp4")
            Issue.record("a clip without its moov box opened")
        } catch {
            #expect(error.file == "no-index.mp4" && error.stage == .probe, "\(error)")
        }

        // Index intact, media data cut after 200 bytes: it opens, but no frame decodes.
        let noFrames = try MediaSamples.temporaryFile("no-frames.mp4", Array(whole.prefix(mdat + 200)))
        let media = try MediaFile(path: noFrames.path, name: "no-frames.mp4")
        #expect(try media.videoInfo().displayWidth == 320)
        #expect(throws: AssetError(file: "no-frames.mp4", stage: .decode, reason: .truncated,
                                   message: "no video frame could be decoded: the file ends before the h264 video data its index lists")) {
            try media.posterFrame()
        }

        for fraction in [0.3, 0.5, 0.7, 0.9, 0.97] {
            let cut = try MediaSamples.temporaryFile("cut.mp4", Array(whole.prefix(Int(Double(whole.count) * fraction))))
            do {
                let poster = try MediaFile(path: cut.path, name: "cut.mp4").posterFrame()
                #expect(poster.width == 320 && poster.rgb.count == poster.width * poster.height * 3)
            } catch {
                #expect(error.file == "cut.mp4" && [.probe, .decode].contains(error.stage), "\(error)")
            }
        }
    }

    /// Random byte changes, insertions, deletions and cuts of real clips and songs: every
    /// one opens and probes, or fails with a typed error; none crashes or hangs.
    @Test func mutatedFilesFailCleanly() throws {
        var random = SplitMix64(seed: 0x5649_4445)
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outcomes: [String: Int] = [:]
        for name in ["video-rotated-90.mp4", "video-hdr-hlg.mov", "song-cover.mp3", "song-cover.m4a"] {
            let original = try MediaSamples.bytes(name)
            for round in 0..<40 {
                let url = folder.appendingPathComponent("\(round)-\(name)")
                try Data(AppleMakerNoteTests.mutate(original, &random)).write(to: url)
                do {
                    let media = try MediaFile(path: url.path, name: "mutated")
                    if name.hasPrefix("song") {
                        let art = try media.coverArt()
                        #expect(!art.bytes.isEmpty)
                    } else {
                        let poster = try media.posterFrame()
                        #expect(poster.rgb.count == poster.width * poster.height * 3)
                    }
                    outcomes["ok", default: 0] += 1
                } catch {
                    #expect(error.file == "mutated")
                    outcomes[error.stage.rawValue, default: 0] += 1
                }
            }
        }
        #expect(outcomes.values.reduce(0, +) == 160)
        #expect((outcomes["ok"] ?? 0) > 0, "\(outcomes)")
    }

    /// Offset of the first top-level ISO-BMFF box of type `type`.
    func boxOffset(_ type: String, in bytes: [UInt8]) -> Int? {
        var offset = 0
        while offset + 8 <= bytes.count {
            let size = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { return offset }
            guard size >= 8 else { return nil }
            offset += size
        }
        return nil
    }

    @Test func rotationFromLibavAngles() {
        #expect(DisplayRotation.fromAnticlockwise(-90) == 90)
        #expect(DisplayRotation.fromAnticlockwise(90) == 270)
        #expect(DisplayRotation.fromAnticlockwise(180) == 180)
        #expect(DisplayRotation.fromAnticlockwise(-180) == 180)
        #expect(DisplayRotation.fromAnticlockwise(-0.0) == 0)
        #expect(DisplayRotation.fromAnticlockwise(-89.7) == 90)
        #expect(DisplayRotation.fromAnticlockwise(.nan) == 0)
    }
}
