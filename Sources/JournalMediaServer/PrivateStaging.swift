import Foundation

/// A private folder for one request's uploaded files: made by `mkdtemp` under the
/// temporary folder (`$TMPDIR`, else `/tmp`) as `jm-suggestion-XXXXXX` — mode 0700, a name
/// no other process can guess or create first — with every folder below it 0700 and every
/// file 0600, created exclusively (`O_EXCL | O_NOFOLLOW`), so another local user can neither
/// read the uploads nor plant a file or link in their place. Removed, with everything in
/// it, by `remove()`.
///
/// Made once per `POST /v1/suggestions`; costs one `mkdtemp`, one `mkdir` per new folder
/// and one write per staged file.
struct PrivateStaging {
    let url: URL

    /// Creates the folder.
    static func make() throws(ProblemResponse) -> PrivateStaging {
        let template = FileManager.default.temporaryDirectory.appendingPathComponent("jm-suggestion-XXXXXX").path
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard made != nil else { throw failure("create a staging folder", code: errno) }
        let path = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PrivateStaging(url: URL(fileURLWithPath: path, isDirectory: true))
    }

    /// Creates the folder `relativePath` (and those above it) below the staging folder.
    func makeFolder(_ relativePath: String) throws(ProblemResponse) {
        var folder = url.path
        for component in relativePath.split(separator: "/") {
            guard component != "." && component != ".." else { throw Self.failure("stage \(relativePath)", code: EINVAL) }
            folder += "/" + component
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw Self.failure("create the staging folder \(relativePath)", code: errno)
            }
        }
    }

    /// Writes `bytes` to `relativePath` (already checked: relative, no `.`/`..` segment)
    /// below the folder, creating the folders in between.
    func write(_ bytes: UnsafeRawBufferPointer, to relativePath: String) throws(ProblemResponse) {
        let components = relativePath.split(separator: "/").map(String.init)
        guard !components.isEmpty, !components.contains(where: { $0 == "." || $0 == ".." }) else {
            throw Self.failure("stage \(relativePath)", code: EINVAL)
        }
        try makeFolder(components.dropLast().joined(separator: "/"))
        let fd = open(url.path + "/" + components.joined(separator: "/"), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure("stage \(relativePath)", code: errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Self.failure("stage \(relativePath)", code: errno) }
            offset += written
        }
    }

    /// A failed system call as a 500 problem (stage `write`).
    private static func failure(_ operation: String, code: Int32) -> ProblemResponse {
        ProblemResponse(.internalServerError, "write: cannot \(operation): \(String(cString: strerror(code)))",
                        reason: "writeFailed", stage: "write")
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
