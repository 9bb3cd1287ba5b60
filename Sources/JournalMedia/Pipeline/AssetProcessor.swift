import Foundation
import JournalMediaCore
import Logging
import JournalMediaVideo

/// Turns one asset into an `AssetResult`: probe (one open, one sniff, one metadata walk),
/// load and digest through the same descriptor, the source for its kind (`sources`)
/// decodes once at the size the largest rendition needs, then the shared `RenditionStep`.
/// Nothing is written to disk; `Batch` does that.
///
/// Sendable and stateless: call it from as many tasks as you want. Each async call waits for
/// a slot of its `executor` (at most `maxConcurrentAssets` assets at once, the rest queued)
/// and then runs on the executor's worker thread (libvips is blocking) with one libvips thread.
/// Cost: one file read, one SHA-256, one header parse, one decode, a resize + encode per rendition.
///
/// Cancellation: cancelling the task of an async call stops the work at the next stage
/// boundary, inside a libvips computation between two tiles, and inside libav at its next
/// I/O or packet; the result then carries an error with reason `cancelled` (the stage it
/// stopped in). The blocking entry points take the guard as `stop:`, handed down the pipeline
/// as a parameter (`DecodePlan.stop`, `RenditionStep.run`).
public struct AssetProcessor: Sendable {
    public let options: ProcessingOptions
    /// Bounds the async calls in flight; `AssetExecutor.shared` (one asset per core) by default.
    public let executor: AssetExecutor
    /// Receives a `debug` line per asset and `trace` stage timings (`AssetTelemetry`).
    public let logger: Logger
    /// The kinds of input file it reads (`SourceRegistry.builtIn` plus any registered).
    public let sources: SourceRegistry

    public init(options: ProcessingOptions = ProcessingOptions(), executor: AssetExecutor = .shared,
                logger: Logger = Logger(label: "JournalMedia"), sources: SourceRegistry = .builtIn) {
        self.options = options
        self.executor = executor
        self.logger = logger
        self.sources = sources
    }

    /// Runs a request in a slot of the executor. Never throws: failures are in the result's `error`.
    public func process(_ request: AssetRequest) async -> AssetResult {
        await guarded(name: Self.name(of: request.input), deadlineSeconds: request.deadlineSeconds) { stop in
            self.perform(request, stop: stop).result
        }
    }

    /// The name a request's result and its errors carry.
    private static func name(of input: AssetRequest.Input) -> String {
        switch input {
        case .file(let url, let displayName): displayName ?? url.path
        case .bytes(_, let name, _, _): name
        case .probed(let probe, _): probe.name
        case .livePhoto(let still, _, _, _, _): still.name
        }
    }

    /// Processes the file at `url`. Never throws: failures are in the result's `error`.
    public func process(fileAt url: URL) async -> AssetResult {
        await process(AssetRequest(.file(url, displayName: nil)))
    }

    /// Processes bytes in memory (an upload), stills and movies alike. `filename` is the
    /// original name (file-name dates read it, errors and `source` carry it); `modified`
    /// stands in for a file's modification time.
    /// With `deadlineSeconds`, the call (waiting included) stops at that deadline with an
    /// error of reason `timeout`. `sha256`: the bytes' SHA-256 (hex) when the caller already
    /// has it (computed from these bytes): the result carries it and the bytes are not hashed
    /// again. With `options.readsMetadata` off, a still's metadata is not read.
    public func process(data: [UInt8], filename: String, modified: Double? = nil, sha256: String? = nil,
                        deadlineSeconds: Double? = nil) async -> AssetResult {
        await process(AssetRequest(.bytes(data, name: filename, modified: modified, sha256: sha256),
                                   deadlineSeconds: deadlineSeconds))
    }

    /// `process(data:filename:modified:deadlineSeconds:)` for bytes held in a `Data` (a
    /// Foundation or URLSession body), as the generic entry below takes them.
    public func process(data: Data, filename: String, modified: Double? = nil,
                        deadlineSeconds: Double? = nil) async -> AssetResult {
        await processInPlace(data, filename: filename, modified: modified, deadlineSeconds: deadlineSeconds)
    }

