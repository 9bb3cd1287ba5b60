import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// `MediaFile.coverArt()`: the embedded picture's bytes as stored, or a "no artwork" error.
@Suite struct CoverArtTests {
    @Test func mp3CoverIsTheEmbeddedJPEG() throws {
        let art = try MediaSamples.open("song-cover.mp3").coverArt()
        #expect(art.codec == "mjpeg")
        #expect(Array(art.bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(Array(art.bytes.suffix(2)) == [0xFF, 0xD9], "the whole JPEG, not a prefix")
        let image = try TestImage(art.bytes)
        #expect(image.width == 160 && image.height == 160 && art.width == 160)
    }

    @Test func m4aCoverIsTheEmbeddedPNG() throws {
        let art = try MediaSamples.open("song-cover.m4a").coverArt()
        #expect(art.codec == "png")
        #expect(Array(art.bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try TestImage(art.bytes)
        #expect(image.width == 160 && image.height == 160)
    }

    @Test func audioWithoutCoverSaysNoArtwork() throws {
        for name in ["song-no-cover.mp3", "video-black-start.mp4"] {
            do {
                _ = try MediaSamples.open(name).coverArt()
                Issue.record("\(name) has no cover")
            } catch {
                #expect(error.file == name && error.stage == .probe)
                #expect(error.message.hasPrefix("no artwork"))
            }
        }
    }

    @Test func audioProbesAsAudio() throws {
        let media = try MediaSamples.open("song-no-cover.mp3")
        #expect(media.demuxerName == "mp3")
        #expect((media.durationSeconds ?? 0) > 1.4 && (media.durationSeconds ?? 0) < 1.7)
        #expect(media.containerTags["title"] == "Sample tone, no cover")
    }
}
