import CFFmpeg
import JournalMediaCore

/// One libavcodec `libdav1d` decoder for one AVIF image item: one thread and low-delay mode,
/// so dav1d keeps a single frame (no frame threads, no queued pictures), and libavcodec's
/// `max_pixels` as its frame size limit. The item's OBUs are sent as one packet; when they
/// carry no sequence header, the `av1C` record's configuration OBUs are put in front.
///
/// Made once per AVIF by `AVIFAV1Decoder`; the context is freed in `deinit`. Costs the AV1
/// decode (the larger part of an AVIF's cost, growing with its pixels) and dav1d's picture: 1.5 bytes per
/// pixel for 8-bit 4:2:0, up to 6 for 10/12-bit 4:4:4, plus its per-frame block state.
final class AV1ImageDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>
    private let packet: LibavPacket
    private let configurationOBUs: [UInt8]

    /// `configuration`: the `av1C` payload (4 bytes of fields, then configuration OBUs).
    init(configuration: [UInt8], maximumPixels: Int) throws(LibavFailure) {
        try LibavRuntime.configure(.codec)
        // Only dav1d: libavcodec 5.1's own `av1` decoder needs a hardware accelerator.
        guard let codec = avcodec_find_decoder_by_name("libdav1d") else { throw LibavFailure("no libdav1d decoder in libavcodec") }
        guard let context = avcodec_alloc_context3(codec) else { throw LibavFailure("out of memory") }
        self.context = context
        packet = try LibavPacket()
        configurationOBUs = Array(configuration.dropFirst(4))
        context.pointee.thread_count = 1
        // libavcodec 5.1 passes this to dav1d as max_frame_delay = 1.
        context.pointee.flags |= Int32(AV_CODEC_FLAG_LOW_DELAY)
        context.pointee.max_pixels = Int64(max(1, maximumPixels))
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw LibavFailure("AV1 decoder", code: opened) }
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&freeing)
    }

    /// Decodes one item's OBUs into `frame` (unreferenced first). Throws when dav1d rejects
    /// the data, returns no picture, or flags it as corrupt.
    func decode(_ coded: [UInt8], into frame: LibavFrame) throws(LibavFailure) {
        guard !coded.isEmpty else { throw LibavFailure("empty AV1 image") }
        let data = AV1OBUs.startsWithSequenceHeader(coded) ? coded : configurationOBUs + coded
        try StillPictureDecode.decode(data, codec: "AV1", context: context, packet: packet, into: frame)
    }
}

/// The little of the AV1 OBU syntax (AV1 spec 5.3) the still decoder needs: whether a
/// temporal unit carries its own sequence header. Pure Swift; reads OBU headers only.
enum AV1OBUs {
    static let sequenceHeader = 1
    static let temporalDelimiter = 2

    /// Whether a sequence header OBU comes before the first OBU of any other type than a
    /// temporal delimiter or padding. False for malformed data (the caller then adds one).
    static func startsWithSequenceHeader(_ data: [UInt8]) -> Bool {
        var offset = 0
        while offset < data.count {
            let header = data[offset]
            let type = Int(header >> 3) & 0x0F
            if type == sequenceHeader { return true }
            guard type == temporalDelimiter || type == 15, header & 0x02 != 0 else { return false }
            offset += header & 0x04 != 0 ? 2 : 1
            // leb128 payload size.
            var size = 0
            for index in 0..<8 {
                guard offset < data.count else { return false }
                let byte = data[offset]
                offset += 1
                size |= Int(byte & 0x7F) << (7 * index)
                if byte & 0x80 == 0 { break }
            }
            guard size >= 0, size <= data.count - offset else { return false }
            offset += size
        }
        return false
    }
}
