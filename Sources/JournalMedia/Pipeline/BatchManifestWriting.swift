import Foundation
import JournalMediaCore

/// A batch's end: the manifest written once, and the stale renditions pruned.
extension Batch {
    /// Writes the manifest of the finished units, streamed entry by entry from the run loop's
    /// own list (no second copy of the entries), and returns its outline (`assets` empty).
    /// Stopped before every unit finished: the units not reached keep their earlier entries
    /// (under `force` too), and the manifest says it is partial.
    func writeManifest(_ loop: inout BatchRunLoop, roots: [String], to manifestURL: URL) throws(BatchError) -> Manifest {
        let complete = loop.progress.done == loop.plan.units.count
        if !complete {
            for index in loop.plan.untouched.indices where loop.plan.entries[index] == nil {
                loop.plan.entries[index] = loop.plan.untouched[index]
            }
        }
        loop.plan.untouched = []
        var outline = makeManifest(loop.plan.entries, ignored: loop.plan.ignored, progress: loop.progress)
        outline.inputs = roots
        if !complete { outline.complete = false }
        let entries = loop.plan.entries
        do {
            // Compaction: the whole manifest once; then the journal goes (the caller removes it).
            try AtomicFile.write(to: manifestURL.lastPathComponent, under: output) { sink in
                try Manifest.encode(outline: outline, assets: entries.lazy.compactMap { $0 }) { piece in
                    try sink.write(piece)
                }
            }
        } catch {
            throw BatchError.cannotWriteManifest(manifestURL.path, reason: "\(error)")
        }
        return outline
    }

    /// The manifest's summary and lists, with `assets` left empty (the entries are streamed
    /// into the file, and returned only when `returnsEntries`).
    func makeManifest(_ entries: [ManifestEntry?], ignored: [IgnoredInput], progress: BatchProgress) -> Manifest {
        var count = 0, failed = 0
        for entry in entries {
            guard let entry else { continue }
            count += 1
            if entry.error != nil { failed += 1 }
        }
        let processed = progress.done - progress.skipped
        let summary = ManifestSummary(
            assets: count, succeeded: count - failed, failed: failed,
            processed: processed, skipped: progress.skipped,
            elapsedSeconds: (progress.elapsedSeconds * 1000).rounded() / 1000,
            assetsPerSecond: progress.elapsedSeconds > 0
                ? (Double(processed) / progress.elapsedSeconds * 100).rounded() / 100 : 0)
        return Manifest(generator: Version.generator, preset: options.renditions, settings: options.outputSettings, assets: [],
                        ignored: ignored, summary: summary)
    }

    /// Removes the renditions the earlier run listed that no entry of this one keeps; only
    /// what a run over the same inputs listed: another input set's outputs stay unless asked
    /// (`pruneOtherInputs`), and `onPruneSkipped` says how many were kept.
    func pruneStale(_ earlier: BatchEarlierRun, kept entries: [ManifestEntry?], roots: [String]) {
        var kept = Set<String>()
        for entry in entries { if let entry { kept.formUnion(entry.renditions.compactMap(\.path)) } }
        let stale = earlier.renditions.subtracting(kept).sorted()
        let sameInputs = earlier.inputs.map { Set($0) == Set(roots) } ?? false
        if sameInputs || pruneOtherInputs {
            for path in stale where AtomicFile.removeStale(path, under: output) { onPrune?(path) }
        } else if !stale.isEmpty {
            onPruneSkipped?(stale.count, earlier.inputs ?? [])
        }
    }
}
