import Foundation
import Synchronization
import JournalMediaCore

/// Where a running batch stands; handed to the progress callback after every asset.
public struct BatchProgress: Sendable {
    public var done: Int
    public var total: Int
    /// Assets that failed in this run (not counting `failedEarlier`).
    public var failed: Int
    /// Assets whose earlier entry was reused (unchanged input, preset and settings), the
    /// failures kept from an earlier run (`failedEarlier`) included.
    public var skipped: Int
    public var elapsedSeconds: Double
    /// Failures kept from an earlier run: the same bytes failed the same way before and were
    /// not tried again (`Batch.retryFailed` tries them).
    public var failedEarlier = 0
    /// Input bytes of every unit of the batch, of the units finished, and of the finished
    /// units that were reused rather than processed (a Live Photo's still and movie together).
    public var bytesTotal = 0
    public var bytesDone = 0
    public var bytesSkipped = 0

    public init(done: Int, total: Int, failed: Int, skipped: Int, elapsedSeconds: Double) {
        self.done = done
        self.total = total
        self.failed = failed
        self.skipped = skipped
        self.elapsedSeconds = elapsedSeconds
    }

    /// Assets per second over the assets processed (not skipped) so far.
    public var assetsPerSecond: Double {
        elapsedSeconds > 0 ? Double(done - skipped) / elapsedSeconds : 0
    }

    /// Estimated seconds left; nil until it means something. Units start largest first, so
    /// a rate in assets per second over the first (largest) assets promised minutes for a
    /// 19 s run: the estimate is in bytes, from the input bytes processed so far over the
    /// bytes left, and only once at least 10 % of the bytes to process are done (and three
    /// assets processed, one second elapsed, so a first instant failure or a run of reused
    /// entries does not promise a finish in two seconds). Without sizes (all unknown) it falls
    /// back to assets per second.
    public var secondsRemaining: Double? {
        guard done - skipped >= 3, elapsedSeconds >= 1 else { return nil }
        let processedBytes = bytesDone - bytesSkipped
        let toProcess = bytesTotal - bytesSkipped
        if bytesTotal > 0 {
            guard processedBytes > 0, processedBytes * 10 >= toProcess else { return nil }
            return Double(bytesTotal - bytesDone) / (Double(processedBytes) / elapsedSeconds)
        }
        let rate = assetsPerSecond
        return rate > 0 ? Double(total - done) / rate : nil
    }
}

/// Asks a running `Batch` to stop starting assets (Ctrl-C in the CLI): the assets in flight
/// finish, the manifest is written with every finished entry (and the earlier entries of the
/// assets not reached, so nothing is lost), and stale renditions are not pruned. Safe to call
/// from any thread, e.g. a signal handler's queue; costs one atomic store.
public final class BatchStopRequest: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func request() { flag.store(true, ordering: .releasing) }

    public var isRequested: Bool { flag.load(ordering: .acquiring) }
}

/// Converts many assets into renditions under one output folder and writes `manifest.json`.
///
/// `run()` scans the inputs, reuses the entries of an earlier manifest whose input (size,
/// modification time, SHA-256), preset and `OutputSettings` are unchanged, processes the rest `jobs` at a
/// time with `AssetProcessor`, writes every rendition atomically, appends each finished
/// entry to a journal beside the manifest (`ManifestJournal`) so a killed run resumes where
/// it stopped, and writes the final manifest once at the end. One asset's failure is recorded in its entry and never stops the batch.
///
/// `stopRequest` stops it gracefully (no further asset starts, those in flight finish).
/// Cancelling the task running `run()` also starts no further asset but stops the ones in
/// flight (as `AssetProcessor` does), writes the manifest of the assets finished so far (a
/// re-run resumes from it) and throws `BatchError.cancelled`.
public struct Batch: Sendable {
    public var inputs: [URL]
    public var output: URL
    public var options: ProcessingOptions
    /// How the batch runs: jobs, re-use, pruning, links, the lock, sharding, stopping.
    public var configuration: BatchConfiguration
    /// What the batch tells its caller while it runs.
    public var events: BatchEvents

    public static let manifestName = "manifest.json"

