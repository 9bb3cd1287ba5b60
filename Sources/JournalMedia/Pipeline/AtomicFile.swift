import Foundation
import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// Writes a file so that its final name only ever holds complete contents: the bytes go to
/// a hidden temporary file in the same folder (`.<name>.<random>.jmtmp`), which is then
/// renamed over the final name. A process killed at any moment leaves at most a stray
/// temporary file, which the next batch removes.
///
/// Costs one create, write and rename; no fsync (a killed process loses nothing already
/// written; surviving power loss is not promised).
public enum AtomicFile {
    public static let temporarySuffix = ".jmtmp"

    public static func write(_ bytes: some ContiguousBytes, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(
            ".\(url.lastPathComponent).\(UInt32.random(in: 0...UInt32.max))\(temporarySuffix)")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXFailure(operation: "create \(temporary.path)", code: errno) }
        var failure: POSIXFailure?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let n = Foundation.write(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = POSIXFailure(operation: "write \(temporary.path)", code: errno)
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0 && failure == nil { failure = POSIXFailure(operation: "close \(temporary.path)", code: errno) }
        if failure == nil && rename(temporary.path, url.path) != 0 {
            failure = POSIXFailure(operation: "rename to \(url.path)", code: errno)
        }
        if let failure {
            unlink(temporary.path)
            throw failure
        }
    }

    /// Deletes temporary files left by a killed run anywhere below `folder`.
    public static func removeLeftovers(in folder: URL) {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return }
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") && name.hasSuffix(temporarySuffix) {
                unlink(folder.appendingPathComponent(relative).path)
            }
        }
    }
}

/// A failed system call, with what was attempted and `strerror`'s text.
public struct POSIXFailure: Error, CustomStringConvertible {
    public var operation: String
    public var code: Int32
    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
