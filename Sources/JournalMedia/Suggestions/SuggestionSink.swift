import Foundation
import Synchronization

/// Where a bundle's output files go, by their name in `suggestion.json` (`01-A1.thumbnail.webp`):
/// a folder (each file written atomically) or memory (`SuggestionResult.files`). Written
/// from several items' threads at once; the cover collage reads the items' files back.
protocol SuggestionSink: Sendable {
    func write(_ bytes: [UInt8], name: String) throws
    func read(_ name: String) -> [UInt8]?
}

/// The output folder `output/<bundleId>/`: files written atomically, read back from disk.
struct FolderSink: SuggestionSink {
    let folder: URL

    func write(_ bytes: [UInt8], name: String) throws {
        try AtomicFile.write(bytes, to: folder.appendingPathComponent(name))
    }

    func read(_ name: String) -> [UInt8]? {
        (try? Data(contentsOf: folder.appendingPathComponent(name))).map { [UInt8]($0) }
    }
}

/// The files kept in memory; nothing touches the disk.
final class MemorySink: SuggestionSink {
    private let store = Mutex<[String: [UInt8]]>([:])

    func write(_ bytes: [UInt8], name: String) throws {
        store.withLock { $0[name] = bytes }
    }

    func read(_ name: String) -> [UInt8]? { store.withLock { $0[name] } }

    var files: [String: [UInt8]] { store.withLock { $0 } }
}
