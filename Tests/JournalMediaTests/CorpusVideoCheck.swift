import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Opt-in check of the video layer and the Live Photo identifier reader over the development
/// corpus (../shared/corpus), against ExifTool's and ffprobe's readings. Not part of
/// `make test`; run it with
///
///     JM_CORPUS=/work/shared/corpus swift test --filter CorpusVideoCheck
///
/// It prints a report (and writes it to $JM_CORPUS_REPORT when set) and fails when a still's
/// Live Photo identifier differs from ExifTool's, when a video ffprobe reads disagrees with ours
/// on rotation, size, codec or duration (containers outside the allow-list are refused), or when an audio/video file neither opens nor fails
/// with a typed error (a crash takes the test process down).
@Suite struct CorpusVideoCheck {
    static let root = ProcessInfo.processInfo.environment["JM_CORPUS"]

    @Test(.enabled(if: root != nil)) func corpusAgainstGroundTruth() throws {
        let root = URL(fileURLWithPath: try #require(Self.root))
        let truth = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: root.appendingPathComponent("groundtruth.json"))) as? [[String: Any]])
        let probes = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: root.appendingPathComponent("groundtruth.ffprobe.json"))) as? [String: [String: Any]])
        var lines: [String] = []
        func say(_ line: String) { lines.append(line); print("CORPUS", line) }

        // 1. Every file through MediaFile: media files open (or fail typed), others fail typed.
        var opened = 0, openFailures: [String: Int] = [:], posters = 0, covers = 0
        var mediaTotal = 0, mediaOpened = 0
        var slowest: (String, Double) = ("", 0)
        for entry in truth {
            guard let source = entry["SourceFile"] as? String else { continue }
            let path = root.appendingPathComponent(source).path
            let mime = entry["File:MIMEType"] as? String ?? ""
            let isVideo = mime.hasPrefix("video/"), isAudio = mime.hasPrefix("audio/")
            if isVideo || isAudio { mediaTotal += 1 }
            let started = Date()
            defer {
                let elapsed = Date().timeIntervalSince(started)
                if elapsed > slowest.1 { slowest = (source, elapsed) }
            }
            let media: MediaFile
            do {
                media = try MediaFile(path: path, name: source)
            } catch {
                openFailures["\(error.stage.rawValue): \(error.message)", default: 0] += 1
                if isVideo || isAudio { say("media not opened: \(source) (\(mime)): \(error.stage.rawValue): \(error.message)") }
                continue
            }
            opened += 1
            if isVideo || isAudio { mediaOpened += 1 }
            if !(isVideo || isAudio) { say("non-media opened by libavformat: \(source) (\(mime)) as \(media.demuxerName)") }
            do {
                let info = try media.videoInfo()
                let poster = try media.posterFrame(PosterOptions(maxDimension: 1600))
                posters += 1
                let id = info.contentIdentifier.map { " contentIdentifier=\($0)" } ?? ""
                say("video \(source): \(info.codec) \(info.codedWidth)×\(info.codedHeight) → \(info.displayWidth)×\(info.displayHeight) rot \(info.rotation) dur \(info.durationSeconds.map { String(format: "%.3f", $0) } ?? "nil") fps \(info.frameRate.map { String(format: "%.2f", $0) } ?? "nil") audio \(info.hasAudio) \(info.color.transfer ?? "-")/\(info.color.primaries ?? "-")/\(info.color.bitDepth ?? 0)bit; poster \(poster.width)×\(poster.height) at \(String(format: "%.2f", poster.timeSeconds)) s luma \(Int(poster.meanLuma))±\(Int(poster.lumaDeviation))\(poster.toneMapped ? " tone-mapped" : "")\(id)")
            } catch {
                if isVideo { say("video \(source): \(error.stage.rawValue): \(error.message)") }
            }
            if isAudio {
                do {
                    let art = try media.coverArt()
                    covers += 1
                    say("audio \(source): cover \(art.codec) \(art.bytes.count) bytes")
                } catch {
                    say("audio \(source): \(error.message)")
                }
            }
        }
        say("files \(truth.count); opened by libavformat \(opened); audio/video by ExifTool's MIME type \(mediaTotal), opened \(mediaOpened); posters \(posters); covers \(covers); slowest \(slowest.0) \(String(format: "%.3f", slowest.1)) s")
        for (reason, count) in openFailures.sorted(by: { $0.value > $1.value }) { say("  open failure ×\(count): \(reason)") }

        // 2. ffprobe's reading of the videos vs ours.
        var agree = 0, refused = 0
        for (source, probe) in probes.sorted(by: { $0.key < $1.key }) {
            let path = root.appendingPathComponent(source).path
            let streams = probe["streams"] as? [[String: Any]] ?? []
            let video = streams.first { $0["codec_type"] as? String == "video" }
            let expectedDuration = (probe["format_duration"] as? String).flatMap(Double.init)
            do {
                let info = try MediaFile(path: path, name: source).videoInfo()
                var problems: [String] = []
                guard let video else {
                    say("ffprobe: \(source): ffprobe sees no video stream, we see \(info.codec)")
                    continue
                }
                let rotation = (video["rotation"] as? Int).map { ((-$0 % 360) + 360) % 360 } ?? 0
                if rotation != info.rotation { problems.append("rotation ffprobe \(rotation) (clockwise) vs \(info.rotation)") }
                if video["width"] as? Int != info.codedWidth || video["height"] as? Int != info.codedHeight {
                    problems.append("size ffprobe \(video["width"] ?? "nil")×\(video["height"] ?? "nil") vs \(info.codedWidth)×\(info.codedHeight)")
                }
                if video["codec_name"] as? String != info.codec { problems.append("codec ffprobe \(video["codec_name"] ?? "nil") vs \(info.codec)") }
                switch (expectedDuration, info.durationSeconds) {
                case let (e?, o?) where abs(e - o) > 0.01: problems.append("duration ffprobe \(e) vs \(o)")
                case (nil, let o?): problems.append("duration ffprobe none vs \(o)")
                case (.some(let e), nil): problems.append("duration ffprobe \(e) vs none")
                default: break
                }
                if problems.isEmpty { agree += 1 }
                say("ffprobe: \(source): \(problems.isEmpty ? "agrees (rotation \(rotation), \(info.codedWidth)×\(info.codedHeight), \(info.durationSeconds.map { String($0) } ?? "nil") s)" : problems.joined(separator: "; "))")
            } catch where video == nil && error.message == "no video stream" {
                agree += 1
                say("ffprobe: \(source): agrees (no video stream)")
            } catch where error.stage == .probe && error.message.hasPrefix("unsupported container") {
                // Containers outside MediaFile.allowedDemuxers (MPEG-TS, AVI, …) are refused by design.
                refused += 1
                say("ffprobe: \(source): refused by design: \(error.message)")
            } catch {
                say("ffprobe: \(source): ffprobe reads \(video.map { "\($0["codec_name"] ?? "?")" } ?? "no video") \(expectedDuration.map { "\($0) s" } ?? ""); we fail: \(error.stage.rawValue): \(error.message)")
            }
        }
        say("ffprobe videos \(probes.count), agreeing on rotation/size/codec/duration: \(agree); container refused: \(refused)")
        #expect(agree + refused == probes.count, "videos disagreeing with ffprobe: \(probes.count - agree - refused)")

        // 3. Live Photo identifiers of stills vs ExifTool's Apple:MediaGroupUUID, read as the
        //    pipeline reads them (HeaderMetadata on the whole file).
        var stills = 0, withTruth = 0, matched = 0, readNone = 0
        for entry in truth {
            guard let source = entry["SourceFile"] as? String,
                  let type = entry["File:FileType"] as? String, ["JPEG", "HEIC", "HEIF", "MPO"].contains(type) else { continue }
            stills += 1
            let expected = entry["Apple:MediaGroupUUID"] as? String
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(source)))
            let found = AppleMakerNoteTests.identifier(ofFile: bytes, name: source)
            if expected != nil { withTruth += 1 }
            if found == expected {
                if expected != nil { matched += 1; say("live: \(source): \(found ?? "") agrees") } else { readNone += 1 }
            } else {
                say("live: \(source): ExifTool \(expected ?? "none") vs ours \(found ?? "none")")
            }
        }
        say("stills (JPEG/HEIC/HEIF/MPO) \(stills): ExifTool identifiers \(withTruth), equal \(matched); both none \(readNone)")
        #expect(matched + readNone == stills, "stills whose identifier differs from ExifTool's: \(stills - matched - readNone)")

        if let out = ProcessInfo.processInfo.environment["JM_CORPUS_REPORT"] {
            try lines.joined(separator: "\n").appending("\n").write(toFile: out, atomically: true, encoding: .utf8)
        }
    }
}
