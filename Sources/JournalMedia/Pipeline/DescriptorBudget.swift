import Foundation

/// How many probed files a batch may keep open between probing and processing: the
/// process's descriptor limit (the soft limit raised to the hard one, once) less a reserve
/// for libraries, outputs and the standard streams. Asked once per batch, and by the server
/// for its connection cap; costs two `getrlimit`/`setrlimit` calls, once.
public enum DescriptorBudget {
    /// Descriptors kept for libraries, outputs, and the standard streams.
    public static let reserve = 256

    /// The process's descriptor limit, its soft value raised to the hard one on first call
    /// (systemd starts services at a soft 1024).
    public static func processLimit() -> Int { limit }

    private static let limit: Int = {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return Int(clamping: limits.rlim_cur)
    }()

    static func available() -> Int { max(0, limit - reserve) }
}

/// The probes of a batch, stored by index from several threads.
final class ProbeSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [ProbedAsset?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ probe: ProbedAsset, at index: Int) {
        lock.lock()
        slots[index] = probe
        lock.unlock()
    }

    func all() -> [ProbedAsset] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
