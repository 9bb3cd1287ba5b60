import CFFmpeg

/// One coded still picture (a HEIF item or grid tile, an AVIF item) through an opened
/// libavcodec decoder, as one key packet: send, receive, and when the decoder holds the
/// picture back (HEVC's reorder delay, dav1d until the end of the stream) drain it and reset
/// the decoder for the next picture. Shared by `HEVCTileDecoder` and `AV1ImageDecoder`.
///
/// Runs on the calling thread; costs one copy of the coded bytes into the packet plus the
/// decode itself.
enum StillPictureDecode {
    /// Decodes `coded` into `frame` (both `frame` and `packet` are unreferenced first).
    /// `codec` names the decoder in the errors. Throws when the data is empty, the decoder
    /// rejects it, returns no picture, or flags the picture as corrupt.
    static func decode(_ coded: [UInt8], codec: String, context: UnsafeMutablePointer<AVCodecContext>,
                       packet: LibavPacket, into frame: LibavFrame) throws(LibavFailure) {
        frame.unreference()
        packet.unreference()
        guard !coded.isEmpty, coded.count < Int(Int32.max) else { throw LibavFailure("empty \(codec) image") }
        let allocated = av_new_packet(packet.pointer, Int32(coded.count))
        guard allocated >= 0, let data = packet.pointer.pointee.data else { throw LibavFailure("packet", code: allocated) }
        coded.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { UnsafeMutableRawPointer(data).copyMemory(from: base, byteCount: bytes.count) }
        }
        packet.pointer.pointee.flags |= AV_PKT_FLAG_KEY
        let sent = avcodec_send_packet(context, packet.pointer)
        packet.unreference()
        guard sent >= 0 else { throw LibavFailure("\(codec) decode", code: sent) }
        var received = avcodec_receive_frame(context, frame.pointer)
        if received == LibavRuntime.tryAgain {
            _ = avcodec_send_packet(context, nil)
            received = avcodec_receive_frame(context, frame.pointer)
            avcodec_flush_buffers(context)
        }
        guard received >= 0 else { throw LibavFailure("\(codec) decode", code: received) }
        guard frame.pointer.pointee.decode_error_flags == 0, frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT == 0 else {
            throw LibavFailure("\(codec) picture decoded with errors")
        }
    }
}
