import Foundation
import JournalMedia

/// The one-line progress display on stderr (done/total, assets/s, ETA, failures), drawn
/// only when stderr is a terminal, cut to its width, and redrawn at most ten times a second.
/// The ETA appears once the rate means something (`BatchProgress.secondsRemaining`).
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ progress: BatchProgress) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard progress.done == progress.total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        var line = "[\(progress.done)/\(progress.total)] "
            + String(format: "%.1f assets/s", progress.assetsPerSecond)
        if let eta = progress.secondsRemaining, progress.done < progress.total {
            line += String(format: ", ETA %d:%02d", Int(eta) / 60, Int(eta) % 60)
        }
        line += ", \(progress.failed) failed"
        // Never wider than the terminal: a wrapped line would scroll instead of redrawing.
        let width = Self.terminalColumns()
        if line.count > width - 1 { line = String(line.prefix(max(0, width - 1))) }
        StandardError.write(raw: "\r\u{1B}[K" + line)
        drawn = true
    }

    /// Prints `message` as a line of its own on stderr: the progress line is erased first,
    /// under the same lock as the redraws, so a redraw from another thread cannot land in
    /// the middle of it. Works (as a plain line) when the display is off.
    func printLine(_ message: String) {
        lock.lock(); defer { lock.unlock() }
        if enabled && drawn { StandardError.write(raw: "\r\u{1B}[K") }
        drawn = false
        lastDraw = .distantPast
        StandardError.writeLine(message)
    }

    /// Columns of the terminal on stderr (80 when it does not say).
    static func terminalColumns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    func finish() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if drawn { StandardError.write(raw: "\n") }
        drawn = false
    }
}
