import Foundation

/// Writes a file so that its final name only ever holds complete contents: the bytes go to
/// a hidden temporary file in the same folder, which is then renamed over the final name. A
/// process killed at any moment leaves at most a stray temporary file, which the next batch
/// removes.
///
/// Temporary names are short and fixed in length (`.jm-<16 hex>.jmtmp`, 26 bytes: a hash of
/// the final name and a random number), so a final name of up to NAME_MAX (255 bytes) always
/// has a temporary name that fits. Below the folder a write is rooted at, every folder is
/// opened without following symbolic links: a link planted inside the output folder is never
/// written through, and the rename replaces a link at the final name rather than its target.
///
/// Costs one open per path component, one create, write and rename; no fsync (a killed
/// process loses nothing already written; surviving power loss is not promised).
public enum AtomicFile {
    public static let temporarySuffix = ".jmtmp"
    /// Longest file name (one path component) in bytes, Linux's NAME_MAX.
    public static let nameMax = 255

    /// Writes `bytes` to the file `url`; its folder is created when missing.
    public static func write(_ bytes: some ContiguousBytes, to url: URL) throws {
        try write(bytes, to: url.lastPathComponent, under: url.deletingLastPathComponent())
    }

    /// Writes `bytes` to `relativePath` below `root`, creating the folders in between; none
    /// of them may be a symbolic link (`root` itself may be).
    public static func write(_ bytes: some ContiguousBytes, to relativePath: String, under root: URL) throws {
        try write(to: relativePath, under: root) { sink in try sink.write(bytes) }
    }

