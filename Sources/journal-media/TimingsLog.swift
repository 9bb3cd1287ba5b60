import Foundation
import JournalMedia

/// `convert --timings FILE`: one JSON line per processed asset with its stage timings,
/// written as each asset completes (so an interrupted run keeps the lines so far).
final class TimingsLog: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    /// Creates or truncates `path`; nil when it cannot be opened for writing.
    init?(path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { return nil }
        self.handle = handle
    }

    deinit { try? handle.close() }

    func append(source: String, timings: StageTimings) {
        let line = timings.jsonLine(source: source) + "\n"
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(line.utf8))
    }
}
