import CFFmpeg
import JournalMediaCore

/// The container-level metadata of a video or audio file, read by libavformat without
/// probing streams: the format's tags (`creation_time` from `mvhd`, QuickTime keys such as
/// `com.apple.quicktime.creationdate` and `com.apple.quicktime.content.identifier`) and the
/// duration the header declares.
///
/// Used where only metadata is needed (`inspect`, Live Photo pairing before a batch runs).
/// Same container allow-list, custom I/O and time limit as `MediaFile` (`MediaFile.openInput`);
/// costs a header parse (for MOV/MP4 the `moov` box) through the caller's byte source; only
/// when the header declares no duration (MPEG-TS, …) are the streams probed to estimate it,
/// and an MPEG-TS file's first H.264 packets are kept for the AVCHD date.
package enum ContainerMetadataReader {
    package struct Metadata {
        package var tags: [String: String]
        package var durationSeconds: Double?
        /// An MPEG-TS file's first H.264 packets (`LeadingVideoPackets`), where AVCHD
        /// camcorders keep the recording date; empty for other files.
        package var leadingVideoPackets: [[UInt8]]

        package init(tags: [String: String], durationSeconds: Double?, leadingVideoPackets: [[UInt8]] = []) {
            self.tags = tags
            self.durationSeconds = durationSeconds
            self.leadingVideoPackets = leadingVideoPackets
        }
    }

    /// The metadata, or nil when libavformat cannot be loaded or cannot open the file as an
    /// allowed container.
    /// `stop`: the guard of the work on the file, which ends the read like its time limit.
    package static func read(_ source: any ByteSource, stop: DecodeGuard? = nil) -> Metadata? {
        guard (try? LibavRuntime.configure(.format)) != nil else { return nil }
        let deadline = MediaDeadline(seconds: MediaFile.timeLimitSeconds, stop: stop)
        let (context, input, _) = MediaFile.openInput(source, deadline: deadline)
        var closing = context
        guard let opened = context else { return nil }
        defer { withExtendedLifetime(input) { avformat_close_input(&closing) } }
        var duration = opened.pointee.duration
        // Containers without a duration in their header (MPEG-TS, some AVI and MP3 files):
        // libav estimates it from the streams' timestamps, which costs a stream probe.
        if duration <= 0 || duration == LibavRuntime.noTimestamp,
           MediaFile.findStreamInfo(opened, maxPixels: Defaults.maxPixels) >= 0 {
            duration = opened.pointee.duration
        }
        return Metadata(tags: MediaFile.tags(opened.pointee.metadata),
                        durationSeconds: duration > 0 && duration != LibavRuntime.noTimestamp
                            ? Double(duration) / Double(AV_TIME_BASE) : nil,
                        leadingVideoPackets: LeadingVideoPackets.read(opened))
    }
}
