import Foundation
import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// Where a running batch stands; handed to the progress callback after every asset.
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    public var failed: Int
    public var skipped: Int
    public var elapsedSeconds: Double

    /// Assets per second over the assets processed (not skipped) so far.
    public var assetsPerSecond: Double {
        elapsedSeconds > 0 ? Double(done - skipped) / elapsedSeconds : 0
    }

    /// Estimated seconds left, from the rate so far; nil before there is a rate.
    public var secondsRemaining: Double? {
        let rate = assetsPerSecond
        return rate > 0 ? Double(total - done) / rate : nil
    }
}

/// Converts many assets into renditions under one output folder and writes `manifest.json`.
///
/// `run()` scans the inputs, reuses the entries of an earlier manifest whose input (size,
/// modification time, SHA-256) and preset are unchanged, processes the rest `jobs` at a
/// time with `AssetProcessor`, writes every rendition atomically, checkpoints the manifest
/// every couple of seconds so a killed run resumes where it stopped, and writes the final
/// manifest. One asset's failure is recorded in its entry and never stops the batch.
///
/// Cancelling the task running `run()` starts no further asset, stops the ones in flight
/// (as `AssetProcessor` does), writes the manifest of the assets finished so far (a re-run
/// resumes from it) and throws `BatchError.cancelled`.
public struct Batch: Sendable {
    public var inputs: [URL]
    public var output: URL
    public var options: ProcessingOptions
    /// Images processed at once; each uses one libvips thread. Defaults to the core count.
    public var jobs: Int
    /// Redo every asset even when its earlier entry could be reused.
    public var force: Bool
    /// Called on the batch's task after each asset.
    public var onProgress: (@Sendable (BatchProgress) -> Void)?
    /// Called once for each asset that failed.
    public var onFailure: (@Sendable (AssetError) -> Void)?
    /// Only this part of the work units (`convert --shard I/N`); the manifest is then
    /// `shard.manifestName`, and stray temporary files are left for an unsharded run to
    /// remove (another shard may be writing beside this one).
    public var shard: BatchShard?
    /// Called on the batch's task after each asset that was processed (not reused), with its
    /// manifest `source` and the seconds it spent in each stage.
    public var onTimings: (@Sendable (String, StageTimings) -> Void)?

    public static let manifestName = "manifest.json"

    public init(inputs: [URL], output: URL, options: ProcessingOptions = ProcessingOptions(),
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false) {
        self.inputs = inputs
        self.output = output
        self.options = options
        self.jobs = max(1, jobs)
        self.force = force
    }

    /// Role of a Live Photo's movie poster rendition.
    public static let motionPosterRole = AssetProcessor.motionPosterRole

    /// Output path of a rendition, relative to the output folder: `<source>.<role>.<ext>`.
    public static func renditionPath(source: String, role: String, format: RenditionFormat) -> String {
        "\(source).\(role).\(format.fileExtension)"
    }

