import Foundation

/// Random access to a file's bytes for header walks (EXIF, XMP, boxes, chunks).
///
/// Metadata readers ask for small ranges; `FileBytes` serves them with `pread` from a
/// cached head, so reading a date never loads the pixels. `MemoryBytes` serves a file that a
/// batch has already read whole. Both are used from one thread at a time.
package protocol ByteSource {
    /// Total size in bytes.
    var size: Int { get }
    /// `count` bytes at `offset`, or nil when the range is not entirely inside the file.
    func read(_ offset: Int, _ count: Int) -> [UInt8]?
    /// Copies up to `buffer.count` bytes at `offset` into `buffer` (libav's reads, whole-file
    /// loads): the bytes copied (0 at the end), or −errno.
    func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int
}

extension ByteSource {
    package func uint8(_ offset: Int) -> UInt8? { read(offset, 1)?.first }

    package func uint16BE(_ offset: Int) -> Int? {
        read(offset, 2).map { Int($0[0]) << 8 | Int($0[1]) }
    }

    package func uint32BE(_ offset: Int) -> Int? {
        read(offset, 4).map { Int($0[0]) << 24 | Int($0[1]) << 16 | Int($0[2]) << 8 | Int($0[3]) }
    }

    package func uint32LE(_ offset: Int) -> Int? {
        read(offset, 4).map { Int($0[3]) << 24 | Int($0[2]) << 16 | Int($0[1]) << 8 | Int($0[0]) }
    }

    package func uint64BE(_ offset: Int) -> Int? {
        guard let high = uint32BE(offset), let low = uint32BE(offset + 4), high < 0x7FFF_FFFF else { return nil }
        return high << 32 | low
    }

    /// Four ASCII characters (a box type or chunk name).
    package func fourCC(_ offset: Int) -> String? {
        read(offset, 4).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Bytes already in memory (an upload, a cover picture, a file read whole).
package struct MemoryBytes: ByteSource {
    package let bytes: [UInt8]

    package init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var size: Int { bytes.count }

    package func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
        return Array(bytes[offset..<offset + count])
    }

    package func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset >= 0, offset < bytes.count, let target = buffer.baseAddress else { return 0 }
        let count = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { target.copyMemory(from: base + offset, byteCount: count) }
        }
        return count
    }
}

/// A `ByteSource` over memory the caller keeps alive for the duration of one parse.
package struct BorrowedBytes: ByteSource {
    package let bytes: UnsafeRawBufferPointer

    package init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    package var size: Int { bytes.count }

    package func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= bytes.count - count else { return nil }
        return Array(bytes[offset..<offset + count])
    }

    package func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset >= 0, offset < bytes.count, let target = buffer.baseAddress, let base = bytes.baseAddress else {
            return 0
        }
        let count = min(buffer.count, bytes.count - offset)
        target.copyMemory(from: base + offset, byteCount: count)
        return count
    }
}

/// A read-only input file, opened once: every later stage (metadata walk, whole-file load,
/// digest, libav's demuxing) reads through this one descriptor, so a file replaced on disk
/// mid-run cannot pair one file's digest with another's pixels. The first `headLength`
/// bytes are cached when asked (where JPEG, PNG and WebP keep their metadata); other ranges
/// cost one `pread` each.
///
/// Costs one `open` + `fstat`, and one 64 KiB read for the head. Used from one thread at a
/// time; the descriptor is closed when the last owner lets go.
package final class FileBytes: ByteSource, @unchecked Sendable {
    package static let headLength = 64 * 1024

    package let size: Int
    /// Modification time, seconds since 1970.
    package let modified: Double
    /// Device and inode (`RegularFile.identity`).
    package let identity: FileIdentity
    package let descriptor: Int32
    private var head: [UInt8]

    /// Opens `path` read-only. Throws the `errno` text when it cannot be opened or is not a
    /// regular file.
    package convenience init(path: String) throws(RegularFileError) {
        self.init(file: try RegularFile.open(path).get())
    }

    /// Takes ownership of an opened file and caches its head.
    package init(file: RegularFile, cacheHead: Bool = true) {
        descriptor = file.descriptor
        size = file.size
        modified = file.modified
        identity = file.identity
        head = cacheHead ? FileBytes.pread(file.descriptor, 0, min(file.size, FileBytes.headLength)) ?? [] : []
    }

    deinit { close(descriptor) }

    /// Frees the cached head (a batch keeps many probed files open at once).
    package func dropHead() { head = [] }

    /// The cached head (empty after `dropHead`).
    var cachedHead: [UInt8] { head }

    package func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        if offset + count <= head.count { return Array(head[offset..<offset + count]) }
        return FileBytes.pread(descriptor, offset, count)
    }

    package func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard let base = buffer.baseAddress, offset >= 0 else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let n = Foundation.pread(descriptor, base + filled, buffer.count - filled, off_t(offset + filled))
            if n < 0 {
                if errno == EINTR { continue }
                return filled > 0 ? filled : -Int(errno)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    private static func pread(_ fd: Int32, _ offset: Int, _ count: Int) -> [UInt8]? {
        // Read straight into uninitialised storage: zeroing 64 KiB heads first cost more than
        // the reads themselves in an inspect run.
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var filled = 0
            while filled < count, let base = buffer.baseAddress {
                let n = Foundation.pread(fd, base + filled, count - filled, off_t(offset + filled))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                filled += n
            }
            complete = filled == count
            // Bytes past a short read are never handed out (nil below), but must be set.
            if !complete, let base = buffer.baseAddress { (base + filled).initialize(repeating: 0, count: count - filled) }
            initialized = count
        }
        return complete ? bytes : nil
    }
}
