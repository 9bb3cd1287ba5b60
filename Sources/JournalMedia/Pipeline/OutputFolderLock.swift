import Foundation
import JournalMediaCore

/// The exclusive lock a batch holds on its output folder for the whole run: `flock` on
/// `DIR/.journal-media.lock`. Two runs into one folder would otherwise delete each other's
/// temporary files (the start-up sweep) and overwrite each other's manifest.
///
/// Taken once, before the sweep and before any input is probed; released when the value is
/// dropped (the descriptor closes) or the process dies, so a killed run never leaves a stale
/// lock. The lock file stays (empty) and is hidden from scans. Costs one open and one `flock`.
public final class OutputFolderLock: Sendable {
    public static let fileName = ".journal-media.lock"

    private let descriptor: Int32

    /// How long a held lock is retried before it counts as another run's (see `acquire`).
    static let lockGrace = Duration.seconds(2)
    static let lockPoll = Duration.milliseconds(20)

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }

    /// Takes the lock; when another process holds it, throws `outputLocked` once it has stayed
    /// held for `lockGrace` (2 s), or, with `wait`, calls `onWait` at once and blocks until
    /// that run ends. A folder where the lock
    /// file cannot be created is `outputNotWritable`.
    /// `name`: the lock file (a shard locks its own, so shards can share an output folder).
    public static func acquire(in folder: URL, name fileName: String = OutputFolderLock.fileName, wait: Bool,
                               onWait: (@Sendable () -> Void)? = nil) async throws(BatchError) -> OutputFolderLock {
        let path = folder.appendingPathComponent(fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw BatchError.outputNotWritable(folder.path, reason: "cannot create \(fileName): \(String(cString: strerror(errno)))")
        }
        let lock = OutputFolderLock(descriptor: fd)
        // A lock that frees itself within the grace period was not another run's. The toolkit
        // starts no programs, but a host that links it may (a test runner, an app): a child
        // started on another thread holds a copy of every open descriptor until its exec, so
        // a lock this process just released can look held for a moment. Another run holds
        // its lock for the whole batch, far longer.
        var waited = Duration.zero
        while true {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return lock }
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                throw BatchError.outputNotWritable(folder.path, reason: "cannot lock \(fileName): \(String(cString: strerror(code)))")
            }
            guard !wait, waited < lockGrace else { break }
            try? await Task.sleep(for: lockPoll)
            waited += lockPoll
        }
        guard wait else { throw BatchError.outputLocked(folder.path) }
        onWait?()
        let status = await BlockingWork.run { () -> Int32 in
            while true {
                if flock(fd, LOCK_EX) == 0 { return 0 }
                if errno != EINTR { return errno }
            }
        }
        guard status == 0 else {
            throw BatchError.outputNotWritable(folder.path, reason: "cannot lock \(fileName): \(String(cString: strerror(status)))")
        }
        return lock
    }
}

/// Checks, before anything is decoded, that files can be created in the output folder and
/// that its file system has space left, so a read-only or full output fails at once rather
/// than after every asset was decoded. Creates and removes one empty hidden file; one
/// `statvfs`.
enum OutputFolderCheck {
    static func verifyWritable(_ folder: URL) throws(BatchError) {
        let probe = folder.appendingPathComponent(AtomicFile.temporaryName(for: "write-check")).path
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw BatchError.outputNotWritable(folder.path, reason: String(cString: strerror(errno)))
        }
        close(fd)
        unlink(probe)
        var info = statvfs()
        if statvfs(folder.path, &info) == 0, info.f_bavail == 0 {
            throw BatchError.outputNotWritable(folder.path, reason: String(cString: strerror(ENOSPC)))
        }
    }
}
