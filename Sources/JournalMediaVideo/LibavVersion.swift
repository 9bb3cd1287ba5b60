import CFFmpeg
import JournalMediaCore

/// Versions of the libav libraries linked in (reported by `journal-media --version`).
package enum LibavVersion {
    package static var summary: String {
        func text(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
        return "libavformat \(text(avformat_version())), libavcodec \(text(avcodec_version())), libswscale \(text(swscale_version()))"
    }
}
