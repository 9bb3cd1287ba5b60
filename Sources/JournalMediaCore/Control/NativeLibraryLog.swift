import Logging
import Synchronization

/// Where the warnings of the C libraries (libvips, GLib's "VIPS" domain; libav's `av_log`)
/// go: into a swift-log `Logger`, with `library` metadata, instead of stderr. Warnings (and
/// libav errors) at `debug`: they concern single input files, which the pipeline already
/// reports as typed errors, so they stay at `debug` as the SSWG logging guide asks of
/// libraries; libvips' progress chatter (GLib info/message) at `trace`.
///
/// Process-wide (the C libraries have one log hook each), installed when libvips or libav
/// is first used. The default logger is `Logger(label: "JournalMedia.native")`, built through
/// whatever `LoggingSystem` the application bootstrapped; set `logger` to route elsewhere.
/// Costs one lock and one log call per message the libraries emit (level-filtered first).
public enum NativeLibraryLog {
    private static let current = Mutex<Logger?>(nil)

    /// The logger the native libraries' messages go to.
    public static var logger: Logger {
        get { current.withLock { $0 } ?? Logger(label: "JournalMedia.native") }
        set { current.withLock { $0 = newValue } }
    }

    /// Emits one message of `library` (e.g. "libvips", "libav"); trailing newlines dropped.
    package static func emit(_ message: String, library: String, level: Logger.Level = .debug,
                             metadata: Logger.Metadata = [:]) {
        let text = message.trimmingCharacters(in: .newlines)
        guard !text.isEmpty else { return }
        var all = metadata
        all["library"] = .string(library)
        logger.log(level: level, "\(text)", metadata: all)
    }
}

private extension String {
    func trimmingCharacters(in set: Set<Character>) -> String {
        var text = Substring(self)
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}

private extension Set where Element == Character {
    static let newlines: Set<Character> = ["\n", "\r", "\r\n"]
}
