import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the CLI as a child process and reports its own peak resident memory and wall time,
/// from `wait4`'s resource usage of that one child (not the cumulative `RUSAGE_CHILDREN`,
/// which other tests running at the same time would contaminate).
enum ChildProcessPeak {
    struct Outcome {
        var status: Int32
        /// Peak resident set size of the child, in bytes (`ru_maxrss`).
        var peakBytes: Int
        var seconds: Double
        var stderr: String
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
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(started)
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let stderr = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Outcome(status: exited, peakBytes: Int(usage.ru_maxrss) * 1024, seconds: seconds, stderr: stderr)
    }
}
