/// A window onto part of another byte source: offsets start at the window's start and no
/// read reaches outside it. An Android motion photo's embedded MP4 is read through one, so
/// libav (through `LibavInput`) sees exactly the video's bytes and never the still's.
///
/// Made per embedded video; costs nothing (reads go to the base source).
package struct ByteSlice: ByteSource {
    package let base: any ByteSource
    package let offset: Int
    package let size: Int

    /// The window `offset ..< offset + length` of `base`, clipped to it.
    package init(_ base: any ByteSource, offset: Int, length: Int) {
        self.base = base
        self.offset = max(0, min(offset, base.size))
        self.size = max(0, min(length, base.size - self.offset))
    }

    package func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size - count else { return nil }
        return base.read(self.offset + offset, count)
    }

    package func copy(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        let count = min(buffer.count, size - offset)
        return base.copy(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), at: self.offset + offset)
    }
}
