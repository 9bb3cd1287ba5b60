import Foundation

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

    /// Output path of a rendition, relative to the output folder: `<source>.<role>.<ext>`.
    public static func renditionPath(source: String, role: String, format: RenditionFormat) -> String {
        "\(source).\(role).\(format.fileExtension)"
    }

    /// Runs the batch and returns the manifest it wrote. Throws only `BatchError`s (nothing
    /// to do with a single asset).
    public func run() async throws(BatchError) -> Manifest {
        let start = Date()
        let planned = try InputScanner.scan(inputs: inputs, output: output)
        try prepareOutputFolder()
        AtomicFile.removeLeftovers(in: output)
        let manifestURL = output.appendingPathComponent(Batch.manifestName)

        var previous: [String: ManifestEntry] = [:]
        if !force, let data = try? Data(contentsOf: manifestURL),
           let manifest = try? Manifest.decode(data),
           manifest.schemaVersion == Manifest.currentSchemaVersion,
           manifest.preset == options.renditions {
            for entry in manifest.assets { previous[entry.source] = entry }
        }

        let units = LivePhotoPairer.pair(planned)
        var entries: [ManifestEntry?] = units.map { previous[$0.primary.relativePath] }
        var progress = BatchProgress(done: 0, total: units.count, failed: 0, skipped: 0, elapsedSeconds: 0)
        var lastCheckpoint = Date()
        let processor = AssetProcessor(options: options)
        let output = self.output

        await withTaskGroup(of: (Int, UnitOutcome).self) { group in
            var next = 0
            func launch() {
                guard next < units.count else { return }
                let index = next, unit = units[index], earlier = entries[index]
                next += 1
                group.addTask {
                    let outcome = await BlockingWork.run {
                        switch unit {
                        case .single(let asset):
                            Batch.convert(asset, earlier: earlier, processor: processor, output: output)
                        case .livePhoto(let still, let motion, let pairedBy):
                            Batch.convertLivePhoto(still: still, motion: motion, pairedBy: pairedBy, earlier: earlier,
                                                   processor: processor, output: output)
                        }
                    }
                    return (index, outcome)
                }
            }
            for _ in 0..<jobs { launch() }
            while let (index, outcome) = await group.next() {
                let entry = outcome.entry
                entries[index] = entry
                progress.done += 1
                if outcome.skipped {
                    progress.skipped += 1
                } else {
                    onTimings?(entry.source, outcome.timings)
                }
                if let error = entry.error {
                    progress.failed += 1
                    onFailure?(AssetError(file: entry.source, stage: error.stage, message: error.message))
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

        progress.elapsedSeconds = Date().timeIntervalSince(start)
        let manifest = makeManifest(entries.compactMap { $0 }, progress: progress)
        do {
            try AtomicFile.write(try manifest.encoded(), to: manifestURL)
        } catch {
            throw BatchError.cannotWriteManifest(manifestURL.path, reason: "\(error)")
        }
        return manifest
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

    /// One asset: read and digest, reuse the earlier entry when nothing changed, otherwise
    /// process and write the renditions.
    static func convert(_ asset: PlannedAsset, earlier: ManifestEntry?, processor: AssetProcessor, output: URL)
        -> UnitOutcome
    {
        var outcome = UnitOutcome(entry: ManifestEntry(source: asset.relativePath))
        var clock = StageClock()
        let source: SourceFile
        do throws(AssetError) {
            source = try SourceFile.read(asset.url, displayName: asset.relativePath)
        } catch {
            outcome.entry.error = ErrorRecord(stage: error.stage, message: error.message)
            return outcome
        }
        if let earlier, earlier.error == nil, earlier.sha256 == source.sha256, earlier.bytes == source.size,
           earlier.modified == source.modified, renditionsPresent(earlier, in: output) {
            return UnitOutcome(entry: earlier, skipped: true)
        }
        let read = clock.lap()

        let result = processor.process(source, displayName: asset.relativePath)
        outcome.timings = result.timings
        outcome.timings.read = read
        fill(&outcome.entry, from: result)
        if let error = result.error {
            outcome.entry.error = ErrorRecord(stage: error.stage, message: error.message)
            return outcome
        }
        _ = clock.lap()
        write(result.renditions, source: asset.relativePath, into: &outcome.entry, output: output)
        removeStale(earlier, current: outcome.entry, output: output)
        outcome.timings.write = clock.lap()
        return outcome
    }

    /// A Live Photo: the still's renditions plus the movie's poster as `motionPoster` (the
    /// preset's first rendition, renamed), in one entry. A movie that cannot be read does
    /// not lose the still: its error goes to `livePhoto.motionError`.
    static func convertLivePhoto(still: PlannedAsset, motion: PlannedAsset, pairedBy: LivePhotoRecord.PairedBy,
                                 earlier: ManifestEntry?, processor: AssetProcessor, output: URL) -> UnitOutcome {
        var entry = ManifestEntry(source: still.relativePath)
        var clock = StageClock()
        let stillSource: SourceFile
        do throws(AssetError) {
            stillSource = try SourceFile.read(still.url, displayName: still.relativePath)
        } catch {
            entry.error = ErrorRecord(stage: error.stage, message: error.message)
            return UnitOutcome(entry: entry)
        }
        let motionSource = try? SourceFile.read(motion.url, displayName: motion.relativePath)
        if let earlier, earlier.error == nil, earlier.sha256 == stillSource.sha256, earlier.bytes == stillSource.size,
           earlier.modified == stillSource.modified, let record = earlier.livePhoto, record.motionError == nil,
           record.motionSource == motion.relativePath, let motionSource, record.motionSha256 == motionSource.sha256,
           record.motionBytes == motionSource.size, record.motionModified == motionSource.modified,
           renditionsPresent(earlier, in: output) {
            return UnitOutcome(entry: earlier, skipped: true)
        }
        let read = clock.lap()

        let result = processor.process(stillSource, displayName: still.relativePath)
        var timings = result.timings
        timings.read = read
        fill(&entry, from: result)
        entry.kind = .livePhoto
        var record = LivePhotoRecord(motionSource: motion.relativePath, pairedBy: pairedBy)
        if let error = result.error {
            entry.error = ErrorRecord(stage: error.stage, message: error.message)
            entry.livePhoto = record
            return UnitOutcome(entry: entry, timings: timings)
        }
        var renditions = result.renditions
        if let motionSource {
            record.motionSha256 = motionSource.sha256
            record.motionBytes = motionSource.size
            record.motionModified = motionSource.modified
            var options = processor.options
            options.analyzeColors = false
            if var poster = options.renditions.first {
                poster.role = Batch.motionPosterRole
                options.renditions = [poster]
            }
            let motionResult = AssetProcessor(options: options).process(motionSource, displayName: motion.relativePath)
            timings = timings + motionResult.timings
            record.motionMediaType = motionResult.format?.mediaType
            entry.video = motionResult.video
            if entry.captureDate == nil || entry.captureDate?.confidence == .fileModified {
                entry.captureDate = motionResult.captureDate ?? entry.captureDate
            }
            if let error = motionResult.error {
                record.motionError = ErrorRecord(stage: error.stage, message: error.message)
            } else {
                renditions += motionResult.renditions
            }
        } else {
            record.motionError = ErrorRecord(stage: .read, message: "cannot read \(motion.relativePath)")
        }
        entry.livePhoto = record
        _ = clock.lap()
        write(renditions, source: still.relativePath, into: &entry, output: output)
        removeStale(earlier, current: entry, output: output)
        timings.write = clock.lap()
        return UnitOutcome(entry: entry, timings: timings)
    }

    /// Role of a Live Photo's movie poster rendition.
    public static let motionPosterRole = "motionPoster"

    private static func fill(_ entry: inout ManifestEntry, from result: AssetResult) {
        entry.sha256 = result.sha256
        entry.bytes = result.bytes
        entry.modified = result.modified
        entry.kind = result.kind
        entry.mediaType = result.format?.mediaType
        entry.width = result.width
        entry.height = result.height
        entry.orientation = result.orientation
        entry.captureDate = result.captureDate
        entry.contentIdentifier = result.contentIdentifier
        entry.video = result.video
        entry.colors = result.colors
        entry.placeholder = result.placeholder
    }

    /// Writes each rendition atomically and lists it; on a write failure the entry gets a
    /// `write` error and no renditions.
    private static func write(_ renditions: [EncodedRendition], source: String, into entry: inout ManifestEntry,
                              output: URL) {
        for rendition in renditions {
            let path = renditionPath(source: source, role: rendition.role, format: rendition.format)
            do {
                try AtomicFile.write(rendition.data, to: output.appendingPathComponent(path))
            } catch {
                entry.renditions = []
                entry.error = ErrorRecord(stage: .write, message: "\(error)")
                return
            }
            entry.renditions.append(RenditionRecord(
                role: rendition.role, path: path, format: rendition.format,
                width: rendition.width, height: rendition.height, bytes: rendition.data.count))
        }
    }

    /// A rendition whose format changed (e.g. the source gained transparency) leaves its
    /// old file behind: remove it so the folder matches the manifest.
    private static func removeStale(_ earlier: ManifestEntry?, current entry: ManifestEntry, output: URL) {
        guard entry.error == nil else { return }
        let current = Set(entry.renditions.map(\.path))
        for old in earlier?.renditions ?? [] where !current.contains(old.path) {
            unlink(output.appendingPathComponent(old.path).path)
        }
    }

    private static func renditionsPresent(_ entry: ManifestEntry, in output: URL) -> Bool {
        entry.renditions.allSatisfy { record in
            var info = stat()
            return stat(output.appendingPathComponent(record.path).path, &info) == 0 && Int(info.st_size) == record.bytes
        }
    }
}