    /// `process(data:filename:modified:deadlineSeconds:)` for bytes in any collection that
    /// holds them contiguously: SwiftNIO's `ByteBuffer` as its `readableBytesView` (a server's
    /// request body), `Data`, an `ArraySlice`, a `[UInt8]`. The bytes are read where they lie
    /// (`withContiguousStorageIfAvailable`, on the executor's worker thread, the collection
    /// kept alive by the call): the probe, metadata and SHA-256 read them in place and a movie
    /// is demuxed from them; a still costs one copy, into the `[UInt8]` its decoder owns (a
    /// decode stopped at its deadline may outlive the call). A collection without contiguous
    /// storage is copied into a `[UInt8]` first. Results are the same as for a `[UInt8]`.
    public func process<Bytes: Collection<UInt8> & Sendable>(data bytes: Bytes, filename: String, modified: Double? = nil,
                                                             deadlineSeconds: Double? = nil) async -> AssetResult {
        if let array = bytes as? [UInt8] {
            return await process(data: array, filename: filename, modified: modified, deadlineSeconds: deadlineSeconds)
        }
        return await processInPlace(bytes, filename: filename, modified: modified, deadlineSeconds: deadlineSeconds)
    }

    private func processInPlace<Bytes: Collection<UInt8> & Sendable>(_ bytes: Bytes, filename: String, modified: Double?,
                                                                     deadlineSeconds: Double?) async -> AssetResult {
        await guarded(name: filename, deadlineSeconds: deadlineSeconds) { stop in
            let maxPixels = self.options.maxPixels
            let readsMetadata = self.options.readsMetadata
            // The probe lives and dies inside the closure: nothing keeps the pointer past it.
            let probe = bytes.withContiguousStorageIfAvailable { buffer in
                self.perform(AssetRequest(.probed(ProbedAsset(borrowing: UnsafeRawBufferPointer(buffer), name: filename,
                                                              modified: modified, keepMediaOpen: true, maxPixels: maxPixels,
                                                              readsMetadata: readsMetadata, stop: stop), content: nil)),
                                          stop: stop).result
            }
            return probe ?? self.perform(AssetRequest(.bytes([UInt8](bytes), name: filename, modified: modified,
                                                              sha256: nil)), stop: stop).result
        }
    }

    /// Runs `work` in a slot of the executor under a fresh `DecodeGuard` that the calling
    /// task's cancellation trips, handed to `work`. A caller cancelled while waiting, or
    /// refused by a full queue, gets a result whose error says so (stage `read`: nothing was read).
    private func guarded(name: String, deadlineSeconds: Double? = nil,
                         _ work: @escaping @Sendable (DecodeGuard) -> AssetResult) async -> AssetResult {
        let stop = DecodeGuard(deadlineSeconds: deadlineSeconds)
        switch await executor.run(under: stop, { work(stop) }) {
        case .success(let result):
            return result
        case .failure(let refusal):
            var result = AssetResult(source: name)
            result.error = refusal.error(file: name, stop: stop)
            AssetTelemetry.record(result, logger: logger)
            return result
        }
    }

    /// The same as `process(fileAt:)`, on the calling thread, stopped by `stop` (see `entered`).
    public func processBlocking(fileAt url: URL, displayName: String? = nil, stop: DecodeGuard? = nil) -> AssetResult {
        run(AssetRequest(.file(url, displayName: displayName)), stop: stop).result
    }

    /// Loads (bytes and SHA-256 through the probe's descriptor) and processes a probed input.
    /// An Android motion photo (a still with an MP4 inside) becomes a `livePhoto` entry.
    /// `stop`: see `entered`.
    public func process(_ probe: ProbedAsset, stop: DecodeGuard? = nil) -> AssetResult {
        run(AssetRequest(.probed(probe, content: nil)), stop: stop).result
    }

    /// Processes a probed input whose content is already loaded (a batch loads first to
    /// decide whether an earlier result can be reused). `stop`: see `entered`.
    public func process(_ probe: ProbedAsset, content: SourceFile, stop: DecodeGuard? = nil) -> AssetResult {
        run(AssetRequest(.probed(probe, content: content)), stop: stop).result
    }

