import Foundation

/// A regular file opened read-only: its descriptor, size and modification time. The one
/// place inputs are opened (`SourceFile`, `FileBytes`); the owner closes the descriptor.
///
/// Costs one `open` and one `fstat`.
package struct RegularFile {
    package let descriptor: Int32
    package let size: Int
    /// Modification time, seconds since 1970.
    package let modified: Double
    /// The file's identity on its file system (`st_dev`, `st_ino`): a re-run tells a file
    /// replaced under the same name, size and time from the one it converted before.
    package let identity: FileIdentity

    /// Opens `path`, or gives the reason it cannot be read: the `errno` text, or "not a
    /// regular file" for folders, devices and pipes.
    package static func open(_ path: String) -> Result<RegularFile, RegularFileError> {
        open(pathBytes: Array(path.utf8))
    }

    /// Opens `pathBytes` (as `open(pathBytes:)`) and then checks what was opened: the file the
    /// descriptor holds, as the kernel names it (`/proc/self/fd/N`), must lie inside one of
    /// `roots` (canonical folder or file paths, as bytes). A symbolic link on the path that
    /// was retargeted after the folder walk checked it (to a file outside the inputs) is thus
    /// refused after the one open, before a byte is read; nil `roots` checks nothing.
    /// Costs one `readlink` beyond `open(pathBytes:)`.
    package static func open(pathBytes: [UInt8], confinedTo roots: [[UInt8]]?) -> Result<RegularFile, RegularFileError> {
        let opened = open(pathBytes: pathBytes)
        guard let roots, case .success(let file) = opened else { return opened }
        guard let actual = openedPath(file.descriptor) else {
            let message = String(cString: strerror(errno))
            close(file.descriptor)
            return .failure(RegularFileError(message: "cannot check where the opened file lies (/proc/self/fd: \(message))"))
        }
        guard roots.contains(where: { root in
            let folder = root.last == 0x2F ? root : root + [0x2F]
            return actual == root || actual.starts(with: folder)
        }) else {
            close(file.descriptor)
            return .failure(RegularFileError(message: "the file opened lies outside the inputs (a symbolic link on "
                                                 + "its path changed after the folder was read); not read"))
        }
        return opened
    }

    /// The path of the file `descriptor` holds, as bytes (`readlink` of `/proc/self/fd/N`);
    /// nil when it cannot be read.
    private static func openedPath(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard count > 0, count < buffer.count - 1 else { return nil }
        return buffer[0..<count].map { UInt8(bitPattern: $0) }
    }

    /// Opens the file whose path is `pathBytes` as the file system spells it (a name that is
    /// not valid UTF-8 cannot be a Swift `String` without losing bytes).
    package static func open(pathBytes: [UInt8]) -> Result<RegularFile, RegularFileError> {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever;
        // this way it opens at once and fails the regular-file check below. Reads from
        // regular files are unaffected by the flag.
        let fd = FileNameEscaping.withCPath(pathBytes) { Foundation.open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return .failure(RegularFileError(message: String(cString: strerror(errno)))) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            return .failure(RegularFileError(message: message))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return .failure(RegularFileError(message: "not a regular file"))
        }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        let identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        return .success(RegularFile(descriptor: fd, size: Int(info.st_size), modified: modified, identity: identity))
    }
}

/// Why an input could not be opened (the `errno` text, or "not a regular file").
package struct RegularFileError: Error {
    package var message: String
}
