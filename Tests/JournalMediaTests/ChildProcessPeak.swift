import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the CLI as a child process and reports its own peak resident memory and wall time.
/// The peak is the child's `VmHWM` (the high-water mark of its own address space, from
/// /proc/PID/status), read every 5 ms until it exits: `ru_maxrss` would not do, since Linux
/// carries the spawning test process's resident size into it at `exec`.
enum ChildProcessPeak {
    struct Outcome {
        var status: Int32
        /// Peak resident set size of the child, in bytes (`ru_maxrss`).
        var peakBytes: Int
        var seconds: Double
        var stderr: String
    }

    /// The `VmHWM` line of a live process, in bytes; nil once it has exited.
    static func highWaterMark(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes * 1024
    }

    static func runCLI(_ arguments: [String]) throws -> Outcome {
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("jm-peak-\(UUID().uuidString).err")
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let path = TestSupport.cli.path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var status: Int32 = 0
        var peak = 0
        while true {
            if let mark = highWaterMark(pid) { peak = max(peak, mark) }
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno != EINTR) { break }
            usleep(5_000)
        }
        let seconds = Date().timeIntervalSince(started)
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Outcome(status: exited, peakBytes: peak, seconds: seconds, stderr: stderr)
    }
}