    /// A batch over `inputs` into `output`, set up in one value (`BatchConfiguration`) and
    /// observed through `events`.
    public init(inputs: [URL], output: URL, options: ProcessingOptions = ProcessingOptions(),
                configuration: BatchConfiguration, events: BatchEvents = BatchEvents()) {
        self.inputs = inputs
        self.output = output
        self.options = options
        self.configuration = configuration
        self.events = events
    }

    /// A batch with the default configuration but for `jobs` and `force`.
    public init(inputs: [URL], output: URL, options: ProcessingOptions = ProcessingOptions(),
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false) {
        self.init(inputs: inputs, output: output, options: options,
                  configuration: BatchConfiguration(jobs: jobs, force: force))
    }

    /// Role of a Live Photo's movie poster rendition.
    public static let motionPosterRole = AssetProcessor.motionPosterRole

    /// Output path of an entry's rendition: `renditionPath` of its source as output names
    /// spell it (`FileNameEscaping.outputName`: a `%` in a valid name becomes `%25`), so two
    /// inputs never share an output file, whatever their names.
    static func renditionPath(of entry: ManifestEntry, role: String, format: RenditionFormat) -> String {
        renditionPath(source: outputKey(entry.source, escaped: entry.sourceEncoding != nil), role: role, format: format)
    }

    /// An input's name as output names spell it: one-to-one over names (see `renditionPath(of:…)`),
    /// so also the key earlier entries are found by.
    static func outputKey(_ source: String, escaped: Bool) -> String {
        FileNameEscaping.outputName(source, escaped: escaped)
    }

    /// Output path of a rendition, relative to the output folder: `<source>.<role>.<ext>`.
    /// When that file name would pass NAME_MAX (255 bytes), the source's name is cut at a
    /// character boundary and `~` plus 16 hex digits of its SHA-256 are added, so long names
    /// still convert and two long names never share an output.
    public static func renditionPath(source: String, role: String, format: RenditionFormat) -> String {
        let suffix = ".\(role).\(format.fileExtension)"
        let slash = source.lastIndex(of: "/")
        let folder = slash.map { String(source[...$0]) } ?? ""
        let name = slash.map { String(source[source.index(after: $0)...]) } ?? source
        guard name.utf8.count + suffix.utf8.count > AtomicFile.nameMax else { return source + suffix }
        let tag = "~" + ContentDigest.sha256(Array(name.utf8)).prefix(16)
        let budget = AtomicFile.nameMax - suffix.utf8.count - tag.utf8.count
        var kept = ""
        for character in name {
            guard kept.utf8.count + String(character).utf8.count <= budget else { break }
            kept.append(character)
        }
        return folder + kept + tag + suffix
    }

