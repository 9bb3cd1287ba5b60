import ArgumentParser
import Foundation
import JournalMedia

/// `--max-pixels`, declared once for `convert`, `suggestion` and `serve`. nil when not given:
/// the caller's default (`Defaults.maxPixels`, or for `serve` its config file and `JM_MAX_PIXELS`).
struct PixelLimitOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("""
        Refuse images larger than this many pixels, read from the header before decoding \
        (the service answers 422). (default: \(Defaults.maxPixels))
        """, valueName: "max-pixels"))
    var maxPixels: Int?

    func validate() throws {
        if let maxPixels, maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
    }
}

/// The limits of one asset's decode, declared once for `convert` and `suggestion`: pixels
/// (`PixelLimitOption`), grid HEIC pixels, file bytes and wall-clock seconds. Each falls back
/// to its `Defaults` value when not given.
struct DecodeLimitOptions: ParsableArguments {
    @OptionGroup var pixels: PixelLimitOption

    @Option(name: .long, help: ArgumentHelp("""
        Refuse grid HEICs (phones' own layout) larger than this many pixels. They are decoded a \
        row of tiles at a time, so memory stays bounded; the default, 268402689 (16383²), admits \
        200 MP phone photos. (default: \(Defaults.maxTiledPixels))
        """, valueName: "pixels"))
    var maxTiledPixels: Int?

    @Option(name: .long, help: ArgumentHelp("""
        Refuse still images larger than this many bytes, from the file's size before it is \
        read (movies and audio are streamed and not bound by it). (default: \(Defaults.maxBytes))
        """, valueName: "bytes"))
    var maxBytes: Int?

    @Option(name: .long, help: ArgumentHelp("""
        Seconds one decode may take (wall clock): an SVG, PDF, HEIC or huge PNG still \
        rendering after it, or a movie still opening or seeking for its poster, fails with \
        reason "timeout". (default: \(Self.seconds(Defaults.decodeTimeoutSeconds)))
        """, valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let maxTiledPixels, maxTiledPixels < 1 { throw ValidationError("--max-tiled-pixels must be at least 1") }
        if let maxBytes, maxBytes < 1 { throw ValidationError("--max-bytes must be at least 1") }
        if let timeout, !(timeout > 0) || !timeout.isFinite {
            throw ValidationError("--timeout must be a positive number of seconds")
        }
    }

    /// Sets the limits given; the others keep their values (the defaults).
    func apply(to options: inout ProcessingOptions) {
        if let value = pixels.maxPixels { options.maxPixels = value }
        if let value = maxTiledPixels { options.maxTiledPixels = value }
        if let value = maxBytes { options.maxBytes = value }
        if let value = timeout { options.timeoutSeconds = value }
    }

    /// Sets the limits given for every media item and picture of a bundle.
    func apply(to options: inout SuggestionOptions) {
        if let value = pixels.maxPixels { options.maxPixels = value }
        if let value = maxTiledPixels { options.maxTiledPixels = value }
        if let value = maxBytes { options.maxBytes = value }
        if let value = timeout { options.timeoutSeconds = value }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(format: "%.1f", value) : String(value)
    }
}

/// `--jobs`, declared once for `convert` and `suggestion`.
struct JobsOption: ParsableArguments {
    @Option(name: [.short, .long], help: "Images (suggestion: items) processed at once, each with one libvips thread; a grid HEIC decoded while a slot is idle uses its core too. (default: CPU cores)")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The count given, or the machine's cores.
    var count: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }
}
