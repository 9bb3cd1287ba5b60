import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// `Batch.shard` / `convert --shard I/N` and `Manifest.merge` / `merge-manifests`: N shards
/// over Samples/ merged equal one run, for N = 1, 2, 5.
@Suite(.serialized) struct ShardTests {
    /// Each asset's manifest JSON (keys sorted), by source.
    static func entries(_ manifest: Manifest) throws -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var result: [String: String] = [:]
        for entry in manifest.assets {
            result[entry.source] = String(decoding: try encoder.encode(entry), as: UTF8.self)
        }
        return result
    }

    @Test func shardsParseAndPartitionTheWork() throws {
        #expect(BatchShard(parsing: "0/1") != nil && BatchShard(parsing: "4/5") != nil)
        for bad in ["5/5", "-1/2", "1/0", "1", "a/b", "1/2/3", ""] { #expect(BatchShard(parsing: bad) == nil, "\(bad)") }
        let paths = (0..<1000).map { "folder/IMG_\($0).JPG" }
        for count in [1, 2, 5] {
            let shards = (0..<count).compactMap { BatchShard(index: $0, count: count) }
            for path in paths { #expect(shards.filter { $0.contains(path) }.count == 1) }
            let sizes = shards.map { shard in paths.filter { shard.contains($0) }.count }
            #expect(sizes.allSatisfy { $0 > 1000 / count / 2 }, "roughly even: \(sizes)")
        }
    }

    @Test func mergedShardsEqualOneRun() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let samples = TestSupport.samples
        // No decode deadline: under the full suite on two cores an asset can outlast the
        // default --timeout in one run and not in another, which is not what this compares.
        let options = ProcessingOptions(timeoutSeconds: 3600)
        let single = try await Batch(inputs: [samples], output: root.appendingPathComponent("single"), options: options, jobs: 2).run()
        let expected = try Self.entries(single)
        #expect(expected.count > 20)
        for count in [1, 2, 5] {
            let output = root.appendingPathComponent("shards-\(count)")
            var parts: [Manifest] = []
            for index in 0..<count {
                var batch = Batch(inputs: [samples], output: output, options: options, jobs: 2)
                batch.shard = BatchShard(index: index, count: count)
                parts.append(try await batch.run())
                let written = output.appendingPathComponent("manifest.shard-\(index)-of-\(count).json")
                #expect(FileManager.default.fileExists(atPath: written.path))
            }
            if count > 1 { #expect(parts.filter { !$0.assets.isEmpty }.count > 1, "the work is really split") }
            let merged = try Manifest.merge(parts)
            let got = try Self.entries(merged)
            let differing = Set(got.keys).union(expected.keys).sorted().filter { got[$0] != expected[$0] }
            #expect(differing.isEmpty, "N=\(count): \(differing.map { "\($0)\n  one run: \(expected[$0] ?? "-")\n  shards:  \(got[$0] ?? "-")" })")
            #expect(merged.assets.map(\.source) == merged.assets.map(\.source).sorted())
            #expect(merged.summary.assets == single.summary.assets && merged.summary.failed == single.summary.failed)
            #expect(merged.ignored == single.ignored, "N=\(count): the inputs one run lists as ignored")
            // Every rendition the merged manifest lists is on disk, where it says.
            for entry in merged.assets {
                for rendition in entry.renditions {
                    let path = try #require(rendition.path)
                    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path))
                }
            }
        }
        let live = single.assets.filter { $0.kind == .livePhoto }
        #expect(!live.isEmpty, "Samples/ has Live Photo pairs, and they survive sharding")
    }

    /// Every shard probes all inputs, so each part lists the same `ignored` inputs (README.md,
    /// XMP sidecars, …); the merged manifest lists them once, as one run does. Before the fix
    /// (found by `make cluster-check` on Samples/) the merge dropped them: `ignored: []`.
    @Test func mergeKeepsTheIgnoredInputsOnce() throws {
        var readme = IgnoredInput(path: "README.md", reason: "not media: text")
        readme.notMedia = true
        let link = IgnoredInput(path: "a/link", reason: "a symbolic link to a folder")
        let first = Manifest(generator: "g", preset: Defaults.renditions, assets: [AssetResult(source: "a.jpg")],
                             ignored: [readme, link], summary: ManifestSummary())
        let second = Manifest(generator: "g", preset: Defaults.renditions, assets: [AssetResult(source: "b.jpg")],
                              ignored: [readme, link], summary: ManifestSummary())
        let merged = try Manifest.merge([first, second])
        #expect(merged.ignored == [readme, link])
    }

    /// A shard clears the temporary files a killed run of it left (a lost node, a requeued
    /// task) and only those: a file another shard writes, or one of its own newer than the
    /// run (in progress), stays. Before, a sharded run swept nothing, so the lost-node drill of
    /// `make cluster-check` could leave a `.jm-*.jmtmp` beside the finished output.
    @Test func aShardClearsItsOwnLeftoversOnly() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in"), output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let shard = try #require(BatchShard(index: 0, count: 2))
        let names = (0..<8).map { "photo-\($0).jpg" }
        let mine = try #require(names.first { shard.contains($0) })
        let theirs = try #require(names.first { !shard.contains($0) })
        let sample = TestSupport.samples.appendingPathComponent("jpeg-decode/grey.jpg")
        for name in [mine, theirs] { try FileManager.default.copyItem(at: sample, to: input.appendingPathComponent(name)) }
        func leftover(_ final: String, _ tag: String, age: TimeInterval) throws -> URL {
            // `.jm-` + the final name's hash, as AtomicFile names it while writing, + a tag.
            let url = output.appendingPathComponent(String(AtomicFile.temporaryName(for: final).prefix(12)) + tag + AtomicFile.temporarySuffix)
            try Data("partial".utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: url.path)
            return url
        }
        let own = try leftover(mine + ".thumbnail.webp", "0badf00d", age: 3600)
        let ownManifest = try leftover(shard.manifestName, "0badf00e", age: 3600)
        let other = try leftover(theirs + ".thumbnail.webp", "0badf00d", age: 3600)
        let inProgress = try leftover(mine + ".fallback.jpg", "0badf00f", age: -3600)
        var batch = Batch(inputs: [input], output: output, options: ProcessingOptions(timeoutSeconds: 3600), jobs: 1)
        batch.shard = shard
        let manifest = try await batch.run()
        #expect(manifest.assets.map(\.source) == [mine])
        #expect(!FileManager.default.fileExists(atPath: own.path), "its own leftover is cleared")
        #expect(!FileManager.default.fileExists(atPath: ownManifest.path), "its manifest's leftover is cleared")
        #expect(FileManager.default.fileExists(atPath: other.path), "another shard's file stays")
        #expect(FileManager.default.fileExists(atPath: inProgress.path), "a file newer than the run stays")
    }

    @Test func mergeRefusesOverlapsAndMixedPresets() throws {
        let entry = AssetResult(source: "a.jpg")
        let one = Manifest(generator: "g", preset: Defaults.renditions, assets: [entry], summary: ManifestSummary())
        #expect(throws: Manifest.MergeError.self) { try Manifest.merge([one, one]) }
        let other = Manifest(generator: "g", preset: [RenditionSpec(role: "x", format: .png, width: 10)],
                             assets: [AssetResult(source: "b.jpg")], summary: ManifestSummary())
        #expect(throws: Manifest.MergeError.self) { try Manifest.merge([one, other]) }
        #expect(throws: Manifest.MergeError.self) { try Manifest.merge([]) }
        // Same preset, other settings (one run without colours): not one run's entries.
        let plain = Manifest(generator: "g", preset: Defaults.renditions, settings: OutputSettings(colors: false),
                             assets: [AssetResult(source: "c.jpg")], summary: ManifestSummary())
        #expect(throws: Manifest.MergeError.self) { try Manifest.merge([one, plain]) }
        let defaults = Manifest(generator: "g", preset: Defaults.renditions, settings: ProcessingOptions().outputSettings,
                                assets: [AssetResult(source: "d.jpg")], summary: ManifestSummary())
        #expect(try Manifest.merge([one, defaults]).assets.count == 2, "no settings reads as the defaults")
    }
}