    /// A Live Photo: the still's renditions and colours plus the movie's poster as
    /// `motionPoster` (made with the first rendition spec), in one result. A movie that
    /// cannot be read does not lose the still: its error goes to `livePhoto.motionError`.
    /// The capture date is the still's, or the movie's when the still has only a file time.
    public func process(livePhoto still: ProbedAsset, motion: ProbedAsset,
                        pairedBy: LivePhotoRecord.PairedBy, stop: DecodeGuard? = nil) -> AssetResult {
        run(AssetRequest(.livePhoto(still: still, stillContent: nil, motion: motion, motionContent: nil,
                                    pairedBy: pairedBy)), stop: stop).result
    }

    /// `process(livePhoto:…)` with both contents already loaded.
    func process(livePhoto still: ProbedAsset, stillContent: SourceFile, motion: ProbedAsset,
                 motionContent: Result<SourceFile, AssetError>, pairedBy: LivePhotoRecord.PairedBy,
                 stop: DecodeGuard?) -> AssetResult {
        run(AssetRequest(.livePhoto(still: still, stillContent: stillContent, motion: motion,
                                    motionContent: motionContent, pairedBy: pairedBy)), stop: stop).result
    }

    /// The guard a blocking entry point runs under, handed to `body`: `stop`, installed on
    /// the calling thread for the C-backed layers' callbacks while `body` runs. Without one,
    /// nothing stops the work but the decode deadlines (a guard installed on the calling
    /// thread is not looked for: pass it as `stop:`).
    private func entered<T>(_ stop: DecodeGuard?, _ body: (DecodeGuard?) -> T) -> T {
        guard let stop else { return body(nil) }
        return stop.install { body(stop) }
    }

    /// Runs a request on the calling thread, stopped by `stop` (see `entered`): opens or probes
    /// the input, loads it (bytes and SHA-256 through the probe's descriptor) unless its content
    /// is given, decodes it with the source for its kind and makes the renditions
    /// (`RenditionStep`); then a Live Photo's (or a motion photo's embedded) movie poster.
    public func run(_ request: AssetRequest, stop: DecodeGuard? = nil) -> ProcessedAsset {
        entered(stop) { stop in perform(request, stop: stop) }
    }

    private func perform(_ request: AssetRequest, stop: DecodeGuard?) -> ProcessedAsset {
        let still: ProbedAsset, content: SourceFile?
        var knownSHA256: String?
        var motion: (probe: ProbedAsset, content: Result<SourceFile, AssetError>?, pairedBy: LivePhotoRecord.PairedBy)?
        switch request.input {
        case .file(let url, let displayName):
            (still, content) = (ProbedAsset.open(url, name: displayName ?? url.path, maxPixels: options.maxPixels, stop: stop), nil)
        case .bytes(let data, let name, let modified, let sha256):
            still = ProbedAsset(data: data, name: name, modified: modified, maxPixels: options.maxPixels,
                                readsMetadata: options.readsMetadata, stop: stop)
            (content, knownSHA256) = (nil, sha256)
        case .probed(let probe, let given):
            (still, content) = (probe, given)
        case .livePhoto(let probe, let given, let movie, let movieContent, let pairedBy):
            (still, content) = (probe, given)
            motion = (movie, movieContent, pairedBy)
        }
        var processed = ProcessedAsset(result: AssetResult(probe: still, includeLocation: options.includeLocation))
        var clock = StageClock()
        let loaded: SourceFile
        if let content {
            loaded = content
        } else {
            do throws(AssetError) {
                try stop?.check(file: still.name, stage: .read)
                loaded = try still.load(maxBytes: options.maxBytes, knownSHA256: knownSHA256)
            } catch {
                processed.result.error = error
                AssetTelemetry.record(processed.result, logger: logger)
                if let motion {
                    finishLivePhoto(&processed.result, motion: motion.probe, motionContent: nil, pairedBy: motion.pairedBy,
                                    stop: stop)
                }
                return processed
            }
        }
        processed.result.sha256 = loaded.sha256
        processed.result.bytes = loaded.size
        if content == nil { processed.result.timings.read = clock.lap() }
        decodeAndRender(still, content: loaded, keepsPixels: request.keepsPixels, stop: stop, into: &processed)
        // A motion photo: the still's renditions plus the embedded MP4's poster, one entry.
        if motion == nil, request.embeddedMotion, processed.result.error == nil, still.embeddedMotion != nil,
           let embedded = still.embeddedMotionProbe(maxPixels: options.maxPixels, stop: stop) {
            finishLivePhoto(&processed.result, motion: embedded, motionContent: nil, pairedBy: .embedded, stop: stop)
        }
        AssetTelemetry.record(processed.result, logger: logger)
        if let motion {
            finishLivePhoto(&processed.result, motion: motion.probe, motionContent: motion.content,
                            pairedBy: motion.pairedBy, stop: stop)
        }
        return processed
    }

