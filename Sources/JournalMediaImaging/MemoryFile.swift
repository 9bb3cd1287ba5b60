import CVips
import Foundation
import Glibc
import JournalMediaCore

/// Bytes already in memory, exposed under a file name (`/proc/self/fd/N` of a Linux memfd) for
/// the one libvips loader that reads only from a path: libvips' OpenEXR loader has no buffer
/// or source variant. The input file itself is still opened exactly once, by the probe; the
/// loader opens the memfd, never the input's path, and nothing touches the disk.
///
/// Made per EXR header read or decode; costs one copy of the file's bytes into the memfd (the
/// page cache, freed when the last descriptor closes). The descriptor closes in `deinit`: keep
/// the value alive for as long as the loader may read (libvips re-opens the path when it
/// computes pixels).
final class MemoryFile {
    private let descriptor: Int32
    /// The path a loader can open: `/proc/self/fd/N`.
    let path: String

    init(copying bytes: UnsafeRawBufferPointer, name: String) throws(VipsError) {
        let descriptor = jm_memfd_create(name)
        guard descriptor >= 0 else {
            throw VipsError(message: "cannot make an in-memory file for the \(name) loader: \(String(cString: strerror(errno)))")
        }
        var written = 0
        while written < bytes.count {
            guard let base = bytes.baseAddress else { break }
            let count = write(descriptor, base + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw VipsError(message: "cannot fill the in-memory file for the \(name) loader: \(reason)")
            }
            written += count
        }
        self.descriptor = descriptor
        self.path = "/proc/self/fd/\(descriptor)"
    }

    deinit { close(descriptor) }

    /// `error` with any memfd path (`/proc/self/fd/N`, in quotes or not) replaced by words a
    /// user can place: the loader names the path it opened, which is not the user's file.
    static func withoutPath(_ error: VipsError) -> VipsError {
        guard error.message.contains("/proc/self/fd/") else { return error }
        let message = error.message.replacingOccurrences(of: #""?/proc/self/fd/[0-9]+"?"#, with: "(the file, read from memory)",
                                                         options: .regularExpression)
        return VipsError(message: message)
    }
}
