import CFFmpeg
import JournalMediaCore

/// Owns one `AVFrame` (freed in `deinit`). A frame is reused across decodes; `unreference()`
/// drops its pixel buffers.
package final class LibavFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    package init() throws(LibavFailure) {
        try LibavRuntime.configure(.util)
        guard let frame = av_frame_alloc() else { throw LibavFailure("out of memory") }
        pointer = frame
    }

    /// A frame with its own pixel buffers of `width` × `height` in `format` (rows 32-byte
    /// aligned), for swscale to write into.
    static func allocated(width: Int, height: Int, format: AVPixelFormat) throws(LibavFailure) -> LibavFrame {
        let frame = try LibavFrame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = format.rawValue
        let status = av_frame_get_buffer(frame.pointer, 32)
        guard status >= 0 else { throw LibavFailure("output frame", code: status) }
        return frame
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&freeing)
    }

    func unreference() { av_frame_unref(pointer) }

    package var width: Int { Int(pointer.pointee.width) }
    package var height: Int { Int(pointer.pointee.height) }

    /// The planes' data pointers and strides, as swscale takes them.
    var planes: (data: [UnsafePointer<UInt8>?], strides: [Int32]) {
        let d = pointer.pointee.data, s = pointer.pointee.linesize
        let data: [UnsafeMutablePointer<UInt8>?] = [d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7]
        return (data.map { $0.map { UnsafePointer($0) } }, [s.0, s.1, s.2, s.3, s.4, s.5, s.6, s.7])
    }

    /// The first plane of a packed RGB24 frame, copied into tightly packed rows.
    func packedRGB() throws(LibavFailure) -> [UInt8] {
        let rowBytes = width * 3
        let stride = Int(pointer.pointee.linesize.0)
        guard width > 0, height > 0, stride >= rowBytes, let base = pointer.pointee.data.0 else {
            throw LibavFailure("converted frame has no pixels")
        }
        var rgb = [UInt8](repeating: 0, count: rowBytes * height)
        rgb.withUnsafeMutableBytes { out in
            guard let target = out.baseAddress else { return }
            for row in 0..<height {
                (target + row * rowBytes).copyMemory(from: base + row * stride, byteCount: rowBytes)
            }
        }
        return rgb
    }
}

/// Owns one `AVPacket` (freed in `deinit`); `unreference()` after each use.
package final class LibavPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    package init() throws(LibavFailure) {
        try LibavRuntime.configure(.codec)
        guard let packet = av_packet_alloc() else { throw LibavFailure("out of memory") }
        pointer = packet
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&freeing)
    }

    func unreference() { av_packet_unref(pointer) }
}

/// A libav call failed; the caller turns it into an `AssetError` with its stage.
package struct LibavFailure: Error {
    package var message: String
    package init(_ message: String) { self.message = message }
    package init(_ what: String, code: Int32) { message = "\(what): \(LibavRuntime.describe(code))" }
}
