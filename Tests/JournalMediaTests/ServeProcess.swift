import Foundation

/// `journal-media serve` as a child process on a free loopback port, for tests that watch the
/// server from outside: its threads and CPU time (/proc/PID), SIGTERM, raw sockets. Killed
/// when the test drops it without stopping it.
final class ServeProcess {
    let process = Process()
    let base: URL
    let port: Int

    /// Starts the server with `arguments` after `serve --port 0` and waits (≤ 60 s) for its
    /// "listening on" line.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = TestSupport.cli
        process.arguments = ["serve", "--port", "0", "--log-level", "critical"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        let start = Date()
        while !line.contains(UInt8(ascii: "\n")) && Date().timeIntervalSince(start) < 60 {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let address = text.split(separator: " ").last.map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }),
              let url = URL(string: address), let port = url.port else {
            process.terminate()
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "serve did not start: \(text)"])
        }
        base = url
        self.port = port
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The server's threads now (/proc/PID/task).
    var threads: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task").count) ?? 0
    }

    /// CPU seconds (user + system) the server has used so far (/proc/PID/stat).
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // Fields after the command's closing parenthesis: state is field 3; utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits (≤ `seconds`) for the process to exit; its exit time after the call, or nil.
    func waitForExit(within seconds: Double) -> Double? {
        let start = Date()
        while process.isRunning && Date().timeIntervalSince(start) < seconds { usleep(20_000) }
        return process.isRunning ? nil : Date().timeIntervalSince(start)
    }
}
