import Foundation
import JournalMediaCore
import JournalMediaMetadata

/// Finds and reads the XMP sidecar beside a file, as Lightroom, darktable, digiKam and Immich
/// write and read them: `IMG_0001.JPG.xmp` (darktable, digiKam) first, then
/// `IMG_0001.xmp` (Lightroom, Capture One), either extension in any case. The sidecar gives
/// the file a capture date (see `CaptureDateResolver`); the sidecar itself is not an asset.
///
/// Two ways to look: `listing()` reads each folder's entries once and keeps only the names
/// ending in `.xmp` (a batch or an `inspect` run: one `readdir` per folder, nothing per file,
/// and no cost at all for files whose folder holds no sidecar); `direct` tries the four
/// usual spellings with `open(2)` (one file on its own: no listing of a large folder). A
/// sidecar larger than `XMPPacket.maximumBytes` or not a regular file is ignored.
///
/// Thread-safe; a listing object is meant to live for one run (folders are not re-read).
public final class XMPSidecars: @unchecked Sendable {
    private let listsFolders: Bool
    private let lock = NSLock()
    /// Folder path → lower-cased sidecar name → the name on disk.
    private var folders: [String: [String: String]] = [:]

    private init(listsFolders: Bool) { self.listsFolders = listsFolders }

    /// Lists each folder once, on first use, for the life of the object (one run).
    public static func listing() -> XMPSidecars { XMPSidecars(listsFolders: true) }

    /// No listing: tries `NAME.xmp`, `NAME.XMP`, `STEM.xmp`, `STEM.XMP` directly.
    public static let direct = XMPSidecars(listsFolders: false)

    /// The sidecar of the file at `url` (its path on disk and its packet), or nil when there
    /// is none or it cannot be read.
    package func sidecar(of url: URL) -> (path: String, packet: XMPPacket)? { sidecar(atPath: url.path) }

    /// As `sidecar(of:)`, for the file at `path` (absolute). `roots`: where the sidecar must
    /// lie, as for the file beside it (`PlannedAsset.confinement`): a sidecar that is a
    /// symbolic link to a file outside the inputs is not read; nil: anywhere.
    package func sidecar(atPath path: String, confinedTo roots: [[UInt8]]? = nil) -> (path: String, packet: XMPPacket)? {
        // One look at the path's text: `URL`'s path-component helpers and `NSString` cost more
        // than the rest of an inspect of a small JPEG when run for every file.
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let folder = path[..<slash].isEmpty ? "/" : String(path[..<slash])
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty else { return nil }
        // A listing: most folders hold no sidecar, and then nothing else is done.
        let names = listsFolders ? sidecarNames(in: folder) : [:]
        if listsFolders && names.isEmpty { return nil }
        guard !name.lowercased().hasSuffix(".xmp") else { return nil }
        let stem = name.lastIndex(of: ".").map { String(name[..<$0]) } ?? name
        let hasStem = !stem.isEmpty && stem != name
        if listsFolders {
            for candidate in hasStem ? [name + ".xmp", stem + ".xmp"] : [name + ".xmp"] {
                if let onDisk = names[candidate.lowercased()], let packet = read(folder + "/" + onDisk, roots) {
                    return (folder + "/" + onDisk, packet)
                }
            }
            return nil
        }
        var candidates = [name + ".xmp", name + ".XMP"]
        if hasStem { candidates += [stem + ".xmp", stem + ".XMP"] }
        for candidate in candidates {
            if let packet = read(folder + "/" + candidate, roots) { return (folder + "/" + candidate, packet) }
        }
        return nil
    }

    /// The `.xmp` names in `folder`, listed once.
    private func sidecarNames(in folder: String) -> [String: String] {
        lock.lock()
        if let known = folders[folder] {
            lock.unlock()
            return known
        }
        lock.unlock()
        var names: [String: String] = [:]
        if let stream = opendir(folder) {
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.count > 4, name.lowercased().hasSuffix(".xmp") { names[name.lowercased()] = name }
            }
            closedir(stream)
        }
        lock.lock()
        folders[folder] = names
        lock.unlock()
        return names
    }

    /// The packet in the regular file at `path`, within the size bound and inside `roots`.
    private func read(_ path: String, _ roots: [[UInt8]]?) -> XMPPacket? {
        guard case .success(let file) = RegularFile.open(pathBytes: Array(path.utf8), confinedTo: roots) else { return nil }
        let bytes = FileBytes(file: file, cacheHead: false)
        guard bytes.size > 0, bytes.size <= XMPPacket.maximumBytes, let content = bytes.read(0, bytes.size) else { return nil }
        return XMPPacket(content)
    }
}
