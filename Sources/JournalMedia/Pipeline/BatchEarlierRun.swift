import Foundation
import JournalMediaCore

/// What an earlier run left in a batch's output folder: its manifest's entries made with this
/// preset and settings (reused unless `force`, and kept for the assets a stopped run does not
/// reach either way), every rendition it listed (what `prune` may remove), the inputs it was
/// run over, and the entries an interrupted run journalled after its last manifest (later lines
/// win). Read once when the batch starts: one manifest decode and one journal replay.
struct BatchEarlierRun {
    /// Earlier entries made with this preset and settings, by output name (`Batch.outputKey`).
    var entries: [String: ManifestEntry] = [:]
    /// Every rendition an earlier run wrote and listed, whatever its preset.
    var renditions = Set<String>()
    /// The inputs the earlier manifest was written for (nil: no manifest, or it does not say).
    var inputs: [String]?
    /// Whether the journal of an interrupted run was replayed (the new journal continues it).
    var replayedJournal = false

    /// Reads the manifest at `manifestURL` and, unless `force`, replays the journal `journalName`
    /// in `output`.
    static func read(manifestAt manifestURL: URL, journal journalName: String, in output: URL,
                     options: ProcessingOptions, force: Bool) -> BatchEarlierRun {
        var earlier = BatchEarlierRun()
        if let data = try? Data(contentsOf: manifestURL), let manifest = try? Manifest.decode(data),
           manifest.schemaVersion == Manifest.currentSchemaVersion {
            earlier.inputs = manifest.inputs
            for entry in manifest.assets { earlier.renditions.formUnion(entry.renditions.compactMap(\.path)) }
            if manifest.preset == options.renditions, manifest.effectiveSettings == options.outputSettings {
                for entry in manifest.assets { earlier.entries[Batch.outputKey(entry.source, escaped: entry.sourceEncoding != nil)] = entry }
            }
        }
        // Entries an interrupted run finished after its last manifest: later lines win.
        let replayed = force ? nil : ManifestJournal.replay(in: output, name: journalName, preset: options.renditions,
                                                                settings: options.outputSettings)
        for entry in replayed ?? [] { earlier.entries[Batch.outputKey(entry.source, escaped: entry.sourceEncoding != nil)] = entry }
        for entry in replayed ?? [] { earlier.renditions.formUnion(entry.renditions.compactMap(\.path)) }
        earlier.replayedJournal = replayed != nil
        return earlier
    }

    /// Opens this run's journal, continuing the replayed one.
    func openJournal(_ journalName: String, in output: URL, options: ProcessingOptions) throws(BatchError) -> ManifestJournal {
        do {
            return try ManifestJournal.open(in: output, name: journalName, preset: options.renditions,
                                            settings: options.outputSettings, continuing: replayedJournal)
        } catch {
            throw BatchError.cannotWriteManifest(output.appendingPathComponent(journalName).path, reason: "\(error)")
        }
    }
}
