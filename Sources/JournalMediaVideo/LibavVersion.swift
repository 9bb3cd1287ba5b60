import CFFmpeg
import JournalMediaCore

/// Versions of the libav libraries the toolkit opens on first use (reported by
/// `journal-media --version`, which therefore loads them, and a clear line when
/// they cannot be loaded).
package enum LibavVersion {
    package static var summary: String {
        do throws(LibavFailure) {
            try LibavRuntime.configure(.format)
            try LibavRuntime.configure(.swscale)
        } catch {
            return "libav unavailable (\(error.message))"
        }
        func text(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xFF).\(v & 0xFF)" }
        return "libavformat \(text(avformat_version())), libavcodec \(text(avcodec_version())), libswscale \(text(swscale_version()))"
    }
}
