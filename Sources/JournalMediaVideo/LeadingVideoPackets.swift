import CFFmpeg
import JournalMediaCore

/// The first few packets of an MPEG-TS/M2TS file's H.264 video stream, as bytes: where AVCHD
/// camcorders keep their recording date (an SEI message, read by `AVCHDRecordingDate` in the
/// metadata target). Other containers and codecs give no packets: MP4/MOV and Matroska carry
/// their dates in the container.
///
/// Runs at probe time, right after the open (`ContainerMetadataReader`, `MediaFile`); costs
/// reading at most `packetLimit` packets of the file (in practice the packets stream probing
/// already buffered), no decoding. Afterwards the demuxer is put back at the file's start,
/// so a poster read that cannot seek still begins at the first frame.
enum LeadingVideoPackets {
    /// Video packets kept (ExifTool looks at the first access unit and one more).
    static let videoPacketLimit = 3
    /// Packets of any stream read before giving up.
    static let packetLimit = 64
    /// Bytes kept per packet: an SEI sits before the slices, at the start of the access unit.
    static let bytesPerPacket = 64 * 1024

    static func read(_ context: UnsafeMutablePointer<AVFormatContext>) -> [[UInt8]] {
        guard LibavRuntime.string(context.pointee.iformat?.pointee.name) == "mpegts" else { return [] }
        let count = Int(context.pointee.nb_streams)
        guard count > 0, let list = context.pointee.streams else { return [] }
        let h264 = (0..<count).compactMap { list[$0] }.filter {
            $0.pointee.codecpar?.pointee.codec_id == AV_CODEC_ID_H264 && !MediaFile.isAttachedPicture($0)
        }.map { $0.pointee.index }
        guard !h264.isEmpty, let packet = try? LibavPacket() else { return [] }
        var kept: [[UInt8]] = []
        var read = 0
        while read < packetLimit, kept.count < videoPacketLimit, av_read_frame(context, packet.pointer) >= 0 {
            read += 1
            defer { packet.unreference() }
            let p = packet.pointer.pointee
            guard h264.contains(p.stream_index), let data = p.data, p.size > 0 else { continue }
            kept.append(Array(UnsafeBufferPointer(start: data, count: min(Int(p.size), bytesPerPacket))))
        }
        _ = MediaFile.seekToFirstByte(context)
        return kept
    }
}
