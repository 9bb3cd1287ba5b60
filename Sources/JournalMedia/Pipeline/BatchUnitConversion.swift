import Foundation
import JournalMediaCore

/// One work unit of a `Batch`, from its slot of the executor to its manifest entry: reuse
/// of the earlier entry, processing, writing the renditions, removing stale ones.
extension Batch {
    /// One unit in a slot of `executor`, under a guard of its own whose parent is the batch's
    /// (`AssetExecutor.run(under:)`, as the library's and the service's assets run): the
    /// executor's policies (stopping, deadlines, the whole-image gate) apply to it as to them.
    static func schedule(_ work: Work, earlier: ManifestEntry?, reuse: EarlierEntryReuse, processor: AssetProcessor,
                         output: URL, on executor: AssetExecutor, under batch: DecodeGuard) async -> UnitOutcome {
        let stop = DecodeGuard(parent: batch)
        let ran = await executor.run(under: stop) {
            convert(work, earlier: earlier, reuse: reuse, processor: processor, output: output, stop: stop)
        }
        switch ran {
        case .success(let outcome): return outcome
        case .failure(let refusal):
            return refused(work, refusal, stop: stop, includeLocation: processor.options.includeLocation)
        }
    }

    /// The outcome of a unit the executor did not run: cancelled while it waited for a slot
    /// (the batch's task was cancelled: the run loop keeps the earlier entry), or refused by a
    /// shared executor's full queue (a `busy` failure, tried again by the next run).
    static func refused(_ work: Work, _ refusal: AssetExecutor.Refusal, stop: DecodeGuard,
                        includeLocation: Bool) -> UnitOutcome {
        work.primary.closeAfterProcessing()
        work.motion?.closeAfterProcessing()
        var entry = AssetResult(probe: work.primary, includeLocation: includeLocation)
        entry.error = refusal.error(file: work.primary.name, stop: stop)
        return UnitOutcome(entry: entry)
    }

    /// What converting one work unit gave: its entry, whether the earlier entry was reused,
    /// and the seconds spent per stage.
    struct UnitOutcome: Sendable {
        var entry: ManifestEntry
        var skipped = false
        var timings = StageTimings()
    }

    /// One unit's probes, handed to the worker that converts it.
    struct Work: Sendable {
        var unit: WorkUnit
        var primary: ProbedAsset
        var motion: ProbedAsset?

        /// Takes the unit's probes out of the batch's list (nil if they were already taken).
        init?(unit: WorkUnit, taking probes: inout [ProbedAsset?]) {
            guard let primary = probes[unit.primary] else { return nil }
            self.unit = unit
            self.primary = primary
            probes[unit.primary] = nil
            if case .livePhoto(_, let motion, _) = unit {
                self.motion = probes[motion]
                probes[motion] = nil
            } else {
                motion = nil
            }
        }
    }

