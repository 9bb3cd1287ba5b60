import Foundation
import JournalMedia

/// The one-line progress display on stderr (done/total, assets/s, ETA, failures), drawn
/// only when stderr is a terminal and redrawn at most ten times a second.
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
        var line = "\r\u{1B}[K[\(progress.done)/\(progress.total)] "
            + String(format: "%.1f assets/s", progress.assetsPerSecond)
        if let eta = progress.secondsRemaining, progress.done < progress.total {
            line += String(format: ", ETA %d:%02d", Int(eta) / 60, Int(eta) % 60)
        }
        line += ", \(progress.failed) failed"
        StandardError.write(raw: line)
        drawn = true
    }

    /// Erases the line so another message can be printed cleanly.
    func clear() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if drawn { StandardError.write(raw: "\r\u{1B}[K") }
        lastDraw = .distantPast
    }

    func finish() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if drawn { StandardError.write(raw: "\n") }
        drawn = false
    }
}
