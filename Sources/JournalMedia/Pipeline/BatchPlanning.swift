import Foundation
import JournalMediaCore

/// A batch's work before it starts: the units (a file, or a Live Photo's still and movie),
/// each unit's earlier entry, the probes handed to the units' workers, and the inputs listed
/// rather than converted.
struct BatchPlan {
    var units: [WorkUnit]
    /// Each unit's earlier entry, reused when unchanged; the finished entries replace them.
    /// All nil under `force`.
    var entries: [ManifestEntry?]
    /// With `force`: each unit's earlier entry, put back for the units a stopped run did not
    /// reach (their files are still on disk), so the manifest keeps listing them.
    var untouched: [ManifestEntry?] = []
    /// Each probe is handed to its unit's worker and dropped here (`Batch.Work`), so it is
    /// freed once its file is processed rather than at the end of the batch.
    var probes: [ProbedAsset?]
    var ignored: [IgnoredInput]

    /// The probes, for the run loop to hand out; the plan keeps none.
    mutating func takeProbes() -> [ProbedAsset?] {
        defer { probes = [] }
        return probes
    }
}

extension Batch {
    /// Probes the scanned files (in slots of `executor`), lists the files that are plainly not
    /// media (unless `strict`), pairs Live Photos into units, keeps this shard's units (and
    /// clears its leftover temporary files), and finds each unit's earlier entry in `earlier`.
    func plan(_ scan: InputScan, earlier: [String: ManifestEntry], on executor: AssetExecutor,
              start: Date) async -> BatchPlan {
        var all = await Batch.probe(scan.planned, jobs: jobs, on: executor)
        var ignored = scan.ignored
        if !strict { Batch.listNotMedia(&all, in: &ignored) }
        var units = LivePhotoPairer.units(all)
        if let shard {
            units = units.filter { shard.contains(all[$0.primary].name) }
            // A killed earlier run of this shard (a lost node, a requeued task) may have left
            // temporary files; the ones for files only this shard writes are its own to clear.
            AtomicFile.removeLeftovers(of: shardOwnedPaths(units.map { all[$0.primary] }, shard: shard),
                                       under: output, before: start)
        }
        let found = units.map { unit in
            let probe = all[unit.primary]
            return earlier[Batch.outputKey(probe.name, escaped: probe.pathBytes != nil)]
        }
        if force {
            return BatchPlan(units: units, entries: Array(repeating: nil, count: units.count), untouched: found,
                             probes: all, ignored: ignored)
        }
        return BatchPlan(units: units, entries: found, probes: all, ignored: ignored)
    }

    /// Files that are plainly not media are listed, not failed: moved from `probes` to
    /// `ignored`, which stays sorted by path.
    static func listNotMedia(_ probes: inout [ProbedAsset], in ignored: inout [IgnoredInput]) {
        for probe in probes {
            guard let reason = probe.notMedia else { continue }
            var item = IgnoredInput(path: probe.name, reason: reason)
            item.notMedia = true
            if probe.pathBytes != nil { item.pathEncoding = FileNameEscaping.encodingName }
            ignored.append(item)
        }
        probes.removeAll { $0.notMedia != nil }
        ignored.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// Every file a shard may write for `primaries` (its units' primary files): each rendition
    /// role of the preset, the motion poster and notification roles, in every format (more than
    /// it will write, all of them names no other shard writes), and its manifest.
    func shardOwnedPaths(_ primaries: [ProbedAsset], shard: BatchShard) -> [String] {
        let roles = Set(options.renditions.map(\.role) + [Batch.motionPosterRole, AssetProcessor.notificationVideoRole,
                                                         AssetProcessor.notificationMotionRole, AssetProcessor.notificationAudioRole])
        var paths = [shard.manifestName, shard.journalName]
        for probe in primaries {
            let key = Batch.outputKey(probe.name, escaped: probe.pathBytes != nil)
            for role in roles {
                for format in RenditionFormat.allCases { paths.append(Batch.renditionPath(source: key, role: role, format: format)) }
            }
        }
        return paths
    }
}
