import CCrypto

/// SHA-256 of a file's bytes, as lowercase hex, through OpenSSL's libcrypto EVP interface,
/// which uses the CPU's SHA extensions (SHA-NI) or AVX2 code when present.
///
/// Runs once per asset, on the bytes read for decoding or streamed from a movie; costs one
/// pass over the bytes at memory speed.
public struct ContentDigest: ~Copyable {
    private let context: OpaquePointer?

    /// SHA-256 fetched from libcrypto's default provider once per process. Initialising a
    /// digest with `EVP_sha256()` fetches the implementation again every time, and OpenSSL
    /// 3.0's method store takes a global write lock to do it: at `--jobs 2` on small JPEGs
    /// that lock was a quarter of all the batch's context switches. A fetched method is
    /// shared by reference count (atomic), never freed (one per process); `nonisolated(unsafe)`
    /// because it is written once, by the lazy initialiser, and libcrypto makes its use from
    /// several threads safe.
    nonisolated(unsafe) private static let sha256Method: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// Starts an incremental digest.
    public init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, Self.sha256Method ?? EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything added, as 64 lowercase hex digits ("" if libcrypto failed).
    public consuming func hex() -> String {
        guard let context else { return "" }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return "" }
        return ContentDigest.hex(digest.prefix(Int(length)))
    }

    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> String {
        let digest = ContentDigest()
        digest.update(bytes)
        return digest.hex()
    }

    public static func sha256(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { sha256($0) }
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