    private func decodeAndRender(_ probe: ProbedAsset, content: SourceFile, keepsPixels: Bool, stop: DecodeGuard?,
                                 into processed: inout ProcessedAsset) {
        if let error = probe.error {
            // A kind registered at run time may read what the sniffer does not recognise.
            guard error.stage == .sniff, error.reason != .empty, probe.format == nil,
                  let source = sources.source(for: probe, content: content) else {
                processed.result.error = error
                return
            }
            processed.pixels = run(source, specs: options.renditions, analyzeColors: options.analyzeColors,
                                   name: probe.name, keepsPixels: keepsPixels, movie: movieAttachment(role: Self.notificationVideoRole),
                                   audio: audioAttachment, stop: stop, into: &processed.result)
            return
        }
        guard let source = sources.source(for: probe, content: content) else {
            processed.result.error = AssetError(file: probe.name, stage: .sniff, reason: .unsupportedFormat,
                                                message: probe.format?.isMetadataOnly == true
                                                  ? "\(probe.format?.rawValue ?? "this format"): only its capture date is read (inspect); no renditions are made"
                                                  : "no source reads \(probe.format?.rawValue ?? "this format")")
            return
        }
        processed.pixels = run(source, specs: options.renditions, analyzeColors: options.analyzeColors, name: probe.name,
                               keepsPixels: keepsPixels, movie: movieAttachment(role: Self.notificationVideoRole),
                               audio: audioAttachment, stop: stop, into: &processed.result)
    }

    /// Runs any source (a file's, or one without a file such as a rendered card) through its
    /// decode and the shared rendition step. `stop`: see `entered`.
    public func process(_ source: some ImageSource, name: String, into start: AssetResult? = nil,
                        stop: DecodeGuard? = nil) -> AssetResult {
        entered(stop) { stop in
            var result = start ?? AssetResult(source: name)
            run(source, specs: options.renditions, analyzeColors: options.analyzeColors, name: name,
                movie: movieAttachment(role: Self.notificationVideoRole), audio: audioAttachment, stop: stop, into: &result)
            return result
        }
    }

    /// Role of a video's MP4 notification attachment.
    public static let notificationVideoRole = "notification-video"
    /// Role of a Live Photo's motion as an MP4 notification attachment.
    public static let notificationMotionRole = "notification-motion"

    /// Role of an audio file's sound as an M4A notification attachment.
    public static let notificationAudioRole = "notification-audio"

    /// The audio attachment to make when the `notification` role and `notificationAudio` are on.
    private var audioAttachment: AudioAttachmentRequest? {
        guard options.notificationSpec != nil, options.notificationAudio else { return nil }
        return AudioAttachmentRequest(role: Self.notificationAudioRole, clipSeconds: options.notificationClipSeconds)
    }

    /// The movie attachment to make when the `notification` role is on.
    private func movieAttachment(role: String) -> MovieAttachmentRequest? {
        guard options.notificationSpec != nil else { return nil }
        return MovieAttachmentRequest(role: role, clipSeconds: options.notificationClipSeconds)
    }

    /// Decodes `source` and makes the renditions (`RenditionStep`, the one place that orders
    /// and makes them); with `keepsPixels`, answers the pixels at the largest rendition's size.
    @discardableResult
    private func run(_ source: some ImageSource, specs: [RenditionSpec], analyzeColors: Bool, name: String,
                     keepsPixels: Bool = false, movie: MovieAttachmentRequest? = nil,
                     audio: AudioAttachmentRequest? = nil, stop: DecodeGuard?,
                     into result: inout AssetResult) -> DecodedImage? {
        var clock = StageClock()
        do throws(AssetError) {
            try stop?.check(file: name, stage: .decode)
            var plan = DecodePlan(renditions: specs, maxPixels: options.maxPixels,
                                  timeoutSeconds: options.timeoutSeconds, movieAttachment: movie,
                                  audioAttachment: audio)
            plan.maxTiledPixels = options.maxTiledPixels
            plan.keepsFullPixels = keepsPixels
            plan.stop = stop
            let image = try source.decode(plan: plan, into: &result)
            result.timings.decode += clock.lap()
            try RenditionStep.run(image, specs: specs, analyzeColors: analyzeColors, name: name, stop: stop,
                                  into: &result)
            return keepsPixels ? image.pixelsForDrawing : nil
        } catch {
            result.timings.decode += clock.lap()
            result.renditions = []
            result.colors = nil
            result.placeholder = nil
            // A stop makes libvips and libav fail with their own words ("killed", "timed
            // out"); the caller gets the guard's typed reason, in the stage that was running.
            if let stop, let reason = stop.stopReason {
                result.error = stop.error(file: name, stage: error.stage, reason: reason)
            } else {
                result.error = error
            }
            return nil
        }
    }

