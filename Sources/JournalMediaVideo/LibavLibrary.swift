import CLibavLoader

/// One of the libav libraries the toolkit opens on first use (CLibavLoader): what an entry
/// point names to `LibavRuntime.configure(_:)`. Requiring one loads the ones it depends on:
/// `format` brings `codec` and `util`, `codec` and `swscale` bring `util`, `filter` (only for
/// the filter-graph tone-map) brings `format`, `codec`, `swscale` and `util`.
enum LibavLibrary: Sendable, CaseIterable {
    case util, codec, format, swscale, filter

    var loaderValue: jm_libav_library {
        switch self {
        case .util: JM_LIBAVUTIL
        case .codec: JM_LIBAVCODEC
        case .format: JM_LIBAVFORMAT
        case .swscale: JM_LIBSWSCALE
        case .filter: JM_LIBAVFILTER
        }
    }

    /// The file name it is opened by (`libavcodec.so.59`).
    var soname: String { jm_libav_soname(loaderValue).map { String(cString: $0) } ?? "libav" }
}
