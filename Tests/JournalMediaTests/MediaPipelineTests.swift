import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Videos, Live Photos, audio artwork and icons through the whole pipeline (`Batch`), on the
/// samples made by Tests/SampleMaker/make-media-samples.sh.
@Suite struct MediaPipelineTests {
    /// Converts the named samples (paths under Samples/, copied keeping their names) and
    /// returns the manifest entries by source plus the output folder.
    func convert(_ files: [(sample: String, as: String)], _ label: String = #function) async throws
        -> (entries: [String: ManifestEntry], output: URL)
    {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        for file in files {
            let target = input.appendingPathComponent(file.as)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: TestSupport.sample(file.sample), to: target)
        }
        let output = root.appendingPathComponent("out")
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()
        _ = try TestSupport.manifest(in: output)
        return (Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.source, $0) }), output)
    }

    func image(_ entry: ManifestEntry?, role: String, in output: URL) throws -> TestImage {
        let record = try #require(entry?.renditions.first { $0.role == role }, "no \(role) rendition")
        return try TestImage(Array(Data(contentsOf: output.appendingPathComponent(try #require(record.path)))))
    }

    @Test func livePhotosPairByIdentifierThenByNameAndNeverAcrossIdentifiers() async throws {
        let names = ["IMG_0001.JPG", "IMG_0001.MOV", "IMG_0002.JPG", "IMG_0002.MOV", "IMG_0003.JPG", "IMG_0003.MOV"]
        let (entries, output) = try await convert(names.map { ("live/" + $0, $0) })
        #expect(entries.count == 4, "two pairs, and the mismatched still and movie on their own")

        let first = try #require(entries["IMG_0001.JPG"])
        #expect(first.kind == .livePhoto)
        #expect(first.contentIdentifier == MediaSamples.livePhotoIdentifier)
        #expect(first.livePhoto?.pairedBy == .contentIdentifier)
        #expect(first.livePhoto?.motionSource == "IMG_0001.MOV")
        #expect(first.livePhoto?.motionSha256?.count == 64)
        #expect(first.video?.codec == "hevc")
        #expect(abs((first.video?.durationSeconds ?? 0) - 1.534) < 0.05)
        #expect(first.renditions.map(\.role) == ["thumbnail", "fallback", Batch.motionPosterRole])
        let poster = try image(first, role: Batch.motionPosterRole, in: output)
        #expect(poster.image.width > 0)

        let second = try #require(entries["IMG_0002.JPG"])
        #expect(second.kind == .livePhoto)
        #expect(second.livePhoto?.pairedBy == .fileName)
        #expect(second.contentIdentifier == nil)

        let still = try #require(entries["IMG_0003.JPG"])
        #expect(still.kind == .photo)
        #expect(still.livePhoto == nil)
        #expect(still.contentIdentifier == MediaSamples.mismatchedStillIdentifier)
        let movie = try #require(entries["IMG_0003.MOV"])
        #expect(movie.kind == .video)
        #expect(movie.contentIdentifier == MediaSamples.mismatchedVideoIdentifier)
    }

    /// A still with an identifier and a movie without one share a name: they must not pair.
    @Test func anIdentifierOnOneSideOnlyPreventsPairing() async throws {
        let (entries, _) = try await convert([("live/IMG_0001.JPG", "IMG_0009.JPG"), ("live/IMG_0002.MOV", "IMG_0009.MOV")])
        #expect(entries["IMG_0009.JPG"]?.kind == .photo)
        #expect(entries["IMG_0009.MOV"]?.kind == .video)
    }

    @Test func livePhotoIsReusedOnlyWhileBothFilesAreUnchanged() async throws {
        let root = try TestSupport.temporaryFolder()
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for name in ["IMG_0001.JPG", "IMG_0001.MOV"] {
            try FileManager.default.copyItem(at: TestSupport.sample("live/" + name), to: input.appendingPathComponent(name))
        }
        let output = root.appendingPathComponent("out")
        let batch = Batch(inputs: [input], output: output, jobs: 1)
        _ = try await batch.run()
        let again = try await batch.run()
        #expect(again.summary.skipped == 1)
        // Touch the movie: the pair is redone.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_600_000_000)],
                                              ofItemAtPath: input.appendingPathComponent("IMG_0001.MOV").path)
        let third = try await batch.run()
        #expect(third.summary.skipped == 0)
        #expect(third.assets.first?.livePhoto?.motionModified == 1_600_000_000)
    }

    @Test func videosBecomeUprightPostersWithTheirFacts() async throws {
        let (entries, output) = try await convert([
            ("video-rotated-90.mp4", "rotated.mp4"), ("video-hdr-hlg.mov", "hdr.mov"), ("video-black-start.mp4", "black.mp4"),
        ])
        let rotated = try #require(entries["rotated.mp4"])
        #expect(rotated.kind == .video)
        #expect(rotated.mediaType == "video/mp4")
        #expect(rotated.width == 320 && rotated.height == 180)
        #expect(rotated.video?.rotation == 90)
        #expect(rotated.video?.hasAudio == true)
        #expect(rotated.video?.frameRate == 30)
        try expectUprightMarkers(try image(rotated, role: "fallback", in: output))
        try expectUprightMarkers(try image(rotated, role: "thumbnail", in: output))
        #expect(rotated.colors != nil && rotated.placeholder != nil)

        let hdr = try #require(entries["hdr.mov"])
        #expect(hdr.video?.hdr == true)
        let mean = try image(hdr, role: "fallback", in: output).image.averagePerBand()
        let luma = 0.2126 * mean[0] + 0.7152 * mean[1] + 0.0722 * mean[2]
        #expect(luma > 70 && luma < 200, "tone-mapped poster mean luma \(luma)")

        let black = try #require(entries["black.mp4"])
        #expect((black.video?.posterTimeSeconds ?? 0) >= 1)
        let blackMean = try image(black, role: "fallback", in: output).image.averagePerBand()
        #expect(blackMean.reduce(0, +) / 3 > 40, "poster is not the black opening")
    }

    @Test func audioCoverArtAndIcons() async throws {
        let (entries, output) = try await convert([
            ("song-cover.mp3", "song.mp3"), ("song-cover.m4a", "song.m4a"), ("song-no-cover.mp3", "silent.mp3"),
            ("icon.svg", "icon.svg"), ("icon.pdf", "icon.pdf"), ("alpha-disc.png", "disc.png"), ("photo.heic", "photo.heic"),
        ])
        for name in ["song.mp3", "song.m4a"] {
            let song = try #require(entries[name])
            #expect(song.kind == .artwork, "\(name)")
            #expect(song.error == nil, "\(name)")
            #expect(song.width == 160 && song.height == 160, "\(name)")
            #expect(song.renditions.count == 2, "\(name)")
        }
        let silent = try #require(entries["silent.mp3"])
        #expect(silent.error?.stage == .probe)
        #expect(silent.error?.message.hasPrefix("no artwork") == true)
        #expect(silent.renditions.isEmpty)

        for name in ["icon.svg", "icon.pdf", "disc.png"] {
            #expect(entries[name]?.kind == .icon, "\(name)")
        }
        let disc = try #require(entries["disc.png"])
        #expect(disc.renditions.first { $0.role == "fallback" }?.format == .png, "transparent icon falls back to PNG")
        let thumbnail = try image(disc, role: "thumbnail", in: output)
        #expect(thumbnail.image.hasAlpha)
        #expect(entries["photo.heic"]?.kind == .photo)
    }
}
