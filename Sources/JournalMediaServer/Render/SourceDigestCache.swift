import Synchronization

/// The SHA-256 of stored files already read, by what `fstat` says of them: device, inode,
/// size, modification and status-change times (nanoseconds). An on-demand request for a
/// file seen before gets its `ETag` from here, so a revalidation (`If-None-Match` → 304) reads
/// none of the file, and a full answer reads it without hashing it again. A file rewritten in
/// place changes its status-change time (which no caller can set back), a replaced file its
/// inode: either is a miss. An entry is kept only when `fstat` after the read says the same as
/// before it. Holds at most `capacity` entries (then it starts over); costs a lock and a
/// dictionary look-up per request, about 150 bytes per entry.
final class SourceDigestCache: Sendable {
    /// What identifies one version of a file (from `fstat` on its open descriptor).
    struct Key: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modifiedNanoseconds: Int64
        var changedNanoseconds: Int64
    }

    let capacity: Int
    private let entries = Mutex([Key: String]())

    init(capacity: Int = 16_384) {
        self.capacity = max(1, capacity)
    }

    /// The digest (hex) recorded for `key`, nil when unknown.
    func digest(for key: Key) -> String? {
        entries.withLock { $0[key] }
    }

    /// Records `digest` for `key`, starting over when full.
    func record(_ digest: String, for key: Key) {
        entries.withLock { table in
            if table.count >= capacity, table[key] == nil { table.removeAll(keepingCapacity: true) }
            table[key] = digest
        }
    }

    /// Entries held now (tests).
    var count: Int { entries.withLock { $0.count } }
}
