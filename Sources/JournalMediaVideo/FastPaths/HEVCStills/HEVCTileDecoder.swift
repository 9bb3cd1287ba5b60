import CFFmpeg
import JournalMediaCore

/// One libavcodec HEVC decoder configured from a HEIF item's `hvcC` record (libavcodec's
/// hevc decoder parses hvcC extradata and the length-prefixed NAL units HEIF stores), on one
/// thread unless told otherwise, fed one coded image (a whole item or one grid tile) per packet.
///
/// Made once per HEIC by `HEIFHEVCDecoder` and reused for every tile (a grid decoded on two
/// cores has a second one, `sibling()`, on the helper thread); the context is freed in
/// `deinit`. Costs the HEVC decode of each tile, the bulk of a HEIC's time.
package final class HEVCTileDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>
    private let packet: LibavPacket
    private let configuration: [UInt8]
    private let skipLoopFilter: Bool

    /// `skipLoopFilter`: leave out HEVC's in-loop filters (deblocking, SAO; libavcodec's
    /// `skip_loop_filter`), for pictures that are shrunk at least 2× afterwards, where the
    /// block edges they smooth are averaged away by the resampler anyway.
    /// `sliceThreads`: libavcodec's slice threads for one picture (more than 1 helps only a
    /// stream coded with wavefronts or several slices): 2 for a single-item HEIC while the
    /// scheduler has a spare core (docs/heic.md, "Two cores for a lone HEIC").
    package init(configuration: [UInt8], skipLoopFilter: Bool = false, sliceThreads: Int = 1) throws(LibavFailure) {
        self.configuration = configuration
        self.skipLoopFilter = skipLoopFilter
        try LibavRuntime.configure(.codec)
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_HEVC) else { throw LibavFailure("no HEVC decoder in libavcodec") }
        guard let context = avcodec_alloc_context3(codec) else { throw LibavFailure("out of memory") }
        self.context = context
        packet = try LibavPacket()
        let padding = Int(AV_INPUT_BUFFER_PADDING_SIZE)
        guard let extradata = av_mallocz(configuration.count + padding) else { throw LibavFailure("out of memory") }
        configuration.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { extradata.copyMemory(from: base, byteCount: bytes.count) }
        }
        context.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        context.pointee.extradata_size = Int32(configuration.count)
        context.pointee.thread_count = Int32(max(1, sliceThreads))
        if sliceThreads > 1 { context.pointee.thread_type = FF_THREAD_SLICE }
        if skipLoopFilter { context.pointee.skip_loop_filter = AVDISCARD_ALL }
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else { throw LibavFailure("HEVC decoder", code: opened) }
    }

    /// Another decoder configured as this one (for a second thread).
    package func sibling() throws(LibavFailure) -> HEVCTileDecoder {
        try HEVCTileDecoder(configuration: configuration, skipLoopFilter: skipLoopFilter)
    }

    deinit {
        var freeing: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&freeing)
    }

    /// Decodes one coded image into `frame` (which is unreferenced first). Throws when the
    /// decoder rejects the data, returns no picture, or flags the picture as corrupt.
    package func decode(_ coded: [UInt8], into frame: LibavFrame) throws(LibavFailure) {
        try StillPictureDecode.decode(coded, codec: "HEVC", context: context, packet: packet, into: frame)
    }
}