    /// Runs the batch and returns the manifest it wrote. Throws only `BatchError`s (nothing
    /// to do with a single asset).
    public func run() async throws(BatchError) -> Manifest {
        let start = Date()
        let executor = configuration.executor ?? AssetExecutor(maxConcurrentAssets: jobs, label: "batch")
        // Roles become file names: a role like `../../x` must never reach the file system.
        if let problem = RenditionSpec.problem(in: options.renditions) { throw BatchError.invalidPreset(problem) }
        let scan = try InputScanner.scanReporting(inputs: inputs.map { ($0, inputPathBytes[$0]) }, output: output,
                                                 followSymlinks: followSymlinks)
        let planned = scan.planned
        try prepareOutputFolder()
        // One writer per output folder (per shard), held until the manifest is written;
        // checked writable before any input is probed or decoded.
        let lock = try await OutputFolderLock.acquire(in: output, name: shard?.lockName ?? OutputFolderLock.fileName,
                                                      wait: waitForLock, onWait: onLockWait)
        defer { withExtendedLifetime(lock) {} }
        try OutputFolderCheck.verifyWritable(output)
        // An unsharded run sweeps every leftover temporary file; a shard cannot tell another
        // shard's file in progress from a leftover, so it clears only its own (below).
        if shard == nil { AtomicFile.removeLeftovers(in: output) }
        let manifestURL = output.appendingPathComponent(shard?.manifestName ?? Batch.manifestName)
        let journalName = shard?.journalName ?? ManifestJournal.fileName

        // Earlier entries made with this preset and settings, by output name: reused unless
        // `force`, and kept for the assets a stopped run did not reach either way.
        var previous: [String: ManifestEntry] = [:]
        // Every rendition an earlier run wrote and listed, whatever its preset: what `prune` may remove.
        var earlierRenditions = Set<String>()
        // The inputs the earlier manifest was written for (nil: no manifest, or it does not say).
        var earlierInputs: [String]?
        if let data = try? Data(contentsOf: manifestURL), let manifest = try? Manifest.decode(data),
           manifest.schemaVersion == Manifest.currentSchemaVersion {
            earlierInputs = manifest.inputs
            for entry in manifest.assets { earlierRenditions.formUnion(entry.renditions.compactMap(\.path)) }
            if manifest.preset == options.renditions, manifest.effectiveSettings == options.outputSettings {
                for entry in manifest.assets { previous[Batch.outputKey(entry.source, escaped: entry.sourceEncoding != nil)] = entry }
            }
        }
        // Entries an interrupted run finished after its last manifest: later lines win.
        let replayed = force ? nil : ManifestJournal.replay(in: output, name: journalName, preset: options.renditions,
                                                                settings: options.outputSettings)
        for entry in replayed ?? [] { previous[Batch.outputKey(entry.source, escaped: entry.sourceEncoding != nil)] = entry }
        for entry in replayed ?? [] { earlierRenditions.formUnion(entry.renditions.compactMap(\.path)) }
        let journal: ManifestJournal
        do {
            journal = try ManifestJournal.open(in: output, name: journalName, preset: options.renditions,
                                               settings: options.outputSettings,
                                               continuing: replayed != nil)
        } catch {
            throw BatchError.cannotWriteManifest(output.appendingPathComponent(journalName).path,
                                                 reason: "\(error)")
        }

        let units: [WorkUnit]
        var entries: [ManifestEntry?]
        // With `force`: each unit's earlier entry, put back for the units a stopped run did not
        // reach (their files are still on disk), so the manifest keeps listing them.
        var untouched: [ManifestEntry?] = []
        // Each probe is handed to its unit's worker and dropped here, so it is freed once its
        // file is processed rather than at the end of the batch.
        var probes: [ProbedAsset?]
        var ignored = scan.ignored
        do {
            var all = await Batch.probe(planned, jobs: jobs, on: executor)
            if !strict {
                // Files that are plainly not media are listed, not failed.
                for probe in all {
                    guard let reason = probe.notMedia else { continue }
                    var item = IgnoredInput(path: probe.name, reason: reason)
                    item.notMedia = true
                    if probe.pathBytes != nil { item.pathEncoding = FileNameEscaping.encodingName }
                    ignored.append(item)
                }
                all.removeAll { $0.notMedia != nil }
                ignored.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
            }
            var mine = LivePhotoPairer.units(all)
            if let shard {
                mine = mine.filter { shard.contains(all[$0.primary].name) }
                // A killed earlier run of this shard (a lost node, a requeued task) may have left
                // temporary files; the ones for files only this shard writes are its own to clear.
                AtomicFile.removeLeftovers(of: shardOwnedPaths(mine.map { all[$0.primary] }, shard: shard),
                                           under: output, before: start)
            }
            units = mine
            let earlier = units.map { unit in
                let probe = all[unit.primary]
                return previous[Batch.outputKey(probe.name, escaped: probe.pathBytes != nil)]
            }
            if force {
                untouched = earlier
                entries = Array(repeating: nil, count: units.count)
            } else {
                entries = earlier
            }
            probes = all
        }
        previous = [:]
        var progress = BatchProgress(done: 0, total: units.count, failed: 0, skipped: 0, elapsedSeconds: 0)
        let processor = AssetProcessor(options: options, executor: executor)
        let output = self.output
        let costs = Batch.costs(units, probes: probes)
        let order = Batch.launchOrder(costs: costs)
        progress.bytesTotal = costs.reduce(0, +)
        let reuse = EarlierEntryReuse(verify: verify, retryFailed: retryFailed)

        // Cancelling the batch's task trips one guard, the parent of every unit's own: no unit
        // starts after it, and the units in flight stop at their next check.
        let stop = DecodeGuard()
        await withTaskCancellationHandler {
          await withTaskGroup(of: (Int, UnitOutcome).self) { group in
            var next = 0
            let stopRequest = self.stopRequest
            func launch() {
                guard next < units.count, stopRequest?.isRequested != true, !stop.isCancelled else { return }
                let index = order[next], unit = units[index], earlier = entries[index]
                next += 1
                guard let work = Batch.Work(unit: unit, taking: &probes) else { return launch() }
                group.addTask {
                    (index, await Batch.schedule(work, earlier: earlier, reuse: reuse, processor: processor,
                                                 output: output, on: executor, under: stop))
                }
            }
            for _ in 0..<jobs { launch() }
            while let (index, outcome) = await group.next() {
                let entry = outcome.entry
                if entry.error?.reason == .cancelled, stop.isCancelled || Task.isCancelled {
                    // The batch was cancelled, not the file's fault: its slot keeps what the
                    // earlier manifest said, if anything.
                    continue
                }
                entries[index] = entry
                progress.done += 1
                progress.bytesDone += costs[index]
                if outcome.skipped {
                    progress.skipped += 1
                    progress.bytesSkipped += costs[index]
                } else {
                    journal.append(entry)
                    onTimings?(entry.source, outcome.timings)
                }
                if let error = entry.error {
                    let named = AssetError(file: entry.source, stage: error.stage, reason: error.reason,
                                           message: error.message)
                    if outcome.skipped {
                        progress.failedEarlier += 1
                        onEarlierFailure?(named)
                    } else {
                        progress.failed += 1
                        onFailure?(named)
                    }
                }
                progress.elapsedSeconds = Date().timeIntervalSince(start)
                onProgress?(progress)
                launch()
            }
          }
        } onCancel: {
            stop.cancel()
        }

        progress.elapsedSeconds = Date().timeIntervalSince(start)
        // Stopped before every unit finished: the units not reached keep their earlier entries
        // (under `force` too), and the manifest says it is partial.
        let complete = progress.done == units.count
        if !complete {
            for index in untouched.indices where entries[index] == nil { entries[index] = untouched[index] }
        }
        untouched = []
        var outline = makeManifest(entries, ignored: ignored, progress: progress)
        outline.inputs = scan.roots
        if !complete { outline.complete = false }
        do {
            // Compaction: the whole manifest once, streamed entry by entry from the batch's
            // own list (no second copy of the entries); then the journal goes.
            try AtomicFile.write(to: manifestURL.lastPathComponent, under: output) { sink in
                try Manifest.encode(outline: outline, assets: entries.lazy.compactMap { $0 }) { piece in
                    try sink.write(piece)
                }
            }
        } catch {
            throw BatchError.cannotWriteManifest(manifestURL.path, reason: "\(error)")
        }
        journal.remove()
        if stop.isCancelled { throw BatchError.cancelled(done: progress.done, total: units.count) }
        if prune, stopRequest?.isRequested != true {
            var kept = Set<String>()
            for entry in entries { if let entry { kept.formUnion(entry.renditions.compactMap(\.path)) } }
            let stale = earlierRenditions.subtracting(kept).sorted()
            // Only what a run over the same inputs listed: another input set's outputs stay
            // unless asked (`pruneOtherInputs`).
            let sameInputs = earlierInputs.map { Set($0) == Set(scan.roots) } ?? false
            if sameInputs || pruneOtherInputs {
                for path in stale where AtomicFile.removeStale(path, under: output) { onPrune?(path) }
            } else if !stale.isEmpty {
                onPruneSkipped?(stale.count, earlierInputs ?? [])
            }
        }
        guard returnsEntries else { return outline }
        var manifest = outline
        manifest.assets = entries.compactMap { $0 }
        return manifest
    }