    /// Runs the batch and returns the manifest it wrote. Throws only `BatchError`s (nothing
    /// to do with a single asset).
    public func run() async throws(BatchError) -> Manifest {
        let start = Date()
        // Roles become file names: a role like `../../x` must never reach the file system.
        if let problem = RenditionSpec.problem(in: options.renditions) { throw BatchError.invalidPreset(problem) }
        let planned = try InputScanner.scan(inputs: inputs, output: output)
        try prepareOutputFolder()
        if shard == nil { AtomicFile.removeLeftovers(in: output) }
        let manifestURL = output.appendingPathComponent(shard?.manifestName ?? Batch.manifestName)

        var previous: [String: ManifestEntry] = [:]
        if !force, let data = try? Data(contentsOf: manifestURL),
           let manifest = try? Manifest.decode(data),
           manifest.schemaVersion == Manifest.currentSchemaVersion,
           manifest.preset == options.renditions {
            for entry in manifest.assets { previous[entry.source] = entry }
        }

        let probes = await Batch.probe(planned, jobs: jobs)
        var units = LivePhotoPairer.units(probes)
        if let shard { units = units.filter { shard.contains(probes[$0.primary].name) } }
        var entries: [ManifestEntry?] = units.map { previous[probes[$0.primary].name] }
        var progress = BatchProgress(done: 0, total: units.count, failed: 0, skipped: 0, elapsedSeconds: 0)
        var lastCheckpoint = Date()
        let processor = AssetProcessor(options: options)
        let output = self.output

        // Cancelling the batch's task trips one guard shared by every unit: no unit starts
        // after it, and the units in flight stop at their next check.
        let stop = DecodeGuard()
        await withTaskCancellationHandler {
          await withTaskGroup(of: (Int, UnitOutcome).self) { group in
            var next = 0
            func launch() {
                guard next < units.count, !stop.isCancelled else { return }
                let index = next, unit = units[index], earlier = entries[index]
                next += 1
                let work = Batch.Work(unit: unit, probes: probes)
                group.addTask {
                    let outcome = await BlockingWork.run {
                        stop.install { Batch.convert(work, earlier: earlier, processor: processor, output: output) }
                    }
                    return (index, outcome)
                }
            }
            for _ in 0..<jobs { launch() }
            while let (index, outcome) = await group.next() {
                let entry = outcome.entry
                if entry.error?.reason == .cancelled {
                    // Not the file's fault: keep what the earlier manifest said, if anything.
                    entries[index] = previous[probes[units[index].primary].name]
                    continue
                }
                entries[index] = entry
                progress.done += 1
                if outcome.skipped {
                    progress.skipped += 1
                } else {
                    onTimings?(entry.source, outcome.timings)
                }
                if let error = entry.error {
                    progress.failed += 1
                    onFailure?(AssetError(file: entry.source, stage: error.stage, reason: error.reason,
                                          message: error.message))
                }
                progress.elapsedSeconds = Date().timeIntervalSince(start)
                onProgress?(progress)
                if Date().timeIntervalSince(lastCheckpoint) >= Defaults.manifestCheckpointInterval {
                    lastCheckpoint = Date()
                    let partial = makeManifest(entries.compactMap { $0 }, progress: progress)
                    try? AtomicFile.write(partial.encoded(), to: manifestURL)
                }
                launch()
            }
          }
        } onCancel: {
            stop.cancel()
        }

        progress.elapsedSeconds = Date().timeIntervalSince(start)
        let manifest = makeManifest(entries.compactMap { $0 }, progress: progress)
        do {
            try AtomicFile.write(try manifest.encoded(), to: manifestURL)
        } catch {
            throw BatchError.cannotWriteManifest(manifestURL.path, reason: "\(error)")
        }
        if stop.isCancelled { throw BatchError.cancelled(done: progress.done, total: units.count) }
        return manifest
    }

