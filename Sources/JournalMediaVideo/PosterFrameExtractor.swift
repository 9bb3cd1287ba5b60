import CFFmpeg
import JournalMediaCore

extension MediaFile {
    /// The poster frame of this file's best video stream, upright, 8-bit RGB, at most
    /// `options.maxDimension` on its longer side. See `PosterFrameExtractor` for how the frame
    /// is chosen and what it costs. Throws `probe` (no video stream), `decode` (no decoder, no
    /// decodable frame, conversion failure) naming this file.
    package func posterFrame(_ options: PosterOptions = PosterOptions()) throws(AssetError) -> PosterFrame {
        let extractor = try PosterFrameExtractor(media: self, options: options)
        return try extractor.extract()
    }
}

/// Chooses and converts a video's poster frame from an open `MediaFile`, without decoding the
/// whole video:
///
/// 1. Candidate times: min(10 % of the duration, 5 s) (0 for clips under 1 s or of unknown
///    length), then 25 %, 50 % and 75 %; at most `PosterOptions.maxCandidates` of them.
/// 2. For each: `av_seek_frame(…, AVSEEK_FLAG_BACKWARD)` to the keyframe at or before it, flush
///    the decoder, read packets of the stream with `skip_frame = AVDISCARD_NONKEY` (non-key
///    frames are discarded, like `ffmpeg -skip_frame nokey`) up to the first keyframe packet,
///    then drain the decoder so that frame comes out without waiting for later packets. If
///    keyframes-only yields nothing (streams that flag no keyframes, or a flagged packet that
///    does not decode alone), the same candidate is decoded once more without skipping. A
///    candidate landing on a keyframe an earlier one already gave is skipped.
///    When no candidate gives a frame (a short clip whose seeks all land past its only
///    keyframe, as MPEG-TS timestamp seeks do), the stream's first keyframe is decoded from
///    its start.
/// 3. Convert it to RGB at poster size: swscale with the frame's matrix and range for SDR
///    (`SDRFrameConverter`); swscale to 16-bit RGB + a table-driven tone curve for
///    HLG/PQ/BT.2020 (`HDRToneMapper`, falling back to swscale if it rejects the frame).
/// 4. Judge it (`PosterQuality`): the first acceptable candidate wins; when none is, the
///    best-scoring one is kept.
/// 5. Rotate the winner by the display matrix (`RGBRotation`).
///
/// Runs once per video asset. Costs per candidate: one seek, decoding of one keyframe and one
/// conversion at poster size; a normal video needs
/// one candidate. Bounded by 3,000 packets and `MediaFile.timeLimit` (`--timeout`) per candidate.
package struct PosterFrameExtractor {
    let media: MediaFile
    let stream: UnsafeMutablePointer<AVStream>
    let decoder: VideoDecoder
    let packet: LibavPacket
    let frame: LibavFrame
    let options: PosterOptions
    /// What the candidates read, for the error when no frame decodes.
    let attempts = DecodeAttempts()

    /// DV packets are checked for whole frames (`DVFrameLength`).
    var isDV: Bool { stream.pointee.codecpar?.pointee.codec_id == AV_CODEC_ID_DVVIDEO }

    /// Packets of the video stream read per candidate before giving up on it.
    static let packetLimit = 3_000

    package init(media: MediaFile, options: PosterOptions) throws(AssetError) {
        self.media = media
        self.options = options
        stream = try media.videoStream()
        if let id = stream.pointee.codecpar?.pointee.codec_id, VideoCodecAllowList.decoderName(for: id) == nil {
            throw media.failure(.decode, "\(VideoCodecAllowList.codecName(id)) video is not on the decoder allow-list",
                                reason: .unsupportedCodec)
        }
        do {
            decoder = try VideoDecoder(stream: stream, maxPixels: media.maxPixels)
            packet = try LibavPacket()
            frame = try LibavFrame()
        } catch {
            throw media.failure(.decode, error.message)
        }
    }

    /// Seek positions in seconds from the stream's start.
    static func candidateTimes(duration: Double?, limit: Int) -> [Double] {
        let count = max(1, limit)
        guard let duration, duration.isFinite, duration > 0 else { return [0] }
        let first = duration < 1 ? 0 : min(duration * 0.1, 5)
        return Array([first, duration * 0.25, duration * 0.5, duration * 0.75].prefix(count))
    }

    func extract() throws(AssetError) -> PosterFrame {
        let times = Self.candidateTimes(duration: media.durationSeconds, limit: options.maxCandidates)
        var best: PosterFrame?
        var bestScore = -1.0
        var seen: Set<Int64> = []
        var readAnything = false
        for time in times {
            var decoded = decode(at: time, keyframesOnly: true, atStart: !readAnything)
            if !decoded { decoded = decode(at: time, keyframesOnly: false, atStart: false) }
            readAnything = true
            guard decoded else { continue }
            defer { frame.unreference() }
            let timestamp = frame.pointer.pointee.best_effort_timestamp
            if timestamp != LibavRuntime.noTimestamp {
                guard seen.insert(timestamp).inserted else { continue }
            }
            let candidate = try convert(fallbackTime: time)
            let quality = PosterQuality(meanLuma: candidate.meanLuma, deviation: candidate.lumaDeviation)
            if quality.isAcceptable {
                best = candidate
                break
            }
            if quality.score > bestScore {
                best = candidate
                bestScore = quality.score
            }
        }
        // Every seek landed past the stream's only keyframes (a short MPEG-TS clip: its seek
        // is a timestamp search that knows no keyframes, so it lands on the frame after the
        // one keyframe): the first keyframe from the start instead.
        if best == nil, !media.deadline.hasExpired, rewindToStart() {
            var decoded = decode(at: 0, keyframesOnly: true, atStart: true, seek: false)
            if !decoded, rewindToStart() { decoded = decode(at: 0, keyframesOnly: false, atStart: true, seek: false) }
            if decoded {
                defer { frame.unreference() }
                best = try convert(fallbackTime: 0)
            }
        }
        guard let chosen = best else {
            if media.deadline.hasExpired { throw media.failure(.decode, "timed out decoding a video frame", reason: .timeout) }
            throw noFrameFailure()
        }
        let rotation = DisplayRotation.clockwiseDegrees(of: stream)
        let turned = RGBRotation.rotate(chosen.rgb, width: chosen.width, height: chosen.height, clockwise: rotation)
        var poster = chosen
        poster.rgb = turned.rgb
        poster.width = turned.width
        poster.height = turned.height
        poster.bytesPerRow = turned.width * 3
        return poster
    }

    /// Seeks to the keyframe at or before `seconds` and decodes one frame into `frame`.
    /// `atStart`: nothing has been read since the open, so after a failed seek the first frame
    /// of the file is decoded instead. `seek: false` decodes from where the demuxer stands.
    private func decode(at seconds: Double, keyframesOnly: Bool, atStart: Bool, seek: Bool = true) -> Bool {
        media.deadline.restart(seconds: media.timeLimit)
        let index = stream.pointee.index
        let start = stream.pointee.start_time == LibavRuntime.noTimestamp ? 0 : stream.pointee.start_time
        let unit = LibavRuntime.value(stream.pointee.time_base) ?? 1.0 / 90_000
        let offset = (seconds / unit).rounded(.down)
        let target = start &+ (offset.isFinite && offset < 1e15 ? Int64(max(0, offset)) : 0)
        let sought = seek ? av_seek_frame(media.context, index, target, AVSEEK_FLAG_BACKWARD) : 0
        // A file that cannot seek still gets its first frame, read from where the open left off.
        if sought < 0 && !atStart { return false }
        decoder.flush()
        decoder.keyframesOnly = keyframesOnly
        frame.unreference()

        var packets = 0
        var draining = false
        let fileSize = isDV ? media.context.pointee.pb.map { avio_size($0) } ?? -1 : -1
        while !media.deadline.hasExpired {
            if !draining {
                let read = av_read_frame(media.context, packet.pointer)
                if read < 0 {
                    attempts.readStatus = read
                    draining = true
                    _ = avcodec_send_packet(decoder.context, nil)
                } else {
                    let ours = packet.pointer.pointee.stream_index == index
                    let key = packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
                    let cut = ours && isDV ? DVFrameLength.shortfall(packet.pointer, fileSize: fileSize) : nil
                    let sent = ours && cut == nil ? avcodec_send_packet(decoder.context, packet.pointer) : 0
                    packet.unreference()
                    guard ours else { continue }
                    if let cut {
                        attempts.cutDVFrame = cut
                        continue
                    }
                    packets += 1
                    attempts.packets += 1
                    if packets > Self.packetLimit { return false }
                    // A corrupt packet is skipped; the decoder resynchronises on the next one.
                    if sent < 0 && sent != LibavRuntime.tryAgain {
                        attempts.decoderStatus = sent
                        continue
                    }
                    // Keyframes only: the frame we want is in the decoder now. Draining gets it
                    // out at once; otherwise a decoder with reordering delay (B-frames) holds it
                    // until the next keyframes, and everything between is read and parsed.
                    if keyframesOnly && key && sent >= 0 {
                        draining = true
                        _ = avcodec_send_packet(decoder.context, nil)
                    }
                }
            }
            let received = avcodec_receive_frame(decoder.context, frame.pointer)
            if received >= 0 { return true }
            if received != LibavRuntime.tryAgain && received != jm_averror_eof() { attempts.decoderStatus = received }
            if received == LibavRuntime.tryAgain && !draining { continue }
            return false
        }
        return false
    }

    /// Puts the demuxer back at the stream's first packet: a byte seek to 0 for MPEG-TS (no
    /// index; exact and cheap), else a seek to the stream's start time. False when it cannot.
    private func rewindToStart() -> Bool {
        if media.demuxerName == "mpegts" { return MediaFile.seekToFirstByte(media.context) }
        let start = stream.pointee.start_time == LibavRuntime.noTimestamp ? 0 : stream.pointee.start_time
        return av_seek_frame(media.context, stream.pointee.index, start, AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Why no candidate gave a frame, as the defect the file has: its video stream holds no
    /// frames at all (`noVideo`), the file ends before the video data its index lists
    /// (`truncated`), or the decoder got packets and made nothing of them (`corrupt`, with
    /// libav's words for the last refusal).
    private func noFrameFailure() -> AssetError {
        let codec = stream.pointee.codecpar.map { VideoCodecAllowList.codecName($0.pointee.codec_id) } ?? "the"
        let prefix = "no video frame could be decoded"
        if indexReachesPastTheEnd() {
            return media.failure(.decode, "\(prefix): the file ends before the \(codec) video data its index lists",
                                 reason: .truncated)
        }
        if let cut = attempts.cutDVFrame {
            let whole = cut.want.map { " of its \($0)" } ?? ""
            return media.failure(.decode, "\(prefix): the file ends inside a DV frame (\(cut.have) bytes\(whole)): "
                                 + "cut short", reason: .truncated)
        }
        if attempts.packets == 0 {
            let declared = stream.pointee.nb_frames
            if declared > 0 {
                return media.failure(.decode, "\(prefix): the header declares \(declared) \(codec) frames but the file "
                                     + "holds none (cut short, or headers only)", reason: .truncated)
            }
            return media.failure(.decode, "\(prefix): the \(codec) video stream holds no frames", reason: .noVideo)
        }
        let said = attempts.decoderStatus.map { " (\(LibavRuntime.describe($0)))" } ?? ""
        let noun = attempts.packets == 1 ? "packet" : "packets"
        return media.failure(.decode, "\(prefix): the \(codec) decoder made no picture from \(attempts.packets) \(noun) "
                             + "of the stream\(said); its data is damaged or incomplete", reason: .corrupt)
    }

    /// Whether the stream's index (MOV sample tables, AVI `idx1`) places video data beyond the
    /// end of the file: a truncated copy.
    private func indexReachesPastTheEnd() -> Bool {
        let size = media.context.pointee.pb.map { avio_size($0) } ?? -1
        let count = avformat_index_get_entries_count(stream)
        guard size > 0, count > 0 else { return false }
        for index in stride(from: count - 1, through: max(0, count - 64), by: -1) {
            guard let entry = avformat_index_get_entry(stream, index) else { continue }
            if entry.pointee.pos + Int64(entry.pointee.size) > size { return true }
        }
        return false
    }

    /// `frame` as an RGB poster candidate (not yet rotated) at poster size.
    private func convert(fallbackTime: Double) throws(AssetError) -> PosterFrame {
        let f = frame.pointer.pointee
        let size = Self.posterSize(width: frame.width, height: frame.height,
                                   aspect: LibavRuntime.value(f.sample_aspect_ratio), maxDimension: options.maxDimension)
        let parameters = stream.pointee.codecpar?.pointee
        let transfer = f.color_trc != AVCOL_TRC_UNSPECIFIED ? f.color_trc : (parameters?.color_trc ?? AVCOL_TRC_UNSPECIFIED)
        let primaries = f.color_primaries != AVCOL_PRI_UNSPECIFIED ? f.color_primaries : (parameters?.color_primaries ?? AVCOL_PRI_UNSPECIFIED)
        let wide = transfer == AVCOL_TRC_ARIB_STD_B67 || transfer == AVCOL_TRC_SMPTE2084 || primaries == AVCOL_PRI_BT2020
        var toneMapped = false
        var toneMapFailure: String?
        var rgb: [UInt8] = []
        if options.toneMapHDR && wide {
            // Fill in signalling the frame left out, so zscale knows where it starts from.
            frame.pointer.pointee.color_trc = transfer
            frame.pointer.pointee.color_primaries = primaries
            // A format zscale cannot take, or a libavfilter that cannot be loaded, falls back
            // to the SDR conversion: a washed-out poster is better than none, and the reason
            // goes with it (the asset's warnings).
            do throws(LibavFailure) {
                rgb = options.forceFilterGraphToneMap
                    ? try HDRFilterGraphToneMapper.toneMap(frame, width: size.width, height: size.height)
                    : try HDRToneMapper.toneMap(frame, width: size.width, height: size.height)
                toneMapped = true
            } catch {
                toneMapFailure = error.message
            }
        }
        if !toneMapped {
            do {
                rgb = try SDRFrameConverter.convert(frame, width: size.width, height: size.height)
            } catch {
                throw media.failure(.decode, error.message)
            }
        }
        let quality = PosterQuality(rgb: rgb, width: size.width, height: size.height)
        let start = stream.pointee.start_time == LibavRuntime.noTimestamp ? 0 : stream.pointee.start_time
        let timestamp = f.best_effort_timestamp
        let time = timestamp == LibavRuntime.noTimestamp
            ? fallbackTime
            : Double(timestamp - start) * (LibavRuntime.value(stream.pointee.time_base) ?? 0)
        return PosterFrame(width: size.width, height: size.height, bytesPerRow: size.width * 3, rgb: rgb,
                           timeSeconds: max(0, time), meanLuma: quality.meanLuma,
                           lumaDeviation: quality.deviation, toneMapped: toneMapped, toneMapFailure: toneMapFailure)
    }

    /// Display size of a `width` × `height` frame with sample aspect `aspect`, shrunk to fit
    /// `maxDimension` (never enlarged).
    static func posterSize(width: Int, height: Int, aspect: Double?, maxDimension: Int?) -> (width: Int, height: Int) {
        var w = Double(width), h = Double(height)
        if let aspect, aspect.isFinite, aspect > 0.1, aspect < 10 { w *= aspect }
        if let maxDimension, maxDimension > 0 {
            let scale = min(1, Double(maxDimension) / max(w, h))
            w *= scale
            h *= scale
        }
        return (max(1, Int(w.rounded())), max(1, Int(h.rounded())))
    }
}

/// Counts what a poster's candidates read (one per extractor).
final class DecodeAttempts {
    /// Packets of the video stream handed to the decoder.
    var packets = 0
    /// The decoder's last refusal (send or receive), nil when it refused nothing.
    var decoderStatus: Int32?
    /// `av_read_frame`'s last status below zero (end of file, I/O error).
    var readStatus: Int32?
    /// A DV packet shorter than its frame (`DVFrameLength`), not decoded.
    var cutDVFrame: (have: Int, want: Int?)?
}
