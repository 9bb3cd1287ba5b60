import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// `Batch` on folders of samples: manifest, output tree, re-runs, atomic writes.
@Suite struct BatchTests {
    static let goodSamples = [
        "orientation-6-gps-p3.jpg", "cmyk.jpg", "photo.heic", "adobe-rgb-16bit.png", "alpha-disc.png",
        "icon.svg", "icon.pdf", "scene.webp", "scene.gif",
    ]
    static let badSamples = ["truncated.jpg", "not-an-image.jpg", "empty.png"]

    func makeInput(_ label: String = #function) throws -> (input: URL, output: URL) {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        let nested = input.appendingPathComponent("2024/06")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try TestSupport.copySamples(Self.goodSamples + Self.badSamples, to: input)
        try FileManager.default.copyItem(at: TestSupport.sample("photo.heic"), to: nested.appendingPathComponent("IMG_0001.HEIC"))
        try Data("hidden".utf8).write(to: input.appendingPathComponent(".DS_Store"))
        try FileManager.default.createDirectory(at: input.appendingPathComponent(".thumbs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("cmyk.jpg"), to: input.appendingPathComponent(".thumbs/x.jpg"))
        return (input, root.appendingPathComponent("out"))
    }

    @Test func convertsAFolderIntoAMirroredTreeWithAManifest() async throws {
        let (input, output) = try makeInput()
        defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()

        #expect(manifest.schemaVersion == 1)
        #expect(manifest.assets.count == 13, "hidden files and folders are skipped")
        #expect(manifest.summary.succeeded == 10)
        #expect(manifest.summary.failed == 3)
        #expect(manifest.summary.processed == 13)
        let nested = try #require(manifest.assets.first { $0.source == "2024/06/IMG_0001.HEIC" })
        #expect(nested.renditions.map(\.path) == [
            "2024/06/IMG_0001.HEIC.thumbnail.webp", "2024/06/IMG_0001.HEIC.fallback.jpg",
        ])
        #expect(nested.kind == .photo && nested.mediaType == "image/heic")
        for entry in manifest.assets where entry.error == nil {
            #expect(entry.renditions.count == 2)
            for rendition in entry.renditions {
                let url = output.appendingPathComponent(try #require(rendition.path))
                let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
                #expect(size == rendition.bytes, "\(rendition.path)")
                let image = try TestImage(contentsOf: url)
                #expect(image.width == rendition.width && image.height == rendition.height)
            }
            #expect(entry.sha256 == ContentDigest.sha256(Array(try Data(contentsOf: input.appendingPathComponent(entry.source)))))
        }
        let rotated = try #require(manifest.assets.first { $0.source == "orientation-6-gps-p3.jpg" })
        #expect(rotated.width == 600 && rotated.height == 400 && rotated.orientation == 6)
        let transparent = try #require(manifest.assets.first { $0.source == "alpha-disc.png" })
        #expect(transparent.renditions.last?.path == "alpha-disc.png.fallback.png")

        let errors = Dictionary(uniqueKeysWithValues: manifest.assets.compactMap { e in e.error.map { (e.source, $0.stage) } })
        #expect(errors == ["truncated.jpg": .decode, "not-an-image.jpg": .sniff, "empty.png": .sniff])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("truncated.jpg.thumbnail.webp").path))

        // The manifest on disk is the one returned, with explicit nulls.
        let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"error\" : null"))
        #expect(try TestSupport.manifest(in: output).assets == manifest.assets)
    }

    @Test func reRunSkipsUnchangedAssetsAndRedoesChangedOnes() async throws {
        let (input, output) = try makeInput()
        defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
        _ = try await Batch(inputs: [input], output: output).run()
        let thumb = output.appendingPathComponent("cmyk.jpg.thumbnail.webp")
        let before = try FileManager.default.attributesOfItem(atPath: thumb.path)[.modificationDate] as? Date

        let second = try await Batch(inputs: [input], output: output).run()
        #expect(second.summary.skipped == 13, "every success is reused, and every failure of the file's own")
        #expect(second.summary.processed == 0, "unchanged failures are not retried")
        var retrying = Batch(inputs: [input], output: output)
        retrying.retryFailed = true
        let retried = try await retrying.run()
        #expect(retried.summary.skipped == 10 && retried.summary.processed == 3, "--retry-failed retries them")
        let after = try FileManager.default.attributesOfItem(atPath: thumb.path)[.modificationDate] as? Date
        #expect(before == after, "reused renditions are not rewritten")

        // Change one input's content: only it is redone.
        try FileManager.default.removeItem(at: input.appendingPathComponent("cmyk.jpg"))
        try FileManager.default.copyItem(at: TestSupport.sample("scene.gif"), to: input.appendingPathComponent("cmyk.jpg"))
        // A deleted rendition is remade too.
        try FileManager.default.removeItem(at: output.appendingPathComponent("photo.heic.fallback.jpg"))
        let third = try await Batch(inputs: [input], output: output).run()
        #expect(third.summary.skipped == 11, "the changed input and the entry missing a rendition are redone")
        let changed = try #require(third.assets.first { $0.source == "cmyk.jpg" })
        #expect(changed.mediaType == "image/gif")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("photo.heic.fallback.jpg").path))

        // --force redoes everything; another preset redoes everything.
        let forced = try await Batch(inputs: [input], output: output, force: true).run()
        #expect(forced.summary.skipped == 0 && forced.summary.processed == 13)
        let small = ProcessingOptions(renditions: [RenditionSpec(role: "tiny", format: .webp, width: 64)])
        let other = try await Batch(inputs: [input], output: output, options: small).run()
        #expect(other.summary.skipped == 0)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("photo.heic.tiny.webp").path))
    }

    @Test func leftoverTemporaryFilesAreRemovedAndNeverListed() async throws {
        let (input, output) = try makeInput()
        defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: output.appendingPathComponent("2024"), withIntermediateDirectories: true)
        let stray = output.appendingPathComponent("2024/.IMG.thumbnail.webp.123\(AtomicFile.temporarySuffix)")
        try Data([1, 2, 3]).write(to: stray)
        _ = try await Batch(inputs: [input], output: output).run()
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        let all = FileManager.default.enumerator(atPath: output.path)?.allObjects as? [String] ?? []
        #expect(!all.contains { $0.hasSuffix(AtomicFile.temporarySuffix) })
    }

    @Test func severalInputsArePrefixedByTheirNames() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["a/photos", "b/photos"] {
            let url = root.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try TestSupport.copySamples(["photo.heic"], to: url)
        }
        let single = root.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
        try TestSupport.copySamples(["icon.svg"], to: single)
        let planned = try InputScanner.scan(
            inputs: [root.appendingPathComponent("a/photos"), root.appendingPathComponent("b/photos"),
                     single.appendingPathComponent("icon.svg")],
            output: root.appendingPathComponent("out"))
        #expect(planned.map(\.relativePath) == ["icon.svg", "photos-2/photo.heic", "photos/photo.heic"])
        let alone = try InputScanner.scan(inputs: [single.appendingPathComponent("icon.svg")], output: root.appendingPathComponent("out"))
        #expect(alone.map(\.relativePath) == ["icon.svg"])
    }

    @Test func impossibleRequestsAreBatchErrors() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        await #expect(throws: BatchError.missingInput(root.appendingPathComponent("nope").path)) {
            _ = try await Batch(inputs: [root.appendingPathComponent("nope")], output: root.appendingPathComponent("out")).run()
        }
        do {
            _ = try await Batch(inputs: [root], output: root.appendingPathComponent("out")).run()
            Issue.record("output inside input must be refused")
        } catch {
            #expect(error.isUsageError)
            guard case .outputInsideInput = error else { Issue.record("wrong error \(error)"); return }
        }
    }

    /// The largest unit starts first (a Live Photo counts both files), ties keep input order,
    /// and a unit whose probe is missing counts as empty: with the big file last, one worker
    /// would convert it alone at the end of the batch.
    @Test func largestUnitsStartFirst() {
        let names = ["icon.svg", "cmyk.jpg", "scene.webp", "alpha-disc.png", "photo.heic", "orientation-8-srgb.jpg"]
        var probes: [ProbedAsset?] = names.map { ProbedAsset.open(TestSupport.sample($0), name: $0) }
        let units: [WorkUnit] = [
            .single(0), .single(1), .single(2), .livePhoto(still: 3, motion: 4, pairedBy: .given), .single(5), .single(0),
        ]
        // cmyk.jpg 1.1 MB; alpha-disc.png + photo.heic 83 kB; orientation-8 33 kB; scene.webp 3.5 kB; icon.svg twice.
        #expect(Batch.launchOrder(costs: Batch.costs(units, probes: probes)) == [1, 3, 4, 2, 0, 5])
        probes[1] = nil
        #expect(Batch.launchOrder(costs: Batch.costs(units, probes: probes)).last == 1)
    }
}
