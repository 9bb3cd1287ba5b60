import CFFmpeg
import JournalMediaCore

/// An audio notification attachment as encoded: the M4A's bytes and its length.
package struct EncodedAudio: Sendable {
    package var data: [UInt8]
    package var durationSeconds: Double
    /// False when the sound was cut to its first `clipSeconds`.
    package var wholeSound: Bool
}

extension MediaFile {
    /// This file's sound as an M4A notification attachment: AAC-LC (libavcodec's encoder,
    /// 64 kbit/s per channel, mono or stereo, the original rate) muxed by libavformat's
    /// `ipod` muxer into memory. The whole sound when it fits in 90 % of `request.maxBytes`
    /// at that bitrate, else its first `clipSeconds`.
    ///
    /// Runs once per audio file when audio attachments are asked for. Costs a decode and an
    /// AAC encode of the clip (far faster than real time). Throws `probe` (no usable audio
    /// stream) or `encode` errors naming this file.
    package func audioAttachment(_ request: AudioAttachmentRequest) throws(AssetError) -> EncodedAudio {
        guard let source = AudioTrackSource(media: self) else {
            throw failure(.probe, "audio attachment: no audio stream libavcodec can decode at an AAC sample rate")
        }
        let bitRate = Double(MovieClipEncoder.audioBitRatePerChannel * source.outputChannels)
        let fitting = Double(request.maxBytes) * 8 * MovieClipEncoder.budgetShare / bitRate
        let whole = (durationSeconds ?? .infinity) <= fitting
        let end = whole ? (durationSeconds ?? fitting) : min(request.clipSeconds, fitting)
        deadline.restart(seconds: max(timeLimit, MovieClipEncoder.timeLimitSeconds))
        let bytes: [UInt8]
        do throws(LibavFailure) {
            let muxer = try MP4Muxer(format: "ipod")
            let encoder = try AudioTrackEncoder(source: source, muxer: muxer, endSeconds: end)
            try muxer.writeHeader()
            _ = av_seek_frame(context, source.streamIndex, 0, AVSEEK_FLAG_BACKWARD)
            let packet = try LibavPacket()
            while !deadline.hasExpired && !encoder.isDone {
                guard av_read_frame(context, packet.pointer) >= 0 else { break }
                defer { packet.unreference() }
                if packet.pointer.pointee.stream_index == source.streamIndex { try encoder.decode(packet.pointer) }
            }
            guard !deadline.hasExpired else { throw LibavFailure("timed out encoding the audio attachment") }
            try encoder.finish()
            bytes = try muxer.finish()
        } catch {
            throw failure(.encode, "audio attachment: \(error.message)", reason: .encodeFailed)
        }
        guard bytes.count <= request.maxBytes else {
            throw failure(.encode, "audio attachment: \(bytes.count) bytes, over \(request.maxBytes)", reason: .encodeFailed)
        }
        return EncodedAudio(data: bytes, durationSeconds: end, wholeSound: whole)
    }
}
