import Foundation

/// An input's content, loaded once through its probe (`ProbedAsset.load`): the bytes, size
/// and SHA-256. Its name and modification time are the probe's (`ProbedAsset`). The file was opened read-only and is never written.
///
/// Images are held whole in `bytes`, which every later stage works from. Movies and audio
/// files are decoded by libavformat through the probe's descriptor, so only their first
/// `mediaHeadLength` bytes are kept here (enough to recognise the format) and the rest was
/// streamed through the digest in 1 MiB reads: a 2 GB movie costs 1 MiB of memory, not 2 GB.
///
/// Costs one sequential read of the whole file plus its SHA-256.
public struct SourceFile: Sendable {
    /// The file, or nil for bytes given in memory. (Its name is the probe's: `ProbedAsset.name`.)
    public let url: URL?
    /// The whole file, or for a movie or audio file (`isHeadOnly`) its first bytes.
    public let bytes: [UInt8]
    /// The file's size in bytes.
    public let size: Int
    public let sha256: String

    /// True when `bytes` holds only the head of a movie or audio file.
    public var isHeadOnly: Bool { bytes.count < size }

    public static let mediaHeadLength = 64 * 1024
    public static let chunkLength = 1 << 20

    public init(url: URL?, bytes: [UInt8], size: Int, sha256: String) {
        self.url = url
        self.bytes = bytes
        self.size = size
        self.sha256 = sha256
    }

    /// The content of an input; `name` and `modified` are no longer kept here (they are the probe's).
    @available(*, deprecated, message: "name and modified are the probe's (ProbedAsset); use init(url:bytes:size:sha256:)")
    public init(url: URL?, name: String, bytes: [UInt8], size: Int, modified: Double?, sha256: String) {
        self.init(url: url, bytes: bytes, size: size, sha256: sha256)
    }
}
