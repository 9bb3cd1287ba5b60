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

    /// Opens `path`, or gives the reason it cannot be read: the `errno` text, or "not a
    /// regular file" for folders, devices and pipes.
    package static func open(_ path: String) -> Result<RegularFile, RegularFileError> {
        open(pathBytes: Array(path.utf8))
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
        return .success(RegularFile(descriptor: fd, size: Int(info.st_size), modified: modified))
    }
}

/// Why an input could not be opened (the `errno` text, or "not a regular file").
package struct RegularFileError: Error {
    package var message: String
}
