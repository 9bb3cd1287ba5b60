import Foundation

/// An input file read into memory once: its bytes, size, modification time and digest.
/// Every later stage works from these bytes; the file is opened read-only and never written.
///
/// Costs one `read` of the whole file plus its SHA-256.
public struct SourceFile: Sendable {
    public let url: URL
    public let bytes: [UInt8]
    public let modified: Double
    public let sha256: String

    public var size: Int { bytes.count }

    /// Reads `url`. Throws an `AssetError` at stage `read` naming the file.
    public static func read(_ url: URL, displayName: String? = nil) throws(AssetError) -> SourceFile {
        let name = displayName ?? url.path
        func failure(_ message: String) -> AssetError { AssetError(file: name, stage: .read, message: message) }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw failure("not a regular file") }
        let expected = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: expected)
        var filled = 0
        while filled < expected {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.read(fd, base + filled, expected - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(String(cString: strerror(errno)))
            }
            if n == 0 { break }
            filled += n
        }
        if filled < expected { bytes.removeLast(expected - filled) }
        let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        return SourceFile(url: url, bytes: bytes, modified: modified, sha256: ContentDigest.sha256(bytes))
    }
}