    /// The order units start in: largest input first (the unit's files' sizes, unknown as 0),
    /// ties in input order. The last unit to start then is a small one, so the workers finish
    /// together instead of one core idling while another converts a big file started last
    /// (on 37 small JPEGs at `--jobs 2`, alphabetical order left up to one whole asset,
    /// ~35 ms, on one core at the end). Entries keep their input order in the manifest.
    /// Costs one sort of the units.
    static func launchOrder(costs: [Int]) -> [Int] {
        costs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
    }

    /// Each unit's input bytes (its files' sizes, unknown as 0): the launch order's key and
    /// the progress's byte counts.
    static func costs(_ units: [WorkUnit], probes: [ProbedAsset?]) -> [Int] {
        func size(_ index: Int) -> Int { probes[index]?.size ?? 0 }
        return units.map { unit -> Int in
            switch unit {
            case .single(let index): size(index)
            case .livePhoto(let still, let motion, _): size(still) + size(motion)
            }
        }
    }

    /// Probes every planned file once, `jobs` at a time, in slots of `executor`: one open, one
    /// sniff, one metadata walk each. The probes keep their descriptors for processing, up to a
    /// budget below the process's descriptor limit; beyond it a probe is closed after its
    /// metadata walk and reopened by path when processed (with a check that it did not change).
    /// A worker the executor refuses (the task was cancelled, a shared executor's queue is
    /// full) probes its share on a thread of its own instead: every file gets its probe.
    static func probe(_ planned: [PlannedAsset], jobs: Int, on given: AssetExecutor? = nil) async -> [ProbedAsset] {
        let executor = given ?? AssetExecutor(maxConcurrentAssets: jobs, label: "batch")
        let budget = DescriptorBudget.available()
        let workers = max(1, min(jobs, planned.count))
        let slots = ProbeSlots(count: planned.count)
        let sidecars = XMPSidecars.listing()
        @Sendable func probeShare(_ worker: Int) {
            for index in stride(from: worker, to: planned.count, by: workers) {
                let probe = ProbedAsset.open(planned[index].url, name: planned[index].relativePath,
                                             keepMediaOpen: false, pathBytes: planned[index].pathBytes,
                                             sidecars: sidecars, confinedTo: planned[index].confinement)
                probe.releaseBuffers()
                if index >= budget { probe.detach() }
                slots.store(probe, at: index)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    do throws(AssetExecutor.Refusal) { try await executor.run { probeShare(worker) } } catch {
                        await BlockingWork.run { probeShare(worker) }
                    }
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
        // mkdir per component, so the reason is the system's own (read-only, not a folder, …).
        var path = ""
        for component in output.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0 && errno != EEXIST {
                throw BatchError.cannotCreateOutput(output.path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Every file a shard may write for `primaries` (its units' primary files): each rendition
    /// role of the preset, the motion poster and notification roles, in every format (more than
    /// it will write, all of them names no other shard writes), and its manifest.
    private func shardOwnedPaths(_ primaries: [ProbedAsset], shard: BatchShard) -> [String] {
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

    /// The manifest's summary and lists, with `assets` left empty (the entries are streamed
    /// into the file, and returned only when `returnsEntries`).
    private func makeManifest(_ entries: [ManifestEntry?], ignored: [IgnoredInput], progress: BatchProgress) -> Manifest {
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
        entry.error = refusal == .queueFull
            ? AssetError(file: work.primary.name, stage: .read, reason: .busy, message: "too many assets waiting; try again later")
            : stop.error(file: work.primary.name, stage: .read, reason: .cancelled)
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
                                       motionContent: motionContent, pairedBy: pairedBy, stop: stop,
                                       spareCores: processor.executor.spareCores)
        } else {
            result = processor.process(probe, content: content, stop: stop, spareCores: processor.executor.spareCores)
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
    private static func livePhotoUnchanged(_ record: LivePhotoRecord?, motion: ProbedAsset?,
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
    private static func write(_ entry: inout ManifestEntry, output: URL) {
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
    private static func removeStale(_ earlier: ManifestEntry?, current entry: ManifestEntry, output: URL) {
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
    private static func renditionsPresent(_ entry: ManifestEntry, in output: URL) -> Bool {
        entry.renditions.allSatisfy { record in
            guard let path = record.path,
                  path == renditionPath(of: entry, role: record.role, format: record.format) else { return false }
            return AtomicFile.size(of: path, under: output) == record.bytes
        }
    }
}
