import CFFmpeg
import Foundation
import JournalMediaCore

/// One audio or video file opened with libavformat: `avformat_open_input` +
/// `avformat_find_stream_info`, once. Everything else the pipeline asks of the file works from
/// this open: `videoInfo()`, `posterFrame(_:)` and `coverArt()`.
///
/// Runs when the pipeline meets a sniffed video or audio file. Opening costs the container
/// header plus libav's stream probing (at most 5 MB / 5 s of media, libav's defaults); it is
/// bounded by a 10 s wall-clock deadline. libav reads through the toolkit's own byte source
/// (`LibavInput`: the descriptor the probe opened, or bytes in memory), never a path: no
/// protocol is used, secondary opens (MOV references, playlists) are refused, and only the
/// demuxers in `allowedDemuxers` are accepted.
///
/// Owns the `AVFormatContext` (closed in `deinit`) and its input. Not Sendable: one thread.
package final class MediaFile {
    /// The name errors carry (the pipeline passes the source's display path).
    let name: String
    let context: UnsafeMutablePointer<AVFormatContext>
    let deadline: MediaDeadline
    /// Seconds allowed for the open and for each poster candidate (`--timeout`).
    package var timeLimit: Double
    /// The guard of the work on the file now (`MediaDeadline.stop`): the source that decodes
    /// it sets its own before the work.
    package var stop: DecodeGuard? {
        get { deadline.stop }
        set { deadline.stop = newValue }
    }
    /// The `max_pixels` every decoder of this file is opened with.
    package let maxPixels: Int
    private let input: LibavInput

    /// libavformat demuxers an upload may be read with: exactly the containers `FormatSniffer`
    /// admits as video or audio, i.e. QuickTime/MP4/M4A/3GP (one demuxer, which also reads the
    /// AVIF image sequences libav treats as video), AVI, MPEG-TS (also AVCHD's 192-byte
    /// packets), Matroska/WebM (one demuxer), MP3, FLAC, Ogg, DV, WAV, AIFF, FLV, MXF and raw
    /// ADTS AAC. Everything else (playlists, concat scripts, image sequences, ASF/WMV, Audible,
    /// RealMedia, exotic containers) fails at
    /// open, so an upload reaches no demuxer the pipeline does not use. The video decoders
    /// are limited likewise (`VideoCodecAllowList`).
    static let allowedDemuxers = "mov,mp4,m4a,3gp,3g2,mj2,avi,mpegts,matroska,webm,mp3,flac,ogg,dv,wav,aiff,flv,mxf,aac"

    /// Seconds allowed for opening and probing, and for each poster candidate, by default
    /// (`Defaults.decodeTimeoutSeconds`).
    package static let timeLimitSeconds = Defaults.decodeTimeoutSeconds

    /// Opens `path` (tests and tools; the pipeline opens through its probe). Throws `read`
    /// when the file cannot be opened or is not a regular file, else as `init(input:name:)`.
    package convenience init(path: String, name: String? = nil, maxPixels: Int = Defaults.maxPixels,
                             timeLimit: Double = MediaFile.timeLimitSeconds, stop: DecodeGuard? = nil) throws(AssetError) {
        let file: FileBytes
        do throws(RegularFileError) { file = try FileBytes(path: path) } catch {
            throw AssetError(file: name ?? path, stage: .read, message: error.message)
        }
        try self.init(input: file, name: name ?? path, maxPixels: maxPixels, timeLimit: timeLimit, stop: stop)
    }

    /// Opens the movie or audio file behind `source`. Throws `probe` when libavformat does
    /// not recognise it as an allowed container or cannot read its streams.
    /// - Parameter maxPixels: libavcodec's own allocation cap (`max_pixels`) for every decoder
    ///   this file opens, from stream probing on: a frame size the headers declare beyond it
    ///   is refused before any frame buffer is allocated.
    /// - Parameter timeLimit: seconds allowed for the open and stream probing, and later for
    ///   each poster candidate; past it libav's interrupt callback ends the work (`timeout`).
    /// - Parameter stop: the guard of the work on the file (`MediaDeadline`); `stop` changes it.
    package init(input source: any ByteSource, name: String, maxPixels: Int = Defaults.maxPixels,
                 timeLimit: Double = MediaFile.timeLimitSeconds, stop: DecodeGuard? = nil) throws(AssetError) {
        do throws(LibavFailure) { try LibavRuntime.configure(.format) } catch {
            // Not the file's fault, but no movie or audio file can be read here.
            throw AssetError(file: name, stage: .probe, reason: .unsupportedFormat, message: error.message)
        }
        let deadline = MediaDeadline(seconds: timeLimit, stop: stop)
        let (opened, input, status) = Self.openInput(source, deadline: deadline)
        guard let context = opened, let input else {
            if !deadline.hasExpired, let detected = Self.detectedDemuxer(source),
               Set(detected.split(separator: ",")).isDisjoint(with: Self.allowedDemuxers.split(separator: ",")) {
                throw AssetError(file: name, stage: .probe, reason: .unsupportedContainer, message: "unsupported container (\(detected))")
            }
            let reason = deadline.hasExpired ? "timed out" : LibavRuntime.describe(status)
            throw AssetError(file: name, stage: .probe, reason: deadline.hasExpired ? .timeout : nil,
                             message: "not a readable audio or video file (\(reason))")
        }
        let probed = Self.findStreamInfo(context, maxPixels: maxPixels)
        guard probed >= 0 else {
            var closing: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&closing)
            let reason = deadline.hasExpired ? "timed out" : LibavRuntime.describe(probed)
            throw AssetError(file: name, stage: .probe, reason: deadline.hasExpired ? .timeout : nil,
                             message: "cannot read the streams (\(reason))")
        }
        self.name = name
        self.maxPixels = maxPixels
        self.timeLimit = timeLimit
        self.context = context
        self.deadline = deadline
        self.input = input
    }

    /// `avformat_find_stream_info` with every stream's decoder capped at `maxPixels` and video
    /// decoders limited to `VideoCodecAllowList`: libav's status.
    static func findStreamInfo(_ context: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int) -> Int32 {
        // avformat_find_stream_info opens a decoder per stream and decodes frames to learn
        // their parameters: without the cap, an SPS claiming 16000×16000 cost ~770 MB here.
        let streamCount = Int(context.pointee.nb_streams)
        var streamOptions = [OpaquePointer?](repeating: nil, count: max(1, streamCount))
        for index in 0..<streamCount {
            av_dict_set(&streamOptions[index], "max_pixels", String(maxPixels), 0)
            // Probing decodes a few frames of each stream: a movie's video only with the
            // decoders on the allow-list (a stream of another codec keeps its header's facts
            // and is refused when a poster is asked of it). Cover pictures go to libvips.
            if let stream = context.pointee.streams?[index], isVideo(stream), !isAttachedPicture(stream) {
                av_dict_set(&streamOptions[index], "codec_whitelist", VideoCodecAllowList.decoderNames, 0)
            }
        }
        let probed = streamOptions.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        for index in streamOptions.indices { av_dict_free(&streamOptions[index]) }
        return probed
    }

    /// `avformat_open_input` over `source` through a custom `AVIOContext`, restricted to
    /// `allowedDemuxers`, with `deadline` as the interrupt callback (it must outlive the
    /// context, as must the returned input). Returns the opened context and its input, or
    /// nils and libav's status. The caller has loaded libavformat (`LibavRuntime.configure`).
    static func openInput(_ source: any ByteSource, deadline: MediaDeadline)
        -> (UnsafeMutablePointer<AVFormatContext>?, LibavInput?, Int32)
    {
        guard let input = LibavInput(source: source, deadline: deadline) else { return (nil, nil, -ENOMEM) }
        guard let allocated = avformat_alloc_context() else { return (nil, nil, -ENOMEM) }
        allocated.pointee.interrupt_callback = deadline.interruptCallback
        allocated.pointee.pb = input.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        jm_refuse_secondary_opens(allocated)
        var options: OpaquePointer?
        av_dict_set(&options, "format_whitelist", allowedDemuxers, 0)
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure avformat_open_input frees the context and sets `opened` to NULL.
        let status = avformat_open_input(&opened, nil, nil, &options)
        av_dict_free(&options)
        return status >= 0 ? (opened, input, status) : (nil, nil, status)
    }

    /// For error messages only: the demuxer libavformat's probe functions pick for the first
    /// 64 KB of the input (no demuxer is opened), nil when none matches.
    private static func detectedDemuxer(_ source: any ByteSource) -> String? {
        guard let head = source.read(0, min(source.size, FileBytes.headLength)), !head.isEmpty else { return nil }
        // AVProbeData wants AVPROBE_PADDING_SIZE (64) zero bytes after the data.
        var bytes = head + [UInt8](repeating: 0, count: 64)
        return bytes.withUnsafeMutableBufferPointer { buffer -> String? in
            var probe = AVProbeData()
            probe.buf = buffer.baseAddress
            probe.buf_size = Int32(head.count)
            var score: Int32 = 0
            guard let format = av_probe_input_format3(&probe, 1, &score), score > 0 else { return nil }
            return LibavRuntime.string(format.pointee.name)
        }
    }

    deinit {
        var closing: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&closing)
    }

    /// An `AssetError` naming this file.
    func failure(_ stage: ProcessingStage, _ message: String, reason: AssetErrorReason? = nil) -> AssetError {
        AssetError(file: name, stage: stage, reason: reason, message: message)
    }

    /// The streams in container order.
    var streams: [UnsafeMutablePointer<AVStream>] {
        let count = Int(context.pointee.nb_streams)
        guard count > 0, let list = context.pointee.streams else { return [] }
        return (0..<count).compactMap { list[$0] }
    }

    /// libavformat's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`.
    var demuxerName: String {
        LibavRuntime.string(context.pointee.iformat?.pointee.name) ?? ""
    }

    /// Container-level metadata tags (`av_dict_get` over the format context's dictionary).
    package var containerTags: [String: String] { Self.tags(context.pointee.metadata) }

    /// Every entry of a libav metadata dictionary; the first value wins for repeated keys.
    static func tags(_ dictionary: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            entry = next
            guard let key = LibavRuntime.string(next.pointee.key) else { continue }
            if result[key] == nil { result[key] = LibavRuntime.string(next.pointee.value) ?? "" }
        }
        return result
    }

    /// An MPEG-TS file's first H.264 packets, where AVCHD camcorders keep the recording date
    /// (`LeadingVideoPackets`); empty for other files. Call before the poster is read: the
    /// demuxer is put back at the file's start afterwards.
    package func leadingVideoPackets() -> [[UInt8]] { LeadingVideoPackets.read(context) }

    /// Puts the demuxer back at the file's first byte: how an MPEG-TS (no index, so a
    /// timestamp seek can land anywhere) is rewound, exactly and cheaply. False when the
    /// seek fails.
    static func seekToFirstByte(_ context: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE) >= 0
    }

    /// Container duration in seconds, else the longest stream's; nil when unknown.
    package var durationSeconds: Double? {
        let duration = context.pointee.duration
        if duration != LibavRuntime.noTimestamp, duration > 0 {
            return Double(duration) / Double(AV_TIME_BASE)
        }
        let perStream = streams.compactMap { stream -> Double? in
            let d = stream.pointee.duration
            guard d != LibavRuntime.noTimestamp, d > 0, let unit = LibavRuntime.value(stream.pointee.time_base) else { return nil }
            return Double(d) * unit
        }
        return perStream.max()
    }

    /// A picture embedded as a stream (cover art), not a video track.
    static func isAttachedPicture(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        stream.pointee.disposition & Int32(AV_DISPOSITION_ATTACHED_PIC) != 0
    }

    static func isVideo(_ stream: UnsafeMutablePointer<AVStream>) -> Bool {
        stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO
    }

    /// The video stream libav ranks best (`av_find_best_stream`), skipping cover-art pictures;
    /// when libav's pick is a picture, the largest other video stream. Throws `probe` when the
    /// file has no video.
    func videoStream() throws(AssetError) -> UnsafeMutablePointer<AVStream> {
        let all = streams
        let best = Int(av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0))
        if best >= 0, best < all.count, !Self.isAttachedPicture(all[best]) { return all[best] }
        let candidates = all.filter { Self.isVideo($0) && !Self.isAttachedPicture($0) }
        let largest = candidates.max { a, b in
            guard let pa = a.pointee.codecpar, let pb = b.pointee.codecpar else { return false }
            return Int(pa.pointee.width) * Int(pa.pointee.height) < Int(pb.pointee.width) * Int(pb.pointee.height)
        }
        guard let largest else { throw failure(.probe, "no video stream", reason: .noVideo) }
        return largest
    }
}