    /// Probes every planned file once, `jobs` at a time: one open, one sniff, one metadata
    /// walk each. The probes keep their descriptors for processing, up to a budget below the
    /// process's descriptor limit; beyond it a probe is closed after its metadata walk and
    /// reopened by path when processed (with a check that it did not change).
    static func probe(_ planned: [PlannedAsset], jobs: Int) async -> [ProbedAsset] {
        let budget = DescriptorBudget.available()
        let workers = max(1, min(jobs, planned.count))
        let slots = ProbeSlots(count: planned.count)
        await BlockingWork.run {
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for index in stride(from: worker, to: planned.count, by: workers) {
                    let probe = ProbedAsset.open(planned[index].url, name: planned[index].relativePath,
                                                 keepMediaOpen: false)
                    probe.releaseBuffers()
                    if index >= budget { probe.detach() }
                    slots.store(probe, at: index)
                }
            }
        }
        return slots.all()
    }

    private func prepareOutputFolder() throws(BatchError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BatchError.outputNotADirectory(output.path) }
            return
        }
        do {
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        } catch {
            throw BatchError.cannotCreateOutput(output.path, reason: error.localizedDescription)
        }
    }

    private func makeManifest(_ entries: [ManifestEntry], progress: BatchProgress) -> Manifest {
        let failed = entries.filter { $0.error != nil }.count
        let processed = progress.done - progress.skipped
        let summary = ManifestSummary(
            assets: entries.count, succeeded: entries.count - failed, failed: failed,
            processed: processed, skipped: progress.skipped,
            elapsedSeconds: (progress.elapsedSeconds * 1000).rounded() / 1000,
            assetsPerSecond: progress.elapsedSeconds > 0
                ? (Double(processed) / progress.elapsedSeconds * 100).rounded() / 100 : 0)
        return Manifest(generator: Version.generator, preset: options.renditions, assets: entries, summary: summary)
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

        init(unit: WorkUnit, probes: [ProbedAsset]) {
            self.unit = unit
            primary = probes[unit.primary]
            if case .livePhoto(_, let motion, _) = unit { self.motion = probes[motion] } else { motion = nil }
        }
    }

    /// One unit: load and digest through the probe's descriptor, reuse the earlier entry when
    /// nothing changed, otherwise process (a Live Photo's still and movie together) and write
    /// the renditions.
    static func convert(_ work: Work, earlier: ManifestEntry?, processor: AssetProcessor, output: URL) -> UnitOutcome {
        var clock = StageClock()
        let probe = work.primary
        let content: SourceFile
        do throws(AssetError) { content = try probe.load(maxBytes: processor.options.maxBytes) } catch {
            var entry = AssetResult(probe: probe)
            entry.error = error
            return UnitOutcome(entry: entry)
        }
        let motionContent = work.motion.map { motion in
            Result { () throws(AssetError) -> SourceFile in try motion.load() }
        }
        if let earlier, earlier.error == nil, earlier.sha256 == content.sha256, earlier.bytes == content.size,
           earlier.modified == content.modified, renditionsPresent(earlier, in: output),
           livePhotoUnchanged(earlier.livePhoto, motion: work.motion, content: motionContent) {
            return UnitOutcome(entry: earlier, skipped: true)
        }
        let read = clock.lap()
        var result: AssetResult
        if case .livePhoto(_, _, let pairedBy) = work.unit, let motion = work.motion, let motionContent {
            result = processor.process(livePhoto: probe, stillContent: content, motion: motion,
                                       motionContent: motionContent, pairedBy: pairedBy)
        } else {
            result = processor.process(probe, content: content)
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
    /// not a Live Photo and the unit has no movie).
    private static func livePhotoUnchanged(_ record: LivePhotoRecord?, motion: ProbedAsset?,
                                           content: Result<SourceFile, AssetError>?) -> Bool {
        guard let motion else { return record == nil }
        guard let record, record.motionError == nil, record.motionSource == motion.name,
              case .success(let loaded)? = content else { return false }
        return record.motionSha256 == loaded.sha256 && record.motionBytes == loaded.size
            && record.motionModified == loaded.modified
    }

    /// Writes each rendition atomically under `<source>.<role>.<ext>` and records its path,
    /// dropping the bytes from memory; on a write failure the entry gets a `write` error and
    /// no renditions.
    private static func write(_ entry: inout ManifestEntry, output: URL) {
        for index in entry.renditions.indices {
            let rendition = entry.renditions[index]
            let path = renditionPath(source: entry.source, role: rendition.role, format: rendition.format)
            do {
                try AtomicFile.write(rendition.data, to: output.appendingPathComponent(path))
            } catch {
                entry.renditions = []
                entry.error = AssetError(file: entry.source, stage: .write, reason: .writeFailed, message: "\(error)")
                return
            }
            entry.renditions[index].path = path
            entry.renditions[index].data = []
        }
    }

    /// A rendition whose format changed (e.g. the source gained transparency) leaves its
    /// old file behind: remove it so the folder matches the manifest.
    private static func removeStale(_ earlier: ManifestEntry?, current entry: ManifestEntry, output: URL) {
        guard entry.error == nil else { return }
        let current = Set(entry.renditions.compactMap(\.path))
        for old in earlier?.renditions ?? [] {
            guard let path = old.path, !current.contains(path) else { continue }
            unlink(output.appendingPathComponent(path).path)
        }
    }

    private static func renditionsPresent(_ entry: ManifestEntry, in output: URL) -> Bool {
        entry.renditions.allSatisfy { record in
            var info = stat()
            guard let path = record.path else { return false }
            return stat(output.appendingPathComponent(path).path, &info) == 0 && Int(info.st_size) == record.bytes
        }
    }
}
