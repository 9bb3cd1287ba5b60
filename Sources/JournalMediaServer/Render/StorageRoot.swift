import Foundation

/// The folder on-demand file sources come from, and nothing outside it. A relative path is
/// refused when it is empty, absolute, has a `.`/`..`/empty component or a NUL; the file is
/// opened through its resolved path (`realpath`: symlinks followed) only when that lies
/// below the root's own resolved path, without following a last-moment symlink
/// (`O_NOFOLLOW`), and the descriptor's path (`/proc/self/fd`) is checked again after the
/// open, so a symlink or directory swapped in between cannot lead outside. Every refusal is
/// `notFound`: a client learns nothing about what exists outside. Runs per file request on a
/// blocking thread; costs a `realpath`, an `open`, an `fstat`, a `readlink`.
struct StorageRoot: Sendable {
    let root: URL

    enum Refusal: Error, Equatable {
        /// Missing, outside the root, or not a regular file.
        case notFound
        /// Larger than `maxBytes` (from `fstat`, before reading).
        case tooLarge(Int)
        /// The file could not be read.
        case unreadable(String)
    }

    /// An open file below the root: its descriptor (closed by `deinit`), size and version
    /// (what `fstat` said at the open: the key of its digest in `SourceDigestCache`).
    final class OpenFile: @unchecked Sendable {
        let descriptor: Int32
        let size: Int
        let version: SourceDigestCache.Key

        fileprivate init(descriptor: Int32, info: stat) {
            self.descriptor = descriptor
            size = Int(info.st_size)
            version = Self.version(info)
        }

        deinit { close(descriptor) }

        static func version(_ info: stat) -> SourceDigestCache.Key {
            SourceDigestCache.Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
                                  modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                                  changedNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
        }

        /// Whether `fstat` still says what it said at the open (nothing wrote to the file since).
        func isUnchanged() -> Bool {
            var info = stat()
            return fstat(descriptor, &info) == 0 && Self.version(info) == version
        }

        /// The whole file (it was no larger than the limit when opened; a file that grew
        /// since is read only up to its size then).
        func read() throws(Refusal) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: size)
            var done = 0
            while done < size {
                let count = bytes.withUnsafeMutableBytes { buffer in
                    pread(descriptor, buffer.baseAddress.map { $0 + done }, size - done, off_t(done))
                }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    if count == 0 { break }
                    throw .unreadable(String(cString: strerror(errno)))
                }
                done += count
            }
            if done < size { bytes.removeSubrange(done...) }
            return bytes
        }
    }

    /// Opens `relative` below the root, or says why not.
    func open(_ relative: String, maxBytes: Int) throws(Refusal) -> OpenFile {
        let components = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.contains("\0"),
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { throw .notFound }
        guard let rootPath = Self.resolved(root.path),
              let filePath = Self.resolved(rootPath + "/" + relative),
              filePath.hasPrefix(rootPath + "/") else { throw .notFound }
        let descriptor = Glibc.open(filePath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .notFound }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
              let opened = Self.path(ofDescriptor: descriptor), opened.hasPrefix(rootPath + "/") else {
            close(descriptor)
            throw .notFound
        }
        let size = Int(info.st_size)
        guard size <= maxBytes else {
            close(descriptor)
            throw .tooLarge(size)
        }
        return OpenFile(descriptor: descriptor, info: info)
    }

    /// `path` with every symlink, `.` and `..` resolved; nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The path the kernel has for an open descriptor.
    static func path(ofDescriptor descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