    /// As `write(_:to:under:)`, with the contents produced piece by piece into `sink` (the
    /// manifest, one entry at a time); the final name appears only once `produce` returns.
    public static func write(to relativePath: String, under root: URL,
                             _ produce: (inout FileSink) throws -> Void) throws {
        let (folders, name) = try split(relativePath)
        let folder = try openFolder(folders, under: root, create: true)
        defer { close(folder) }
        let temporary = temporaryName(for: name)
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw POSIXFailure(operation: "create a temporary file for \(relativePath)", code: errno) }
        var sink = FileSink(descriptor: fd, name: relativePath)
        var failure: (any Error)?
        do { try produce(&sink) } catch { failure = error }
        if close(fd) != 0 && failure == nil { failure = POSIXFailure(operation: "close \(relativePath)", code: errno) }
        if failure == nil && renameat(folder, temporary, folder, name) != 0 {
            failure = POSIXFailure(operation: "rename into \(relativePath)", code: errno)
        }
        if let failure {
            unlinkat(folder, temporary, 0)
            throw failure
        }
    }

    /// Removes the file at `relativePath` below `root`, never through a symbolic link.
    public static func remove(_ relativePath: String, under root: URL) {
        guard let (folders, name) = try? split(relativePath),
              let folder = try? openFolder(folders, under: root, create: false) else { return }
        unlinkat(folder, name, 0)
        close(folder)
    }

    /// Removes a stale rendition: the regular file at `relativePath` below `root`, reached
    /// without following symbolic links (a link, folder or anything else there is left alone),
    /// then each folder above it that this left empty, up to `root`. True when a file went.
    public static func removeStale(_ relativePath: String, under root: URL) -> Bool {
        guard let (folders, name) = try? split(relativePath),
              let folder = try? openFolder(folders, under: root, create: false) else { return false }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              unlinkat(folder, name, 0) == 0 else {
            close(folder)
            return false
        }
        close(folder)
        var parents = folders
        while let last = parents.popLast(),
              let parent = try? openFolder(parents, under: root, create: false) {
            let removed = unlinkat(parent, last, AT_REMOVEDIR) == 0  // fails, harmlessly, when not empty
            close(parent)
            if !removed { break }
        }
        return true
    }

    /// Size of the regular file at `relativePath` below `root`, reached without following
    /// symbolic links; nil when there is none.
    public static func size(of relativePath: String, under root: URL) -> Int? {
        guard let (folders, name) = try? split(relativePath),
              let folder = try? openFolder(folders, under: root, create: false) else { return nil }
        defer { close(folder) }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The hidden temporary name used while writing `name`: `.jm-` + 8 hex digits of an
    /// FNV-1a hash of the name + 8 random hex digits + `.jmtmp`.
    static func temporaryName(for name: String) -> String {
        ".jm-" + nameHash(name) + hex8(UInt32.random(in: 0...UInt32.max)) + temporarySuffix
    }

    /// The 8 hex digits after `.jm-` in the temporary names of `name` (FNV-1a, 32 bits).
    static func nameHash(_ name: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hex8(hash)
    }

    /// Deletes the temporary files a killed writer left for the final files `relativePaths`
    /// (below `root`): in each path's folder, the `.jm-*.jmtmp` files carrying that name's
    /// hash and last modified before `before`. For a writer that alone writes those paths (a
    /// batch shard, under its lock: `convert --shard`), so it can clear its own leftovers
    /// without touching another shard's file in progress, which `removeLeftovers(in:)` would.
    /// Folders are reached without following symbolic links; missing ones are skipped.
    /// Costs one listing per folder named.
    public static func removeLeftovers(of relativePaths: some Sequence<String>, under root: URL, before: Date) {
        var hashes: [[String]: Set<Substring>] = [:]
        for path in relativePaths {
            guard let (folders, name) = try? split(path) else { continue }
            hashes[folders, default: []].insert(Substring(nameHash(name)))
        }
        let limit = before.timeIntervalSince1970
        for (folders, wanted) in hashes {
            let listing = folders.isEmpty ? root.path : root.appendingPathComponent(folders.joined(separator: "/")).path
            guard let folder = try? openFolder(folders, under: root, create: false) else { continue }
            defer { close(folder) }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: listing)) ?? [] {
                guard name.utf8.count == 26, name.hasPrefix(".jm-"), name.hasSuffix(temporarySuffix),
                      wanted.contains(name.dropFirst(4).prefix(8)) else { continue }
                var info = stat()
                guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG,
                      Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 < limit else { continue }
                unlinkat(folder, name, 0)
            }
        }
    }

    /// Deletes temporary files left by a killed run anywhere below `folder`; folders that are
    /// symbolic links are not entered.
    public static func removeLeftovers(in folder: URL) {
        var pending = [folder.path]
        while let directory = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG where name.hasPrefix(".") && name.hasSuffix(temporarySuffix): unlink(path)
                default: continue
                }
            }
        }
    }

    private static func hex8(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    private static func split(_ relativePath: String) throws -> (folders: [String], name: String) {
        let components = relativePath.split(separator: "/").map(String.init)
        guard let name = components.last, !components.contains(where: { $0 == "." || $0 == ".." }) else {
            throw POSIXFailure(operation: "write \(relativePath)", code: EINVAL)
        }
        return (Array(components.dropLast()), name)
    }

    /// Opens `root` (following links: the caller chose it), then each of `components` below
    /// it with `O_NOFOLLOW`, creating missing folders when `create` is set. Returns the
    /// innermost folder's descriptor, which the caller closes.
    private static func openFolder(_ components: [String], under root: URL, create: Bool) throws -> Int32 {
        var fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT && create {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else { throw POSIXFailure(operation: "open \(root.path)", code: errno) }
        var walked = ""
        for component in components {
            walked += walked.isEmpty ? component : "/" + component
            if create && mkdirat(fd, component, 0o755) != 0 && errno != EEXIST {
                let code = errno
                close(fd)
                throw POSIXFailure(operation: "create folder \(walked)", code: code)
            }
            let child = openat(fd, component, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            let code = errno
            var info = stat()
            let isLink = child < 0 && fstatat(fd, component, &info, AT_SYMLINK_NOFOLLOW) == 0
                && (info.st_mode & S_IFMT) == S_IFLNK
            close(fd)
            guard child >= 0 else {
                if isLink { throw SymbolicLinkInOutput(path: walked) }
                throw POSIXFailure(operation: "open folder \(walked)", code: code)
            }
            fd = child
        }
        return fd
    }
}

/// An open file being written: every `write` goes to the descriptor whole (short writes and
/// EINTR retried).
public struct FileSink {
    let descriptor: Int32
    let name: String

    public mutating func write(_ bytes: some ContiguousBytes) throws {
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = Foundation.write(descriptor, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure(operation: "write \(name)", code: errno)
                }
                offset += n
            }
        }
    }
}

/// A folder inside the output is a symbolic link: renditions are never written through it.
public struct SymbolicLinkInOutput: Error, CustomStringConvertible {
    public var path: String
    public var description: String {
        "\(path) in the output folder is a symbolic link; nothing is written through links"
    }
}

/// A failed system call, with what was attempted and `strerror`'s text.
public struct POSIXFailure: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
