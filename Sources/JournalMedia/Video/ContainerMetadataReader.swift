import CFFmpeg

/// The container-level metadata tags of a video or audio file, read by libavformat.
///
/// Opens the file with `avformat_open_input` (which parses the header: for MOV/MP4 the
/// `moov` box) and copies the format's tags, e.g. `creation_time` (from `mvhd`, UTC) and
/// QuickTime keys such as `com.apple.quicktime.creationdate` and
/// `com.apple.quicktime.content.identifier`. No stream is probed and no packet is decoded.
/// Costs one open, a header parse and a close: well under a millisecond for a phone clip.
enum ContainerMetadataReader {
    /// The tags, or a message saying why the file could not be opened.
    static func tags(ofFileAt path: String) -> Result<[String: String], LibavError> {
        LibavLogging.silence()
        var context: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&context, path, nil, nil)
        guard status >= 0, let opened = context else {
            return .failure(LibavError(code: status))
        }
        defer { avformat_close_input(&context) }
        return .success(dictionary(opened.pointee.metadata))
    }

    /// Every entry of an `AVDictionary`.
    static func dictionary(_ dictionary: OpaquePointer?) -> [String: String] {
        var tags: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let key = next.pointee.key, let value = next.pointee.value {
                tags[String(cString: key)] = String(cString: value)
            }
            entry = next
        }
        return tags
    }
}

/// A libav error code with its message (`av_strerror`).
struct LibavError: Error, CustomStringConvertible {
    var code: Int32

    var description: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "libav error \(code)" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// libav prints warnings about damaged input to stderr; a batch reports them as typed
/// errors instead, so its log level is set to quiet once per process.
enum LibavLogging {
    private static let silenced: Void = { av_log_set_level(AV_LOG_QUIET) }()

    static func silence() { _ = silenced }
}
