import Foundation
import JournalMediaCore

/// Writes an asset's renditions out, the one loop `convert` (`Batch`), the service's
/// output-folder mode and suggestion bundles share: each rendition's bytes go to the store
/// under the path its caller names, in order; the path is recorded in the rendition and its
/// bytes dropped from memory. Stops at the first failure (renditions before it keep their
/// paths). Runs after a successful asset; costs one store (an atomic write and rename on
/// disk) per rendition.
public enum RenditionWriter {
    /// A rendition that could not be stored: its path and the store's error.
    public struct Failure: Error, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// Hands each rendition to `store` under `path(rendition)`.
    public static func write(_ renditions: inout [Rendition], path: (Rendition) -> String,
                             store: (_ bytes: [UInt8], _ path: String) throws -> Void) throws(Failure) {
        for index in renditions.indices {
            let name = path(renditions[index])
            do {
                try store(renditions[index].data, name)
            } catch {
                throw Failure(path: name, message: "\(error)")
            }
            renditions[index].path = name
            renditions[index].data = []
        }
    }

    /// Writes each rendition atomically at `path(rendition)` relative to `folder`
    /// (`AtomicFile.write(_:to:under:)`: no folder below it entered through a symbolic link).
    public static func write(_ renditions: inout [Rendition], under folder: URL,
                             path: (Rendition) -> String) throws(Failure) {
        try write(&renditions, path: path) { bytes, name in try AtomicFile.write(bytes, to: name, under: folder) }
    }
}
