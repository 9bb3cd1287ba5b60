import ArgumentParser
import Foundation
import JournalMedia

struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert files and folders into renditions plus manifest.json.",
        discussion: """
            Every input file is recognised by its first bytes (\(InputFormatList.sentence)), decoded once at \
            the size the largest rendition needs, turned upright and into sRGB, and written as \
            one file per rendition:

              OUTPUT/<relative path>.<role>.<ext>
              e.g. out/2024/IMG_0001.HEIC.thumbnail.webp

            Default renditions: "thumbnail", WebP q80 fitting 512×512 (alpha kept); \
            "fallback", baseline JPEG q85 4:2:0 fitting 1600×1600, or PNG when the source has \
            real transparency. Sources are never enlarged; SVG and PDF are rendered at the \
            rendition size. Renditions carry no EXIF, GPS, XMP or ICC data. A --preset file \
            replaces them, e.g.:

              {"renditions": [
                {"role": "thumbnail", "format": "webp", "width": 512, "quality": 80},
                {"role": "cover", "format": "jpeg", "width": 1200, "height": 630,
                 "fit": "cover"}]}

            Movies give a poster frame (keyframe at min(10 % of the duration, 5 s), later ones \
            when that is nearly black; rotation applied; HDR tone-mapped to SDR); audio files \
            give their embedded cover art ("no artwork" error without one); SVG, PDF and small \
            transparent images are icons (transparency kept). A Live Photo still and movie with \
            equal content identifiers (or, when neither has one, the same folder and base name \
            and a movie of at most 4 s) become one "livePhoto" entry with an extra \
            "motionPoster" rendition; so does an Android motion photo (the MP4 inside the \
            JPEG or HEIC, pairedBy "embedded"). Video codecs other than H.264, HEVC, MPEG-4 \
            Part 2, MPEG-2, MJPEG, VP8, VP9, AV1, ProRes and H.263 fail as "unsupportedCodec". Each entry carries a captureDate (see `inspect --help`).

            Paths are relative to the input folder when there is one input folder; with \
            several inputs each is prefixed by its input's name. Hidden files are skipped. \
            Symbolic links to files are followed only when they resolve inside an input \
            (--follow-symlinks: always), checked again on the opened file, so a link changed \
            during the run cannot lead outside; links to folders, dangling links, links leading \
            outside, unreadable folders and FIFOs are listed under "ignored" with the reason. \
            So are files that are not media by their content (README.md, notes, JSON, XMP \
            sidecars, ZIPs; a name with a media extension such as .jpg is never taken for one): \
            they do not count as failed (--strict: they do). A name that is not valid UTF-8 is \
            kept, percent-escaped, with "sourceEncoding": "percent" in its entry (given as an \
            argument too: a file, or a folder whose files are then all so named).

            A JPEG with damage its decoder can read past (a corrupt restart marker, stray \
            bytes) is shown as viewers show it, and the decoder's complaint is listed in the \
            entry's "warnings"; a JPEG whose data ends early (pixels missing) fails as truncated.

            OUTPUT/manifest.json lists every asset (fields in docs/manifest.md). A re-run skips \
            (reuses the entry of) every input whose size, modification time, device and inode, \
            preset and notification settings did not change, without reading it; --verify \
            reads and hashes each such input and skips it only when its SHA-256 matches too; \
            --force redoes all. The summary's "skipped" is the manifest's summary.skipped. An \
            input that failed on its own content (corrupt, truncated, unsupported…) and did not \
            change is not tried again (--retry-failed: it is): its old error is listed as \
            "failed earlier" and it keeps its error entry. Files are written under a temporary name and renamed \
            into place, so an interrupted run never leaves a partial file; finished entries \
            go to OUTPUT/.manifest.journal.jsonl as they finish, so the next run reuses them \
            and completes the batch.

            Pruning: renditions the earlier manifest listed and this run did not make (a \
            deleted input, a preset change) are removed, each named on stderr, when that \
            manifest was written for the same inputs (it records them); after a run over other \
            inputs they are kept unless --prune is given, and a note says so. An interrupted run \
            removes nothing and writes a manifest with "complete": false that still lists what \
            it did not reach (with --force too).

            An input named on the command line that does not exist, or is a file that is plainly \
            not media (notes.txt, a ZIP; not under --strict), is a usage error (exit status 2).

            One run at a time writes into an output folder (it locks OUTPUT/.journal-media.lock): \
            a second run exits with status 2 (after retrying for 2 s), or waits with --wait. An output that \
            cannot be created or written exits with status 2 before any input is decoded.

            A file that cannot be converted (unreadable, empty, truncated, corrupt, \
            unsupported, over --max-pixels or --max-bytes, or past --timeout) gets an error entry and one line on stderr; the \
            batch goes on. Exit status: 0 no asset failed in this run (failures kept from an \
            earlier run do not count), 1 some failed, 2 a usage error or a \
            failure that is not an asset's (the output cannot be created, written or locked), 130 \
            interrupted (Ctrl-C or SIGTERM: the assets in flight finish and the manifest is \
            written first; a second Ctrl-C stops at once).
            """)

    @Argument(help: ArgumentHelp("Files or folders to convert (folders are recursed).", valueName: "input"))
    var inputs: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Output folder; created if missing. Must not be inside an input.", valueName: "dir"))
    var output: String

    @OptionGroup var jobs: JobsOption

    @Option(name: .long, help: ArgumentHelp("""
        JSON file replacing the default renditions (example above): {"renditions": [spec, …]}, \
        each spec with role, format: webp|jpeg|png|avif|jxl, width; optional formatWhenTransparent; fit: inside|cover (cover crops \
        with libvips' attention strategy); height defaults to width; quality to 80 (WebP) / 85 (JPEG) \
        / 50 (AVIF) / 75 (JPEG XL); effort: WebP 0–6 (default 2), AVIF 0–9 (default 4, \
        libvips'), JPEG XL 1–9 (default 7); for JPEG, 4 or more optimises the Huffman tables.
        """, valueName: "file"))
    var preset: String?

    @Option(name: [.short, .long], help: ArgumentHelp("""
        One rendition instead of the defaults, fitting a SIZE×SIZE box (like vipsthumbnail -s), \
        role "image". With --format and --quality, for quick runs without a preset file. \
        (default with --format or --quality: 512)
        """, valueName: "pixels"))
    var size: Int?

    @Option(name: .long, help: ArgumentHelp("""
        Format of the --size rendition: webp, jpeg, png, avif (AV1 through libheif) or jxl \
        (JPEG XL through libjxl). (default: webp)
        """, valueName: "format"))
    var format: String?

    @Option(name: .long, help: ArgumentHelp("""
        Quality 1–100 of the --size rendition. (default: webp 80, jpeg 85, avif 50, jxl 75; ignored \
        by png, which is lossless)
        """, valueName: "quality"))
    var quality: Int?

    @Flag(name: .long, inversion: .prefixedNo, help: ArgumentHelp("""
        Remove the renditions an earlier run listed in OUTPUT/manifest.json that this run did \
        not make (after a preset change or a deleted input); each removed file is named on \
        stderr. Only files the manifest names are removed, never anything else, and nothing \
        when the run is interrupted. Without either flag this happens only when the manifest \
        was written for the same inputs (its "inputs"); over other inputs their renditions \
        are kept (a note says how many) unless --prune is given. --no-prune: never.
        """))
    var prune: Bool?

    @Flag(name: .long, help: ArgumentHelp("""
        Also make notification attachments (role "notification", within Apple's \
        UNNotificationAttachment limits): JPEG fitting 1024×1024 (PNG when transparent) under \
        10 MB; an MP4 (H.264) for movies and Live Photos under 50 MB. Each is listed with its \
        UTI, thumbnail clipping rectangle and (movies) thumbnail time in the manifest.
        """))
    var notification = false

    @Option(name: .long, help: ArgumentHelp("""
        Notification movies longer than fits in 50 MB are cut to their first this many seconds.
        """, valueName: "seconds"))
    var notificationClipSeconds: Double = Defaults.notificationClipSeconds

    @Flag(name: .long, help: ArgumentHelp("""
        With --notification, also make audio files' sound an attachment: M4A (AAC) under 5 MB, \
        cut to --notification-clip-seconds when longer.
        """))
    var notificationAudio = false

    @Flag(name: .long, help: "Leave where assets were made out of the manifest (location and place null).")
    var noLocation = false

    @OptionGroup var limits: DecodeLimitOptions

    @Flag(name: .long, help: "Redo every asset, ignoring the existing manifest.")
    var force = false

    @Flag(name: .long, help: ArgumentHelp("""
        Read and hash every input whose size, modification time, device and inode match its \
        earlier entry, and skip it only when its SHA-256 matches too (by default such an input \
        is not read again).
        """))
    var verify = false

    @Flag(name: .long, help: ArgumentHelp("""
        Try again the inputs that failed before on their own content (corrupt, unsupported…) \
        although neither they nor the settings changed; by default their earlier error is kept \
        and listed.
        """))
    var retryFailed = false

    @Flag(name: .long, help: "Follow symbolic links to files inside the input folders even when they resolve outside every input. By default such links are not read and are listed under \"ignored\" in the manifest.")
    var followSymlinks = false

    @Flag(name: .long, help: ArgumentHelp("""
        Count files that are not media (text, JSON, XMP sidecars, archives) as failed assets \
        (exit status 1), as before; by default they are listed under "ignored" with the reason.
        """))
    var strict = false

    @Flag(name: .long, help: "When another run is writing into the output folder (it holds OUTPUT/.journal-media.lock), wait for it to finish instead of exiting with status 2.")
    var wait = false

    @Flag(name: [.short, .long], help: "Print nothing but errors on stderr (no progress line, no summary).")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp("""
        Write one JSON line per processed asset to this file, in completion order: its source \
        and the seconds it spent reading and hashing, reading metadata, decoding, analysing \
        colours, encoding and writing, and their total: {"source": "a.jpg", "seconds": 0.21, \
        "read": 0.004, "metadata": 0.001, "decode": 0.12, "analyze": 0.002, "encode": 0.08, \
        "write": 0.001}. Reused assets are not listed. For profiling and latency percentiles.
        """, valueName: "file"))
    var timings: String?

    @Option(name: .long, help: ArgumentHelp("""
        Process only part I of N (0 ≤ I < N) of the work, split by a hash of each asset's \
        relative path (Live Photo pairs stay together), and write manifest.shard-I-of-N.json; \
        join the parts with `journal-media merge-manifests`. For a Kubernetes Indexed Job: \
        --shard $(JOB_COMPLETION_INDEX)/N; for a Slurm array: --shard $SLURM_ARRAY_TASK_ID/N.
        """, valueName: "I/N"))
    var shard: String?

    func validate() throws {
        if let shard, BatchShard(parsing: shard) == nil {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")
        }
        if preset != nil && (size != nil || format != nil || quality != nil) {
            throw ValidationError("--size, --format and --quality make one rendition without a preset; use them or --preset, not both")
        }
        if let format, !RenditionFormat.stillFormats.contains(where: { $0.rawValue == format }) {
            throw ValidationError("--format \(format): accepted: " + RenditionFormat.stillFormats.map(\.rawValue).joined(separator: ", "))
        }
        if let spec = quickRendition {
            do throws(RenditionSpecError) { try RenditionSpec.validate([spec]) } catch {
                throw ValidationError("\(error.field == .quality ? "--quality" : "--size"): \(error.message)")
            }
        }
        if !(notificationClipSeconds >= 1 && notificationClipSeconds <= 600) {
            throw ValidationError("--notification-clip-seconds must be 1–600")
        }
        if notificationAudio && !notification { throw ValidationError("--notification-audio needs --notification") }
    }

    func run() async throws {
        // Under --strict a named file that is not media is a failed asset, as in a folder.
        try NamedInputs.require(inputs, notMedia: !strict)
        var renditions = try loadPreset()
        if notification && !renditions.contains(where: \.isNotification) {
            renditions.append(Defaults.notificationRendition)
        }
        var options = ProcessingOptions(renditions: renditions, notificationClipSeconds: notificationClipSeconds,
                                        notificationAudio: notificationAudio)
        limits.apply(to: &options)
        options.includeLocation = !noLocation
        // Ctrl-C or SIGTERM: start no further asset, let those in flight finish, write the
        // manifest, print the summary and exit 130. A second one aborts at once (every file
        // written so far is complete, and the journal keeps the finished entries).
        let stop = BatchStopRequest()
        let interrupts = InterruptHandler { second in
            if second {
                StandardError.writeLine("journal-media: interrupted again; stopping now")
                Foundation.exit(ExitStatus.interrupted)
            }
            stop.request()
        }
        // Names that are not UTF-8 arrive escaped; the batch opens them by their bytes.
        var pathBytes: [URL: [UInt8]] = [:]
        for input in inputs {
            if let bytes = RawArguments.pathBytes(for: input) { pathBytes[URL(fileURLWithPath: input)] = bytes }
        }
        let configuration = BatchConfiguration(
            jobs: jobs.count, force: force, verify: verify, retryFailed: retryFailed, waitForLock: wait,
            followSymlinks: followSymlinks, prune: prune ?? true, pruneOtherInputs: prune == true, strict: strict,
            returnsEntries: false, shard: shard.flatMap(BatchShard.init(parsing:)), inputPathBytes: pathBytes,
            stopRequest: stop)
        let outputPath = output
        let terminal = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        var events = BatchEvents()
        events.onLockWait = {
            StandardError.writeLine("journal-media: waiting for the other run writing into \(outputPath) to finish")
        }
        events.onProgress = { terminal.update($0) }
        if let timings {
            guard let log = TimingsLog(path: timings) else {
                throw ValidationError("cannot write the timings file \(timings)")
            }
            events.onTimings = { log.append(source: $0, timings: $1) }
        }
        // Only this run's failures make the exit status 1; those kept from an earlier run
        // are listed with their old error.
        let newFailures = Counter()
        events.onFailure = { error in
            newFailures.increment()
            terminal.printLine("journal-media: error: \(error)")
        }
        events.onEarlierFailure = { error in
            terminal.printLine("journal-media: failed earlier: \(error) (unchanged, not retried; --retry-failed)")
        }
        // Pruning says what it removes, or why it removed nothing.
        let pruned = Counter()
        let quiet = self.quiet
        let manifestPath = "\(output)/\(configuration.shard?.manifestName ?? Batch.manifestName)"
        events.onPrune = { path in
            pruned.increment()
            if !quiet { terminal.printLine("journal-media: note: removed stale rendition \(path)") }
        }
        events.onPruneSkipped = { kept, inputs in
            guard !quiet else { return }
            let those = inputs.isEmpty ? "inputs it does not record" : inputs.joined(separator: ", ")
            terminal.printLine("journal-media: note: \(manifestPath) was written for other inputs (\(those)); "
                               + "\(Plural.count(kept, "rendition")) it listed that this run did not make "
                               + "\(kept == 1 ? "was" : "were") kept, no longer listed (--prune removes them)")
        }
        let batch = Batch(inputs: inputs.map { URL(fileURLWithPath: $0) }, output: URL(fileURLWithPath: output),
                          options: options, configuration: configuration, events: events)
        interrupts.onFirst = {
            terminal.printLine("journal-media: interrupted; finishing the assets in flight (Ctrl-C again to stop now)")
        }
        let manifest: Manifest
        do {
            manifest = try await batch.run()
        } catch {
            // Not an asset's failure (the batch could not start, or its manifest could not be
            // written): exit status 2.
            StandardError.writeLine("journal-media: error: \(error)")
            throw ExitCode(ExitStatus.usage)
        }
        withExtendedLifetime(interrupts) {}
        terminal.finish()
        if !quiet {
            for item in manifest.ignored {
                StandardError.writeLine("journal-media: note: \(item.path): ignored: \(item.reason)")
            }
            let s = manifest.summary
            let ignored = manifest.ignored.isEmpty ? "" : ", \(manifest.ignored.count) ignored"
            let removed = pruned.value == 0 ? "" : ", \(Plural.count(pruned.value, "stale rendition")) removed"
            let stopped = stop.isRequested ? "interrupted: " : ""
            let earlier = s.failed - newFailures.value
            let kept = earlier > 0 ? " (\(earlier) earlier, not retried)" : ""
            let line = "\(stopped)\(Plural.count(s.assets, "asset")): \(s.succeeded) succeeded, \(s.failed) failed\(kept), "
                + "\(s.skipped) skipped\(ignored)\(removed); "
                + String(format: "%.2f s, %.1f assets/s", s.elapsedSeconds, s.assetsPerSecond)
                + " → \(manifestPath)"
            StandardError.writeLine(line)
        }
        if stop.isRequested { throw ExitCode(ExitStatus.interrupted) }
        if newFailures.value > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
    }

    /// The one rendition `--size`, `--format` and `--quality` ask for; nil without them.
    private var quickRendition: RenditionSpec? {
        guard size != nil || format != nil || quality != nil else { return nil }
        let chosen = format.flatMap(RenditionFormat.init(rawValue:)) ?? .webp
        let side = size ?? 512
        return RenditionSpec(role: "image", format: chosen, width: side, height: side, quality: quality ?? chosen.defaultQuality)
    }

    private func loadPreset() throws -> [RenditionSpec] {
        if let quickRendition { return [quickRendition] }
        guard let preset else { return Defaults.renditions }
        do { return try Preset.load(contentsOf: URL(fileURLWithPath: preset)) } catch {
            throw ValidationError("preset \(preset): \(error)")
        }
    }
}