    /// Role of a Live Photo's movie poster rendition.
    public static let motionPosterRole = "motionPoster"

    /// Makes `result` a Live Photo entry with `motion`'s poster; `motionContent` is loaded
    /// through the probe when not given.
    private func finishLivePhoto(_ result: inout AssetResult, motion: ProbedAsset,
                                 motionContent given: Result<SourceFile, AssetError>?, pairedBy: LivePhotoRecord.PairedBy,
                                 stop: DecodeGuard?) {
        result.kind = .livePhoto
        var record = LivePhotoRecord(motionSource: motion.name, pairedBy: pairedBy)
        defer { result.livePhoto = record }
        guard result.error == nil else { return }
        let content: SourceFile
        switch given ?? Result(catching: { () throws(AssetError) in try motion.load() }) {
        case .success(let loaded): content = loaded
        case .failure(let error):
            record.motionError = error
            return
        }
        record.motionSha256 = content.sha256
        record.motionBytes = content.size
        record.motionModified = motion.modified
        (record.motionDevice, record.motionInode) = (motion.identity?.device, motion.identity?.inode)
        record.motionMediaType = motion.format?.mediaType
        if result.captureDate == nil || result.captureDate?.confidence == .fileModified {
            let motionDate = options.includeLocation ? motion.captureDate : motion.captureDate?.withoutPlaceZone()
            result.captureDate = motionDate ?? result.captureDate
        }
        if options.includeLocation, result.location == nil, let location = motion.location {
            result.location = location
            result.place = Place.nearest(to: location)
            if !motion.metadataWarnings.isEmpty { result.warnings = (result.warnings ?? []) + motion.metadataWarnings }
        }
        guard let posterSpec = options.renditions.first else { return }
        var spec = posterSpec
        spec.role = Self.motionPosterRole
        var motionResult = AssetResult(probe: motion, includeLocation: options.includeLocation)
        if let error = motion.error {
            record.motionError = error
            return
        }
        guard motion.format?.isVideo == true else {
            record.motionError = AssetError(file: motion.name, stage: .sniff, reason: .unsupportedFormat,
                                            message: "not a movie")
            return
        }
        let source = VideoSource(probe: motion, content: content)
        run(source, specs: [spec], analyzeColors: false, name: motion.name,
            movie: movieAttachment(role: Self.notificationMotionRole), stop: stop, into: &motionResult)
        result.timings = result.timings + motionResult.timings
        result.video = motionResult.video
        if let error = motionResult.error {
            record.motionError = error
        } else {
            result.renditions += motionResult.renditions
        }
    }
}

extension AssetResult {
    /// A result carrying what the probe found: name, size, time, format, capture date,
    /// location (unless `includeLocation` is false: then neither it, nor the warnings about
    /// it, nor a date offset taken from its place's time zone), camera, identifier.
    init(probe: ProbedAsset, includeLocation: Bool = true) {
        self.init(source: probe.name)
        bytes = probe.size
        modified = probe.modified
        fileIdentity = probe.identity
        format = probe.format
        captureDate = includeLocation ? probe.captureDate : probe.captureDate?.withoutPlaceZone()
        camera = probe.camera
        if includeLocation {
            location = probe.location
            place = probe.location.flatMap(Place.nearest(to:))
            if !probe.metadataWarnings.isEmpty { warnings = probe.metadataWarnings }
        }
        contentIdentifier = probe.contentIdentifier
        if probe.pathBytes != nil { sourceEncoding = FileNameEscaping.encodingName }
        if probe.url == nil { modified = probe.modified }
    }
}
