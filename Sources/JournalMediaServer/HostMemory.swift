import Foundation

/// The memory this process may use: the machine's physical memory, or the limit of the
/// control group it runs in when that is smaller (a container's `resources.limits.memory`,
/// a systemd `MemoryMax=`). Read at start-up to size `serve`'s default body budget; costs a
/// few small file reads.
///
/// cgroup v2: `memory.max` of the process's group (from `/proc/self/cgroup`, line `0::PATH`)
/// and of every group above it; cgroup v1: `memory.limit_in_bytes` the same way under the
/// `memory` hierarchy. The smallest number found wins; `max` (v2) and v1's "no limit" value
/// (≥ 2⁶² bytes) are no limit.
enum HostMemory {
    /// The smaller of `physical` and every cgroup memory limit above this process.
    /// - Parameter cgroupRoot: where the cgroup file systems are mounted (tests point elsewhere).
    /// - Parameter selfCgroup: the text of `/proc/self/cgroup`.
    static func available(physical: UInt64 = ProcessInfo.processInfo.physicalMemory,
                          cgroupRoot: String = "/sys/fs/cgroup",
                          selfCgroup: String? = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) -> UInt64 {
        min(physical, cgroupLimit(root: cgroupRoot, selfCgroup: selfCgroup ?? "") ?? .max)
    }

    /// The smallest memory limit of the groups this process is in and their ancestors; nil: none.
    static func cgroupLimit(root: String, selfCgroup: String) -> UInt64? {
        var candidates: [String] = []
        for line in selfCgroup.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                // v2: mounted at the root itself, or beside v1 hierarchies as `unified`.
                for mount in [root, root + "/unified"] {
                    candidates += ancestors(of: path).map { mount + $0 + "/memory.max" }
                }
            } else if fields[1].split(separator: ",").contains("memory") {
                candidates += ancestors(of: path).map { root + "/memory" + $0 + "/memory.limit_in_bytes" }
            }
        }
        return candidates.compactMap(limit(inFile:)).min()
    }

    /// `path` and each group above it, as suffixes to a mount point (`/a/b` → `/a/b`, `/a`, ``).
    static func ancestors(of path: String) -> [String] {
        var parts = path.split(separator: "/").map(String.init)
        var result: [String] = []
        while true {
            result.append(parts.isEmpty ? "" : "/" + parts.joined(separator: "/"))
            if parts.isEmpty { return result }
            parts.removeLast()
        }
    }

    /// The number in a limit file; nil when it is missing, `max`, or v1's "unlimited".
    static func limit(inFile path: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let value = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              value < (1 << 62) else { return nil }
        return value
    }
}
