import CVips
import Foundation

/// Process-wide libvips set-up: initialises the library once, turns the operation cache
/// off and pins libvips to one worker thread per image (concurrency comes from running
/// several images at once), and blocks every loader the toolkit does not sniff for.
///
/// Runs lazily the first time any imaging type is used; costs one `vips_init` (a few ms).
enum VipsRuntime {
    /// Loaders reachable from untrusted uploads. Everything else under `VipsForeignLoad`
    /// (magick, openslide, matrix, csv, fits, analyze, raw, vips, ppm, rad, mat, exr, jp2k)
    /// is blocked.
    static let allowedLoaders = [
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp",
        "VipsForeignLoadNsgif", "VipsForeignLoadTiff", "VipsForeignLoadHeif",
        "VipsForeignLoadSvg", "VipsForeignLoadPdf",
    ]

    private static let initialised: Bool = {
        guard vips_init("journal-media") == 0 else { return false }
        // libvips reports recoverable decoder trouble as GLib warnings on stderr; a batch
        // reports problems through its own error entries instead.
        g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING, { _, _, _, _ in }, nil)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        vips_concurrency_set(1)
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in allowedLoaders { vips_operation_block_set(loader, 0) }
        return true
    }()

    /// Makes sure libvips is initialised; throws if it could not be.
    static func ensure() throws(VipsError) {
        guard initialised else { throw VipsError(message: "libvips failed to initialise: \(takeErrorBuffer())") }
    }

    private static let errorLock = NSLock()

    /// Takes and clears libvips' (process-wide) error buffer and returns its last line.
    /// libvips 8.14 has one buffer for all threads, so under concurrency a message can,
    /// rarely, come from a neighbouring failure; the lock keeps the read-and-clear atomic.
    static func takeErrorBuffer() -> String {
        errorLock.lock()
        defer { errorLock.unlock() }
        guard let raw = vips_error_buffer_copy() else { return "" }
        defer { g_free(raw) }
        // The buffer may also hold lines left by an earlier, recovered problem elsewhere;
        // the failure being reported is the last line.
        let lines = String(cString: raw)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return lines.last ?? ""
    }

    /// libvips' version, e.g. "8.14.1".
    static var version: String {
        String(cString: vips_version_string())
    }
}

/// A failure inside libvips, carrying libvips' own message.
struct VipsError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
