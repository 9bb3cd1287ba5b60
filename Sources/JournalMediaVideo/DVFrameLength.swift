import CFFmpeg

/// Whether a DV video packet holds a whole frame. DV frames have one fixed size per profile
/// (IEC 61834 / SMPTE 314M: 120,000 bytes for 525/60, 144,000 for 625/50, more for DVCPRO 50
/// and HD), which `av_dv_frame_profile` reads from the frame's own header blocks. libav's
/// raw DV demuxer hands over a cut file's last frame at full size, the missing part left as
/// it was in its buffer, and the decoder paints those blocks grey without an error; such a
/// frame is not decoded, and the poster's error says the file is cut.
///
/// Runs on each DV packet the poster step reads; costs a look at two header bytes.
enum DVFrameLength {
    /// The bytes the file really holds of this frame and the frame's size, when the packet is
    /// shorter than its profile's frame or reaches past the end of the file (`fileSize`, -1
    /// when unknown); nil for a whole frame. `want` is nil when the header names no profile
    /// (then only a packet reaching past the end of the file counts as cut).
    static func shortfall(_ packet: UnsafePointer<AVPacket>, fileSize: Int64) -> (have: Int, want: Int?)? {
        let size = Int(packet.pointee.size)
        guard let data = packet.pointee.data, size > 0 else { return nil }
        let position = packet.pointee.pos
        let inFile = position >= 0 && fileSize > 0 ? Int(max(0, min(Int64(size), fileSize - position))) : size
        // A header libav does not recognise is left to the decoder, unless the file ends inside it.
        guard let profile = av_dv_frame_profile(nil, data, UInt32(size)) else { return inFile < size ? (inFile, nil) : nil }
        let want = Int(profile.pointee.frame_size)
        return min(size, inFile) < want ? (min(size, inFile), want) : nil
    }
}
