import CVips

/// SHA-256 of a file's bytes, as lowercase hex, through GLib's `GChecksum` (GLib is already
/// linked through libvips; no other crypto library is needed).
///
/// Runs once per asset on the bytes read for decoding; costs roughly 2–4 ms per MB.
public enum ContentDigest {
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let checksum = g_checksum_new(G_CHECKSUM_SHA256) else { return "" }
        defer { g_checksum_free(checksum) }
        if let base = bytes.baseAddress, bytes.count > 0 {
            g_checksum_update(checksum, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
        guard let hex = g_checksum_get_string(checksum) else { return "" }
        return String(cString: hex)
    }

    public static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256($0) }
    }
}
