import Foundation

/// Random access to a file's bytes for header walks (EXIF, XMP, boxes, chunks).
///
/// Metadata readers ask for small ranges; `FileBytes` serves them with `pread` from a
/// cached head, so reading a date never loads the pixels. `MemoryBytes` serves a file that a
/// batch has already read whole. Both are used from one thread at a time.
protocol ByteSource {
    /// Total size in bytes.
    var size: Int { get }
    /// `count` bytes at `offset`, or nil when the range is not entirely inside the file.
    func read(_ offset: Int, _ count: Int) -> [UInt8]?
}

extension ByteSource {
    func uint8(_ offset: Int) -> UInt8? { read(offset, 1)?.first }

    func uint16BE(_ offset: Int) -> Int? {
        read(offset, 2).map { Int($0[0]) << 8 | Int($0[1]) }
    }

    func uint32BE(_ offset: Int) -> Int? {
        read(offset, 4).map { Int($0[0]) << 24 | Int($0[1]) << 16 | Int($0[2]) << 8 | Int($0[3]) }
    }

    func uint32LE(_ offset: Int) -> Int? {
        read(offset, 4).map { Int($0[3]) << 24 | Int($0[2]) << 16 | Int($0[1]) << 8 | Int($0[0]) }
    }

    func uint64BE(_ offset: Int) -> Int? {
        guard let high = uint32BE(offset), let low = uint32BE(offset + 4), high < 0x7FFF_FFFF else { return nil }
        return high << 32 | low
    }

    /// Four ASCII characters (a box type or chunk name).
    func fourCC(_ offset: Int) -> String? {
        read(offset, 4).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Bytes already in memory.
struct MemoryBytes: ByteSource {
    let bytes: [UInt8]

    var size: Int { bytes.count }

    func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
        return Array(bytes[offset..<offset + count])
    }
}

/// A read-only file read on demand. The first `headLength` bytes are read once (where JPEG,
/// PNG and WebP keep their metadata); other ranges cost one `pread` each.
final class FileBytes: ByteSource {
    static let headLength = 64 * 1024

    let size: Int
    /// Modification time, seconds since 1970.
    let modified: Double
    private let descriptor: Int32
    private let head: [UInt8]

    /// Opens `path` read-only. Throws the `errno` text when it cannot be opened or is not a
    /// regular file.
    init(path: String) throws(RegularFileError) {
        let file = try RegularFile.open(path).get()
        descriptor = file.descriptor
        size = file.size
        modified = file.modified
        head = FileBytes.pread(file.descriptor, 0, min(size, FileBytes.headLength)) ?? []
    }

    deinit { close(descriptor) }

    func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        if offset + count <= head.count { return Array(head[offset..<offset + count]) }
        return FileBytes.pread(descriptor, offset, count)
    }

    private static func pread(_ fd: Int32, _ offset: Int, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return Foundation.pread(fd, base + filled, count - filled, off_t(offset + filled))
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            filled += n
        }
        return bytes
    }
}
