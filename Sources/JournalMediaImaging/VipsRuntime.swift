import CVips
import CVipsMessages
import Foundation
import JournalMediaCore
import Logging

/// Process-wide libvips set-up: initialises the library once, turns the operation cache
/// off and pins libvips to one worker thread per image (concurrency comes from running
/// several images at once), and blocks every loader the toolkit does not sniff for.
///
/// Runs lazily the first time any imaging type is used; costs one `vips_init` (a few ms).
/// The HEIF, PDF and JPEG XL modules are opened later, with the first operation that needs
/// them (`ensure(operation:)`).
package enum VipsRuntime {
    /// Loaders reachable from untrusted uploads, beside each registered format's own loader
    /// operation (`FormatRegistry`). Everything else under `VipsForeignLoad`
    /// (openslide, matrix, csv, analyze, raw, vips, mat) is blocked; ImageMagick's
    /// buffer loader is opened only for sniffed BMP and ICO files (`ensureMagickLoader()`).
    /// JPEG 2000, Netpbm/PFM and Radiance are read from memory only (their file variants stay
    /// blocked, `blockedFileLoaders`); OpenEXR has only a file loader, given a memfd
    /// (`MemoryFile`).
    static let allowedLoaders = [
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp",
        "VipsForeignLoadNsgif", "VipsForeignLoadTiff", "VipsForeignLoadHeif",
        "VipsForeignLoadSvg", "VipsForeignLoadPdf", "VipsForeignLoadJxl",
        "VipsForeignLoadJp2k", "VipsForeignLoadPpm", "VipsForeignLoadRad", "VipsForeignLoadOpenexr",
    ]

    /// File-name variants of allowed loaders that the toolkit never calls (it reads from memory).
    static let blockedFileLoaders = ["VipsForeignLoadJp2kFile", "VipsForeignLoadPpmFile", "VipsForeignLoadRadFile"]

    private static let initialised: Bool = {
        guard vips_init("journal-media") == 0 else { return false }
        // Per-computation messages only on a libvips they were verified with (8.14): a later
        // build can call its error functions internally, past the definitions in
        // CVipsMessages, and its records would then stay empty. Elsewhere libvips' own
        // buffer is read (`takeMessages`), attribution best-effort.
        // `JOURNAL_MEDIA_VIPS_RECORDS=0` takes that plain-libvips branch on a verified libvips
        // too (to test it, or to rule the interposition out while debugging).
        let verified = recordsVerified(major: Int(vips_version(0)), minor: Int(vips_version(1)))
            && ProcessInfo.processInfo.environment[recordsVariable] != "0"
        jm_vips_messages_enable(jm_vips_messages_active() != 0 && verified ? 1 : 0)
        // libvips reports recoverable decoder trouble as GLib warnings on stderr; they go to
        // the toolkit's logger instead (`NativeLibraryLog`, debug level).
        let levels = GLogLevelFlags(rawValue: G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_MESSAGE.rawValue
                                    | G_LOG_LEVEL_INFO.rawValue)
        g_log_set_handler("VIPS", levels, { _, level, message, _ in
            guard let message else { return }
            // Warnings at debug; libvips' progress chatter (g_info, g_message) at trace.
            let warning = level.rawValue & G_LOG_LEVEL_WARNING.rawValue != 0
            // Kept with the computation too: a failure libvips gives no message for is then
            // explained by its warning (libpng's "IHDR: CRC error").
            if warning { jm_vips_messages_warn(message) }
            NativeLibraryLog.emit(String(cString: message), library: "libvips", level: warning ? .debug : .trace,
                                  metadata: ["vips.level": warning ? "warning" : "info"])
        }, nil)
        vips_cache_set_max(0)
        vips_cache_set_max_mem(0)
        vips_cache_set_max_files(0)
        vips_concurrency_set(1)
        VipsInterrupt.connectDrawingStop()
        vips_operation_block_set("VipsForeignLoad", 1)
        for loader in allowedLoaders { vips_operation_block_set(loader, 0) }
        // Each registered still format's own loader operation (`StillLoading.loader`), exactly
        // that class; one in a module not loaded yet (HEIF, PDF, JPEG XL, ImageMagick) is found
        // by `allowedLoaders` or `ensureMagickLoader` instead.
        for loader in Set(SourceFormat.allCases.compactMap { $0.handling.still?.loader }) {
            let type = vips_type_find("VipsOperation", loader)
            if type != 0, let name = g_type_name(type) { vips_operation_block_set(name, 0) }
        }
        for loader in blockedFileLoaders { vips_operation_block_set(loader, 1) }
        return true
    }()

    /// The loadable libvips modules the toolkit uses (Debian builds HEIF and PDF support as
    /// modules), each with an operation it provides. Creating any operation of one of them
    /// (heifload…, heifsave…, pdfload…, jxlload…, jxlsave…) loads that module first
    /// (`ensure(operation:)`).
    static let neededModules = [(module: "vips-heif", operation: "heifload"),
                                (module: "vips-poppler", operation: "pdfload"),
                                (module: "vips-jxl", operation: "jxlload")]

    /// The modules opened on first need, each alone, not in `vips_init`: mapping libheif,
    /// poppler and libjxl with their dependencies (and running their constructors) was about a
    /// third of the CLI's start-up, paid even by runs of JPEGs and PNGs only; and a run of HEICs
    /// only maps libheif, not poppler and libjxl too. Every
    /// image reaches these formats through an operation named for them (the header read names
    /// the loader), so loading here is in time.
    /// Thread-safe (Swift statics); costs each module's load once.
    private static let heifModule = loadModule(neededModules[0])
    private static let pdfModule = loadModule(neededModules[1])
    private static let jxlModule = loadModule(neededModules[2])

    /// libvips reads BMP and ICO only through its ImageMagick loader (`vips -l`: no
    /// bmpload or icoload). ImageMagick is large and slow to map, so its module is opened
    /// the first time a sniffed BMP or ICO arrives, never at start-up, and only its buffer
    /// loader is unblocked. Thread-safe (a Swift static); costs the module load once (tens
    /// of milliseconds). False when the module is not installed.
    private static let magickLoader: Bool = {
        guard initialised else { return false }
        if vips_type_find("VipsOperation", "magickload_buffer") == 0, let folder = modulesFolder() {
            _ = g_module_open("\(folder)/vips-magick.so", G_MODULE_BIND_LAZY)
        }
        guard vips_type_find("VipsOperation", "magickload_buffer") != 0 else { return false }
        vips_operation_block_set("VipsForeignLoadMagick", 1)
        vips_operation_block_set("VipsForeignLoadMagickBuffer", 0)
        return true
    }()

    /// Makes ImageMagick's buffer loader available (see `magickLoader`); throws when it is not.
    static func ensureMagickLoader() throws(VipsError) {
        try ensure()
        guard magickLoader else {
            throw VipsError(message: "libvips' ImageMagick loader (module vips-magick, package libvips42) is not "
                            + "available; it is the only BMP and ICO reader in libvips 8.14")
        }
    }

    /// Opens `module` unless `vips_init` loaded it (because `LibvipsModules.loadOnlyNeeded()`
    /// did not keep it from loading every module). Called once per module, by its static.
    private static func loadModule(_ module: (module: String, operation: String)) -> Bool {
        guard initialised else { return false }
        guard vips_type_find("VipsOperation", module.operation) == 0, let folder = modulesFolder() else { return true }
        // GModule runs the module's g_module_check_init, which registers its types; the
        // module stays loaded for the life of the process.
        _ = g_module_open("\(folder)/\(module.module).so", G_MODULE_BIND_LAZY)
        return true
    }

    /// The libvips modules folder, next to the libvips this process mapped.
    private static func modulesFolder() -> String? {
        // /proc files report size 0, so read to the end rather than by size.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile(),
              let maps = String(data: data, encoding: .utf8),
              let line = maps.split(separator: "\n").first(where: { $0.contains("/libvips.so") }),
              let start = line.firstIndex(of: "/") else { return nil }
        let libraryFolder = (String(line[start...]) as NSString).deletingLastPathComponent
        return "\(libraryFolder)/vips-modules-\(vips_version(0)).\(vips_version(1))"
    }

    /// Makes sure libvips is initialised; throws if it could not be.
    static func ensure() throws(VipsError) {
        guard initialised else { throw VipsError(message: "libvips failed to initialise: \(failureMessage("vips_init"))") }
    }

    /// `ensure()`, and for an operation that a module provides (`neededModules`), that
    /// module loaded first. A few string prefix tests per call otherwise.
    static func ensure(operation name: String) throws(VipsError) {
        try ensure()
        if name.hasPrefix("heif") { _ = heifModule } else if name.hasPrefix("pdf") { _ = pdfModule }
        else if name.hasPrefix("jxl") { _ = jxlModule }
    }

    /// Loads the HEIF, PDF and JPEG XL modules now if they are not yet (for code that reaches
    /// them other than through an operation named for them, e.g. `--version` listings).
    package static func loadModules() throws(VipsError) {
        try ensure()
        _ = (heifModule, pdfModule, jxlModule)
    }

    private static let errorLock = NSLock()

    /// Whether libvips' messages reach `CVipsMessages`' per-computation records: true when the
    /// toolkit is linked into the program (its default; see `CVipsMessages.h`) and libvips is
    /// a version this was verified with (8.14.x). Decided once, by libvips' initialisation.
    package static let ownMessages: Bool = {
        guard initialised else { return false }
        return jm_vips_messages_enabled() != 0
    }()

    /// The environment variable that, set to `0`, keeps CVipsMessages' records off.
    package static let recordsVariable = "JOURNAL_MEDIA_VIPS_RECORDS"

    /// Whether CVipsMessages' records were verified with libvips `major.minor` (8.14: every
    /// message, a worker thread's included, reached its computation's record).
    package static func recordsVerified(major: Int, minor: Int) -> Bool {
        jm_vips_messages_verified(Int32(clamping: major), Int32(clamping: minor)) != 0
    }

    /// Takes and clears the libvips messages of the computation on this thread and returns
    /// the last line (the failure being reported; earlier lines are problems libvips went on
    /// past). The text is this thread's own, under any concurrency: messages raised on
    /// libvips' worker threads while they decode for this thread count as this thread's
    /// (`CVipsMessages`). Empty when there were none (see `failureMessage(_:)`).
    /// Also clears libvips' process-wide buffer, which nothing reads, so it never fills.
    /// Costs a copy of this thread's text (a few lines) and one lock.
    ///
    /// Only where the toolkit's definitions do not reach libvips (`ownMessages` false: it was
    /// loaded with dlopen RTLD_LOCAL) does this fall back to that shared buffer, whose last
    /// line can then be a neighbouring thread's.
    static func takeErrorBuffer() -> String {
        takeMessages().error
    }

    /// `takeErrorBuffer()`'s line, and the libvips warnings this computation raised (GLib
    /// warnings, `jm_vips_messages_warn`; kept in `ownMessages`' absence too, then only those
    /// raised on this thread), oldest first. Clears both.
    static func takeMessages() -> (error: String, warnings: [String]) {
        var errors: [String] = []
        var warnings: [String] = []
        if let raw = jm_vips_messages_take() {
            defer { free(raw) }
            for line in String(cString: raw).split(separator: "\n") {
                if line.utf8.first == UInt8(ascii: "\u{1F}") {
                    let text = line.dropFirst().trimmingCharacters(in: .whitespaces)
                    if !text.isEmpty { warnings.append(text) }
                } else {
                    errors.append(line.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        if ownMessages {
            vips_error_clear()
        } else {
            errorLock.lock()
            defer { errorLock.unlock() }
            errors = []
            if let raw = vips_error_buffer_copy() {
                defer { g_free(raw) }
                errors = String(cString: raw).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            }
        }
        return (errors.last { !$0.isEmpty } ?? "", warnings)
    }

    /// Forgets this thread's libvips messages, so that a failure read after the next call is
    /// that call's. Runs before each libvips computation the toolkit starts (an operation's
    /// build, a decode into memory); costs a thread-local read and one uncontended lock.
    static func beginCall() {
        if ownMessages { jm_vips_messages_clear() }
    }

    /// The text for a failure of `operation` on this thread, never empty: libvips' last
    /// message for this computation, or, when libvips gave none (it failed without a message,
    /// or raised it on a thread serving no known computation), a sentence naming the
    /// operation. Never another file's message. Costs one copy of this thread's text.
    /// When libvips gave no message but warned while failing (libpng's "IHDR: CRC error" is
    /// only a warning in libvips), the warnings are the reason: "… failed; libvips
    /// warned: IHDR: CRC error" (the last three, repeats dropped).
    static func failureMessage(_ operation: String) -> String {
        let (text, warnings) = takeMessages()
        guard text.isEmpty else { return text }
        if !warnings.isEmpty {
            var distinct: [String] = []
            for warning in warnings where !distinct.contains(warning) { distinct.append(warning) }
            return "\(operation) failed; libvips warned: " + distinct.suffix(3).joined(separator: "; ")
        }
        return ownMessages ? "\(operation) failed; libvips gave no message for this file"
            : "\(operation) failed (libvips left no message: its error text is shared by all threads)"
    }

    /// libvips' version, e.g. "8.14.1".
    package static var version: String {
        String(cString: vips_version_string())
    }
}

/// A failure inside libvips, carrying libvips' own message.
package struct VipsError: Error, CustomStringConvertible {
    /// Never empty: an empty text becomes a generic sentence, so every error line has a reason.
    package let message: String
    package var description: String { message }

    package init(message: String) {
        self.message = message.isEmpty ? "libvips failed without a message" : message
    }
}

/// Start-up control for processes that own their environment (the `journal-media` CLI).
public enum LibvipsModules {
    /// Keeps libvips from loading every module in its modules folder at start-up (on Debian:
    /// ImageMagick, OpenSlide, JPEG XL, HEIF and PDF); the toolkit then opens HEIF, PDF and
    /// JPEG XL itself, and ImageMagick only when the first BMP or ICO arrives. OpenSlide never
    /// enters the process, nor ImageMagick in a run without such files, which shortens start-up.
    ///
    /// Sets `VIPSHOME` (libvips looks for its modules under it), so call it first thing in
    /// `main`, before other threads run and before any image is processed. Libraries
    /// embedding the toolkit need not call it: everything works with all modules loaded.
    public static func loadOnlyNeeded() {
        setenv("VIPSHOME", "/nonexistent/journal-media-loads-its-own-libvips-modules", 1)
    }
}