    /// One unit: reuse the earlier entry when the file is unchanged by `fstat` (size, time,
    /// device and inode: not read at all, `EarlierEntryReuse`); else load and digest through
    /// the probe's descriptor and reuse the earlier entry when the digest is unchanged;
    /// otherwise process (a Live Photo's still and movie together) and write the renditions.
    /// `stop`: the unit's guard, handed to the processor.
    static func convert(_ work: Work, earlier: ManifestEntry?, reuse: EarlierEntryReuse, processor: AssetProcessor,
                        output: URL, stop: DecodeGuard? = nil) -> UnitOutcome {
        defer {
            work.primary.closeAfterProcessing()
            work.motion?.closeAfterProcessing()
        }
        let probe = work.primary
        if let earlier, reuse.unchangedWithoutReading(earlier, probe: probe, motion: work.motion),
           reuse.mayKeep(earlier, renditionsPresent: { renditionsPresent(earlier, in: output) }) {
            return UnitOutcome(entry: earlier, skipped: true)
        }
        var clock = StageClock()
        let content: SourceFile
        do throws(AssetError) { content = try probe.load(maxBytes: processor.options.maxBytes) } catch {
            var entry = AssetResult(probe: probe, includeLocation: processor.options.includeLocation)
            entry.error = error
            return UnitOutcome(entry: entry)
        }
        let motionContent = work.motion.map { motion in
            Result { () throws(AssetError) -> SourceFile in try motion.load() }
        }
        if let earlier, earlier.sha256 != nil, earlier.sha256 == content.sha256, earlier.bytes == content.size,
           earlier.modified == probe.modified,
           reuse.mayKeep(earlier, renditionsPresent: { renditionsPresent(earlier, in: output) }),
           earlier.error != nil || livePhotoUnchanged(earlier.livePhoto, motion: work.motion, content: motionContent) {
            return UnitOutcome(entry: EarlierEntryReuse.refreshed(earlier, probe: probe, motion: work.motion), skipped: true)
        }
        let read = clock.lap()
        var result: AssetResult
        if case .livePhoto(_, _, let pairedBy) = work.unit, let motion = work.motion, let motionContent {
            result = processor.process(livePhoto: probe, stillContent: content, motion: motion,
                                       motionContent: motionContent, pairedBy: pairedBy, stop: stop)
        } else {
            result = processor.process(probe, content: content, stop: stop)
        }
        var timings = result.timings
        timings.read += read
        guard result.error == nil else { return UnitOutcome(entry: result, timings: timings) }
        _ = clock.lap()
        write(&result, output: output)
        removeStale(earlier, current: result, output: output)
        timings.write = clock.lap()
        return UnitOutcome(entry: result, timings: timings)
    }

    /// Whether an earlier Live Photo entry still describes the same movie (or the entry is
    /// not a Live Photo and the unit has no movie; or the movie is embedded in the still,
    /// whose unchanged digest covers it).
    static func livePhotoUnchanged(_ record: LivePhotoRecord?, motion: ProbedAsset?,
                                           content: Result<SourceFile, AssetError>?) -> Bool {
        guard let motion else { return record == nil || (record?.pairedBy == .embedded && record?.motionError == nil) }
        guard let record, record.motionError == nil, record.motionSource == motion.name,
              case .success(let loaded)? = content else { return false }
        return record.motionSha256 == loaded.sha256 && record.motionBytes == loaded.size
            && record.motionModified == motion.modified
    }

    /// Writes each rendition atomically under `<source>.<role>.<ext>` and records its path,
    /// dropping the bytes from memory; on a write failure the entry gets a `write` error and
    /// no renditions.
    static func write(_ entry: inout ManifestEntry, output: URL) {
        let source = outputKey(entry.source, escaped: entry.sourceEncoding != nil)
        do throws(RenditionWriter.Failure) {
            try RenditionWriter.write(&entry.renditions, under: output) {
                renditionPath(source: source, role: $0.role, format: $0.format)
            }
        } catch {
            entry.renditions = []
            entry.error = AssetError(file: entry.source, stage: .write, reason: .writeFailed, message: error.message)
        }
    }

    /// A rendition whose format changed (e.g. the source gained transparency) leaves its
    /// old file behind: remove it so the folder matches the manifest.
    static func removeStale(_ earlier: ManifestEntry?, current entry: ManifestEntry, output: URL) {
        guard entry.error == nil else { return }
        let current = Set(entry.renditions.compactMap(\.path))
        for old in earlier?.renditions ?? [] {
            guard let path = old.path, !current.contains(path) else { continue }
            AtomicFile.remove(path, under: output)
        }
    }

    /// Whether every rendition of an earlier entry is on disk at the size it recorded, under
    /// the name this version gives it (an entry named before `%` was escaped in output names
    /// is redone, and its old files removed).
    static func renditionsPresent(_ entry: ManifestEntry, in output: URL) -> Bool {
        entry.renditions.allSatisfy { record in
            guard let path = record.path,
                  path == renditionPath(of: entry, role: record.role, format: record.format) else { return false }
            return AtomicFile.size(of: path, under: output) == record.bytes
        }
    }
}
