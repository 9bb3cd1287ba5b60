import CStillEncode
import CVips
import JournalMediaCore

/// What the direct encoders (`DirectWebPEncode`, `DirectJPEGEncode`) share: which images they
/// take, the work's `DecodeGuard` (handed down as `stop`) as the encoder's stop check, and the hand-over of
/// the C encoder's output.
///
/// An image qualifies when its pixels are already in memory as one contiguous buffer (a
/// libvips memory image: a decode into memory, an `InMemoryResize` output), 8-bit, uncoded,
/// and either grey (`b-w`, 1 band, 2 with alpha) or sRGB (3 bands, 4 with alpha): then the
/// encoder reads the buffer on the calling thread, where libvips' `*save_buffer` would run its
/// threaded disc sink (a worker thread per save, handing tiles back and forth with the
/// caller). Lazy images (a `smartcrop`, a `flatten`) and every other layout stay on libvips.
/// Costs one check of the image header.
enum DirectStillEncode {
    /// The image's pixel buffer and layout when a direct encoder can read it as it is, else nil.
    static func pixels(of image: VipsImageHandle) -> (data: UnsafePointer<UInt8>, bands: Int, stride: Int)? {
        guard let data = image.memoryPixels, image.width >= 1, image.height >= 1 else { return nil }
        let bands = image.bands
        switch (image.interpretation, bands) {
        case (VIPS_INTERPRETATION_B_W, 1...2), (VIPS_INTERPRETATION_sRGB, 3...4): break
        default: return nil
        }
        return (data, bands, image.width * bands)
    }

    /// The stop check handed to the C encoders: `context` is the guard (unretained; the
    /// encode runs inside the caller's scope, which holds it). Records how far the encode got.
    static let shouldStop: jm_still_encode_should_stop = { context, percent in
        guard let context else { return 0 }
        let watching = Unmanaged<DecodeGuard>.fromOpaque(context).takeUnretainedValue()
        guard watching.shouldStop else { return 0 }
        watching.noteComputationStopped(atPercent: Int(percent))
        return 1
    }

    /// Runs `encode` with `stop` (the work's guard) as its stop check, and turns its
    /// outcome into bytes or a `VipsError` (the guard's stop message when it stopped it, as
    /// `VipsInterrupt` does for libvips computations).
    static func run(_ what: String, stop current: DecodeGuard? = nil,
                    _ encode: (jm_still_encode_should_stop?, UnsafeMutableRawPointer?,
                               UnsafeMutablePointer<jm_still_encode_output>) -> jm_still_encode_status)
        throws(VipsError) -> [UInt8] {
        try VipsInterrupt.check(current)
        var output = jm_still_encode_output()
        let status = withExtendedLifetime(current) {
            encode(current == nil ? nil : shouldStop,
                   current.map { Unmanaged.passUnretained($0).toOpaque() }, &output)
        }
        defer { jm_still_encode_free(output.data) }
        switch status {
        case JM_STILL_ENCODE_OK:
            guard let data = output.data else { throw VipsError(message: "\(what): the encoder returned no data") }
            return Array(UnsafeBufferPointer(start: data, count: output.size))
        case JM_STILL_ENCODE_STOPPED:
            throw VipsError(message: VipsInterrupt.message(current?.stopReason ?? .cancelled))
        default:
            let message = withUnsafeBytes(of: output.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw VipsError(message: "\(what): \(message)")
        }
    }
}
