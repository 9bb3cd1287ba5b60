import CFFmpeg
import Foundation
import JournalMediaCore

/// libavformat reading through one of the toolkit's byte sources instead of opening a path
/// itself: an `AVIOContext` whose read and seek callbacks `pread` the input file the probe
/// already opened (or copy from bytes in memory). So a movie is opened exactly once, hashed
/// and decoded through the same descriptor, and libav is never handed a path or a URL to
/// resolve (no protocol is involved at all).
///
/// Made by `MediaFile` for each open; costs one 64 KiB I/O buffer. Every read also checks
/// the file's deadline, so a slow or endless input ends with `AVERROR_EXIT`.
package final class LibavInput {
    /// What the C callbacks see through their opaque pointer.
    private final class State {
        let source: any ByteSource
        let deadline: MediaDeadline
        var position = 0

        package init(source: any ByteSource, deadline: MediaDeadline) {
            self.source = source
            self.deadline = deadline
        }
    }

    private let state: State
    private(set) var context: UnsafeMutablePointer<AVIOContext>?

    static let bufferSize = 64 * 1024

    package init?(source: any ByteSource, deadline: MediaDeadline) {
        state = State(source: source, deadline: deadline)
        guard let buffer = av_malloc(Self.bufferSize) else { return nil }
        let opaque = Unmanaged.passUnretained(state).toOpaque()
        let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
            opaque, target, count in
            guard let opaque, let target, count > 0 else { return jm_averror_eof() }
            let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
            if state.deadline.hasExpired { return jm_averror_exit() }
            let n = state.source.copy(into: UnsafeMutableRawBufferPointer(start: target, count: Int(count)),
                                      at: state.position)
            if n < 0 { return Int32(clamping: -n) == 0 ? jm_averror_eof() : jm_averror(Int32(clamping: -n)) }
            if n == 0 { return jm_averror_eof() }
            state.position += n
            return Int32(n)
        }
        let seek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
            guard let opaque else { return -1 }
            let state = Unmanaged<State>.fromOpaque(opaque).takeUnretainedValue()
            return AVIOSeek.apply(offset, whence: whence, position: &state.position, size: state.source.size)
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize),
                                               0, opaque, read, nil, seek) else {
            av_free(buffer)
            return nil
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        self.context = context
    }

    deinit {
        // libav may have replaced the buffer; the context's current one is ours to free.
        if let context {
            av_freep(&context.pointee.buffer)
            var freeing: UnsafeMutablePointer<AVIOContext>? = context
            avio_context_free(&freeing)
        }
    }
}

/// The seek callback's arithmetic for the custom AVIO contexts (`LibavInput` reading, the
/// attachments' `MemoryOutput` writing): `AVSEEK_SIZE` answers the size, `SEEK_SET`/`CUR`/`END`
/// move `position` (never below 0) and answer it, anything else is -1. Pure arithmetic.
enum AVIOSeek {
    static func apply(_ offset: Int64, whence: Int32, position: inout Int, size: Int) -> Int64 {
        switch whence & ~Int32(AVSEEK_FORCE) {
        case Int32(AVSEEK_SIZE): return Int64(size)
        case SEEK_SET: position = Int(offset)
        case SEEK_CUR: position += Int(offset)
        case SEEK_END: position = size + Int(offset)
        default: return -1
        }
        position = max(0, position)
        return Int64(position)
    }
}
