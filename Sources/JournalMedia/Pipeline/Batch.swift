import Foundation
import JournalMediaCore

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
        try prepareOutputFolder()
        // One writer per output folder (per shard), held until the manifest is written;
        // checked writable before any input is probed or decoded.
        let lock = try await OutputFolderLock.acquire(in: output, name: shard?.lockName ?? OutputFolderLock.fileName,
                                                      wait: waitForLock, onWait: onLockWait)
        defer { withExtendedLifetime(lock) {} }
        try OutputFolderCheck.verifyWritable(output)
        // An unsharded run sweeps every leftover temporary file; a shard cannot tell another
        // shard's file in progress from a leftover, so it clears only its own (`plan`).
        if shard == nil { AtomicFile.removeLeftovers(in: output) }
        let manifestURL = output.appendingPathComponent(shard?.manifestName ?? Batch.manifestName)
        let journalName = shard?.journalName ?? ManifestJournal.fileName
        var earlier = BatchEarlierRun.read(manifestAt: manifestURL, journal: journalName, in: output, options: options,
                                           force: force)
        let journal = try earlier.openJournal(journalName, in: output, options: options)
        var loop = BatchRunLoop(await plan(scan, earlier: earlier.entries, on: executor, start: start))
        earlier.entries = [:]
        // Cancelling the batch's task trips one guard, the parent of every unit's own: no unit
        // starts after it, and the units in flight stop at their next check.
        let stop = DecodeGuard()
        await runUnits(&loop, on: executor, journal: journal, start: start, stop: stop)
        loop.progress.elapsedSeconds = Date().timeIntervalSince(start)
        let outline = try writeManifest(&loop, roots: scan.roots, to: manifestURL)
        journal.remove()
        if stop.isCancelled { throw BatchError.cancelled(done: loop.progress.done, total: loop.plan.units.count) }
        if prune, stopRequest?.isRequested != true { pruneStale(earlier, kept: loop.plan.entries, roots: scan.roots) }
        guard returnsEntries else { return outline }
        var manifest = outline
        manifest.assets = loop.plan.entries.compactMap { $0 }
        return manifest
    }

    /// The order units start in: largest input first (the unit's files' sizes, unknown as 0),
    /// ties in input order. The last unit to start then is a small one, so the workers finish
    /// together instead of one core idling while another converts a big file started last
    /// (on 37 small JPEGs at `--jobs 2`, alphabetical order left up to one whole asset on one
    /// core at the end). Entries keep their input order in the manifest.
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
}
