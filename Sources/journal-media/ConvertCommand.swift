import ArgumentParser
import Foundation
import JournalMedia

struct ConvertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert files and folders into renditions plus manifest.json.",
        discussion: """
            Every input file is recognised by its first bytes (JPEG, PNG, WebP, GIF, TIFF, \
            HEIC/HEIF, AVIF, SVG, PDF; MOV, MP4, M4V, 3GP; MP3, M4A, FLAC, Ogg), decoded once at \
            the size the largest rendition needs, turned upright and into sRGB, and written as \
            one file per rendition:

              OUTPUT/<relative path>.<role>.<ext>   e.g. out/2024/IMG_0001.HEIC.thumbnail.webp

            Default renditions: "thumbnail", WebP q80 fitting 512×512 (alpha kept); \
            "fallback", baseline JPEG q85 4:2:0 fitting 1600×1600, or PNG when the source has \
            real transparency. Sources are never enlarged; SVG and PDF are rendered at the \
            rendition size. Renditions carry no EXIF, GPS, XMP or ICC data.

            Movies give a poster frame (keyframe at min(10 % of the duration, 5 s), later ones \
            when that is nearly black; rotation applied; HDR tone-mapped to SDR); audio files \
            give their embedded cover art ("no artwork" error without one); SVG, PDF and small \
            transparent images are icons (transparency kept). A Live Photo still and movie with \
            equal content identifiers (or, when neither has one, the same folder and base name \
            and a movie of at most 4 s) become one "livePhoto" entry with an extra \
            "motionPoster" rendition. Each entry carries a captureDate (see `inspect --help`).

            Paths are relative to the input folder when there is one input folder; with \
            several inputs each is prefixed by its input's name. Hidden files are skipped.

            OUTPUT/manifest.json lists every asset (schema in the README). A re-run reuses \
            the entries whose input (size, modification time, SHA-256) and preset did not \
            change; --force redoes all. Files are written under a temporary name and renamed \
            into place, so an interrupted run never leaves a partial file and the next run \
            completes it.

            A file that cannot be converted (unreadable, empty, truncated, corrupt, \
            unsupported, over --max-pixels) gets an error entry and one line on stderr; the \
            batch goes on. Exit status: 0 all succeeded, 1 some failed, 2 usage error.
            """)

    @Argument(help: ArgumentHelp("Files or folders to convert (folders are recursed).", valueName: "input"))
    var inputs: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Output folder; created if missing. Must not be inside an input.", valueName: "dir"))
    var output: String

    @Option(name: [.short, .long], help: "Images processed at once, each with one libvips thread. (default: CPU cores)")
    var jobs: Int?

    @Option(name: .long, help: ArgumentHelp("""
        JSON file replacing the default renditions: {"renditions": [{"role": "thumbnail", \
        "format": "webp", "width": 512, "height": 512, "fit": "inside", "quality": 80}, …]}. \
        format: webp|jpeg|png; optional formatWhenTransparent; fit: inside|cover (cover crops \
        with libvips' attention strategy); height defaults to width; quality to 80 (WebP) / 85 (JPEG).
        """, valueName: "file"))
    var preset: String?

    @Option(name: .long, help: "Refuse images larger than this many pixels, read from the header before decoding.")
    var maxPixels: Int = Defaults.maxPixels

    @Flag(name: .long, help: "Redo every asset, ignoring the existing manifest.")
    var force = false

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
        Process only part I of N (0 ≤ I < N) of the work, split by a hash of each asset's         relative path (Live Photo pairs stay together), and write manifest.shard-I-of-N.json;         join the parts with `journal-media merge-manifests`. For a Kubernetes Indexed Job:         --shard $(JOB_COMPLETION_INDEX)/N; for a Slurm array: --shard $SLURM_ARRAY_TASK_ID/N.
        """, valueName: "I/N"))
    var shard: String?

    func validate() throws {
        if let shard, BatchShard(parsing: shard) == nil {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N, e.g. 0/4")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
    }

    func run() async throws {
        let renditions = try loadPreset()
        var batch = Batch(
            inputs: inputs.map { URL(fileURLWithPath: $0) },
            output: URL(fileURLWithPath: output),
            options: ProcessingOptions(renditions: renditions, maxPixels: maxPixels),
            jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
            force: force)
        batch.shard = shard.flatMap(BatchShard.init(parsing:))
        let terminal = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        batch.onProgress = { terminal.update($0) }
        if let timings {
            guard let log = TimingsLog(path: timings) else {
                throw ValidationError("cannot write the timings file \(timings)")
            }
            batch.onTimings = { log.append(source: $0, timings: $1) }
        }
        batch.onFailure = { error in
            terminal.clear()
            FileHandle.standardError.write(Data("journal-media: error: \(error)\n".utf8))
        }
        let manifest: Manifest
        do {
            manifest = try await batch.run()
        } catch {
            FileHandle.standardError.write(Data("journal-media: error: \(error)\n".utf8))
            throw ExitCode(error.isUsageError ? ExitStatus.usage : ExitStatus.someAssetsFailed)
        }
        terminal.finish()
        if !quiet {
            let s = manifest.summary
            let line = "\(s.assets) assets: \(s.succeeded) succeeded, \(s.failed) failed, \(s.skipped) unchanged; "
                + String(format: "%.2f s, %.1f assets/s", s.elapsedSeconds, s.assetsPerSecond)
                + " → \(output)/\(batch.shard?.manifestName ?? Batch.manifestName)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        if manifest.summary.failed > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
    }

    private func loadPreset() throws -> [RenditionSpec] {
        guard let preset else { return Defaults.renditions }
        do { return try Preset.load(contentsOf: URL(fileURLWithPath: preset)) } catch {
            throw ValidationError("preset \(preset): \(error)")
        }
    }
}
