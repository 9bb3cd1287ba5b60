import CFFmpeg
import JournalMediaCore

/// libavformat writing into memory through a custom `AVIOContext` whose write and seek
/// callbacks work on a growing byte array: the MP4 muxer seeks back to patch sizes, which
/// `avio_open_dyn_buf` cannot do, and no path or protocol is ever handed to libav. The
/// pipeline then writes the bytes atomically like any rendition.
///
/// One per encoded clip; costs one 64 KiB I/O buffer and the clip's size in memory.
final class MemoryOutput {
    final class State {
        var bytes: [UInt8] = []
        var position = 0
    }

    let state = State()
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    static let bufferSize = 64 * 1024

    init?() {
        guard let buffer = av_malloc(Self.bufferSize) else { return nil }
        let opaque = Unmanaged.passUnretained(state).toOpaque()
        let write: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque, source, count in
            guard let opaque, let source, count > 0 else { return 0 }
            let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
            let n = Int(count), end = state.position + n
            if end > state.bytes.count { state.bytes.append(contentsOf: repeatElement(0, count: end - state.bytes.count)) }
            state.bytes.withUnsafeMutableBytes { target in
                guard let base = target.baseAddress else { return }
                (base + state.position).copyMemory(from: source, byteCount: n)
            }
            state.position = end
            return count
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return -1 }
            let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
            return AVIOSeek.apply(offset, whence: whence, position: &state.position, size: state.bytes.count)
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize),
                                               1, opaque, nil, write, seek) else {
            av_free(buffer)
            return nil
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        self.context = context
    }

    deinit {
        if let context {
            av_freep(&context.pointee.buffer)
            var freeing: UnsafeMutablePointer<AVIOContext>? = context
            avio_context_free(&freeing)
        }
    }
}
