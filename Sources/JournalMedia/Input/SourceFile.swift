import Foundation

/// An input file read once: its bytes, size, modification time and SHA-256. The file is
/// opened read-only and never written.
///
/// Images are held whole in `bytes`, which every later stage works from. Movies and audio
/// files are decoded by libavformat straight from the file, so only their first
/// `mediaHeadLength` bytes are kept (enough to recognise the format) and the rest is streamed
/// through the digest in 1 MiB reads: a 2 GB movie costs 1 MiB of memory, not 2 GB.
///
/// Costs one sequential read of the whole file plus its SHA-256 (about 0.5 ms per MB).
public struct SourceFile: Sendable {
    public let url: URL
    /// The whole file, or for a movie or audio file (`isHeadOnly`) its first bytes.
    public let bytes: [UInt8]
    /// The file's size in bytes.
    public let size: Int
    public let modified: Double
    public let sha256: String

    /// True when `bytes` holds only the head of a movie or audio file.
    public var isHeadOnly: Bool { bytes.count < size }

    static let mediaHeadLength = 64 * 1024
    private static let chunkLength = 1 << 20

    /// Reads `url`. Throws an `AssetError` at stage `read` naming the file.
    public static func read(_ url: URL, displayName: String? = nil) throws(AssetError) -> SourceFile {
        let name = displayName ?? url.path
        func failure(_ message: String) -> AssetError { AssetError(file: name, stage: .read, message: message) }
        let file: RegularFile
        switch RegularFile.open(url.path) {
        case .success(let opened): file = opened
        case .failure(let error): throw failure(error.message)
        }
        let fd = file.descriptor
        defer { close(fd) }
        let expected = file.size, modified = file.modified
        let digest = ContentDigest()

        var head = [UInt8](repeating: 0, count: min(expected, mediaHeadLength))
        let headRead = try fill(&head, from: fd, failure: failure)
        head.removeLast(head.count - headRead)
        let isMedia = FormatSniffer.sniff(head.prefix(FormatSniffer.prefixLength)).map { $0.isVideo || $0.isAudio } ?? false
        if isMedia && headRead < expected {
            head.withUnsafeBytes { digest.update($0) }
            var chunk = [UInt8](repeating: 0, count: chunkLength)
            var total = headRead
            while true {
                let n = try fill(&chunk, from: fd, failure: failure)
                if n == 0 { break }
                chunk.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
                total += n
            }
            return SourceFile(url: url, bytes: head, size: total, modified: modified, sha256: digest.hex())
        }

        var bytes = head
        if headRead == head.count && expected > headRead {
            // One allocation of the whole size, the head copied in, the rest read in place.
            bytes.reserveCapacity(expected)
            bytes += repeatElement(0, count: expected - headRead)
            let restRead = bytes.withUnsafeMutableBytes { whole in
                readFully(into: UnsafeMutableRawBufferPointer(rebasing: whole[headRead...]), from: fd)
            }
            guard restRead >= 0 else { throw failure(String(cString: strerror(Int32(-restRead)))) }
            bytes.removeLast(expected - headRead - restRead)
        }
        bytes.withUnsafeBytes { digest.update($0) }
        return SourceFile(url: url, bytes: bytes, size: bytes.count, modified: modified, sha256: digest.hex())
    }

    /// Reads until `buffer` is full or the file ends; returns the bytes read.
    private static func fill(_ buffer: inout [UInt8], from fd: Int32,
                             failure: (String) -> AssetError) throws(AssetError) -> Int {
        let n = buffer.withUnsafeMutableBytes { readFully(into: $0, from: fd) }
        guard n >= 0 else { throw failure(String(cString: strerror(Int32(-n)))) }
        return n
    }

    /// Reads until `raw` is full or the file ends: the bytes read, or −errno.
    private static func readFully(into raw: UnsafeMutableRawBufferPointer, from fd: Int32) -> Int {
        guard let base = raw.baseAddress else { return 0 }
        var filled = 0
        while filled < raw.count {
            let n = Foundation.read(fd, base + filled, raw.count - filled)
            if n < 0 {
                if errno == EINTR { continue }
                return -Int(errno)
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
