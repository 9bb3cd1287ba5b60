import CFFmpeg
import CLibavLoader
import JournalMediaCore

/// Process-wide libav settings and small helpers shared by the Video/ files.
///
/// `configure(_:)` runs before the first libav call of each entry point (opening a file, a
/// HEIC or AVIF decoder, a muxer, a frame, a packet, a scaler). It loads the library named and
/// those it depends on (CLibavLoader: libav is opened with `dlopen` on first use, not linked,
/// so runs that never touch libav do not map its 63 libraries at start-up), and throws a
/// `LibavFailure` naming the library and the loader's reason when it cannot be loaded. Then,
/// once (a `static let`, thread-safe, free afterwards): libav's log (warnings and worse) goes
/// to the toolkit's logger (`NativeLibraryLog`, debug level) instead of stderr; every failure
/// also reaches the caller as a typed `AssetError`. After the first call for a library it
/// costs one atomic load.
enum LibavRuntime {
    private static let configured: Bool = {
        av_log_set_level(AV_LOG_WARNING)
        av_log_set_callback { context, level, format, arguments in
            guard level <= av_log_get_level(), let format, let arguments else { return }
            var line = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 1
            _ = av_log_format_line2(context, level, format, arguments, &line, Int32(line.count), &printPrefix)
            let bytes = line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            NativeLibraryLog.emit(String(decoding: bytes, as: UTF8.self), library: "libav",
                                  metadata: ["av.level": "\(level)"])
        }
        return true
    }()

    static func configure(_ library: LibavLibrary) throws(LibavFailure) {
        guard jm_libav_require(library.loaderValue) == 0 else {
            let reason = jm_libav_load_error(library.loaderValue).map { String(cString: $0) }
            throw LibavFailure(reason ?? "\(library.soname) could not be loaded")
        }
        _ = configured
    }

    /// `AV_NOPTS_VALUE`: "no timestamp".
    static let noTimestamp: Int64 = jm_av_nopts_value()
    static let tryAgain: Int32 = jm_averror_eagain()

    /// libav's text for an `AVERROR` code.
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        _ = av_strerror(code, &buffer, buffer.count)
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "libav error \(code)" : String(decoding: bytes, as: UTF8.self)
    }

    /// A C string libav owns, copied; nil for NULL.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// `r` as a Double, nil when it is 0/x or x/0.
    static func value(_ r: AVRational) -> Double? {
        guard r.num != 0, r.den != 0 else { return nil }
        return Double(r.num) / Double(r.den)
    }
}
