/// Which file an input is on its file system: the device and inode `fstat` gives. With the
/// size and modification time it tells a re-run that an input is the very file an earlier
/// run converted, without reading it again (`convert --verify` reads and hashes anyway).
/// Costs nothing beyond the `fstat` every open makes.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64

    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}
