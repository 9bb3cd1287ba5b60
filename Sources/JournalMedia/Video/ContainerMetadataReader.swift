import CFFmpeg

/// The container-level metadata of a video or audio file, read by libavformat without
/// probing streams: the format's tags (`creation_time` from `mvhd`, QuickTime keys such as
/// `com.apple.quicktime.creationdate` and `com.apple.quicktime.content.identifier`) and the
/// duration the header declares.
///
/// Used where only metadata is needed (`inspect`, Live Photo pairing before a batch runs).
/// Same container and protocol allow-lists and time limit as `MediaFile` (`MediaFile.openInput`); costs one open and a header parse
/// (for MOV/MP4 the `moov` box): well under a millisecond for a phone clip. No packet is read.
enum ContainerMetadataReader {
    struct Metadata {
        var tags: [String: String]
        var durationSeconds: Double?
    }

    /// The metadata, or nil when libavformat cannot open the file as an allowed container.
    static func read(path: String) -> Metadata? {
        let deadline = MediaDeadline(seconds: MediaFile.timeLimitSeconds)
        var context = MediaFile.openInput(path: path, deadline: deadline).0
        guard let opened = context else { return nil }
        defer { avformat_close_input(&context) }
        let duration = opened.pointee.duration
        return Metadata(tags: MediaFile.tags(opened.pointee.metadata),
                        durationSeconds: duration > 0 && duration != LibavRuntime.noTimestamp
                            ? Double(duration) / Double(AV_TIME_BASE) : nil)
    }
}
