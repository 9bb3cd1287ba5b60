import Foundation
import JournalMediaCore

/// One part of a batch split across machines (`convert --shard I/N`): the work units whose
/// primary file's relative path hashes to `index` modulo `count` (64-bit FNV-1a of the
/// path's UTF-8 bytes, the same on every machine and run). Every shard still probes all
/// inputs (headers only) so Live Photo pairs are formed as in one run and stay together.
/// Shard `I` writes `manifest.shard-I-of-N.json`; `Manifest.merge` joins the parts.
///
/// Index from a scheduler: a Kubernetes Indexed Job sets `JOB_COMPLETION_INDEX`, a Slurm
/// array `SLURM_ARRAY_TASK_ID` (both 0-based when the array starts at 0).
public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (0 ≤ I < N).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The manifest file this shard writes.
    public var manifestName: String { "manifest.shard-\(index)-of-\(count).json" }
    /// The lock this shard takes in the output folder: its own, so the N shards of a job can
    /// write into one shared folder at once, while two runs of the same shard cannot.
    public var lockName: String { ".journal-media.shard-\(index)-of-\(count).lock" }
    /// This shard's checkpoint journal beside its manifest.
    public var journalName: String { ".manifest.shard-\(index)-of-\(count).journal.jsonl" }

    /// Whether the unit whose primary file has `relativePath` belongs to this shard.
    public func contains(_ relativePath: String) -> Bool {
        Int(Self.hash(relativePath) % UInt64(count)) == index
    }

    /// 64-bit FNV-1a.
    static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        return value
    }
}

extension Manifest {
    /// Why manifest parts cannot be merged.
    public struct MergeError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Joins the manifests of a sharded run (`convert --shard`) into the one a single run
    /// would have written: assets in source order, summary recomputed (elapsed = the longest
    /// part) and the `ignored` inputs listed once. The parts must share schema version, preset
    /// and settings, and no source may appear twice.
    public static func merge(_ parts: [Manifest]) throws(MergeError) -> Manifest {
        guard let first = parts.first else { throw MergeError(description: "no manifest to merge") }
        var seen: Set<String> = []
        var assets: [ManifestEntry] = []
        for (number, part) in parts.enumerated() {
            guard part.schemaVersion == first.schemaVersion else {
                throw MergeError(description: "part \(number + 1) has schema version \(part.schemaVersion), not \(first.schemaVersion)")
            }
            guard part.preset == first.preset else {
                throw MergeError(description: "part \(number + 1) was made with another preset")
            }
            guard part.effectiveSettings == first.effectiveSettings else {
                throw MergeError(description: "part \(number + 1) was made with other settings (colours or notification clips)")
            }
            for entry in part.assets {
                guard seen.insert(Batch.outputKey(entry.source, escaped: entry.sourceEncoding != nil)).inserted else {
                    throw MergeError(description: "\(entry.source) is in more than one part")
                }
                assets.append(entry)
            }
        }
        assets.sort { $0.source < $1.source }
        let failed = assets.filter { $0.error != nil }.count
        let processed = parts.reduce(0) { $0 + $1.summary.processed }
        let elapsed = parts.map(\.summary.elapsedSeconds).max() ?? 0
        let summary = ManifestSummary(
            assets: assets.count, succeeded: assets.count - failed, failed: failed, processed: processed,
            skipped: parts.reduce(0) { $0 + $1.summary.skipped }, elapsedSeconds: elapsed,
            assetsPerSecond: elapsed > 0 ? (Double(processed) / elapsed * 100).rounded() / 100 : 0)
        var merged = Manifest(generator: first.generator, preset: first.preset, settings: first.settings,
                              assets: assets, summary: summary)
        merged.inputs = first.inputs
        // Every shard probes all inputs, so each part lists the same ignored inputs; keep each
        // once, in the order one run lists them (byte order of the path).
        var ignoredPaths: Set<String> = []
        merged.ignored = parts.flatMap(\.ignored).filter { ignoredPaths.insert($0.path).inserted }
            .sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        if parts.contains(where: { $0.complete == false }) { merged.complete = false }
        return merged
    }
}
