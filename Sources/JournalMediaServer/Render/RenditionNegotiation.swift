import Foundation
import JournalMedia

/// The `format: auto` choice and the validators of an on-demand answer. Runs per request;
/// costs one parse of `Accept` and of `If-None-Match`.
enum RenditionNegotiation {
    /// The formats `auto` chooses among, best first on a tie.
    static let autoFormats: [RenditionFormat] = [.avif, .webp, .jpeg]

    /// AVIF or WebP when `Accept` names it with `q` > 0 (the higher `q` wins; AVIF on a tie),
    /// JPEG otherwise. Only the exact types count: `image/*` and `*/*` promise nothing beyond
    /// JPEG (browsers send them with every image request).
    static func autoFormat(accept: String?) -> RenditionFormat {
        let ranges = (accept ?? "").split(separator: ",").map { MediaTypeHeader(String($0)) }
        var best: (format: RenditionFormat, q: Double)?
        for format in [RenditionFormat.avif, .webp] {
            guard let range = ranges.first(where: { $0.essence == format.mediaType }) else { continue }
            let q = range.parameters["q"].flatMap(Double.init).map { min(1, max(0, $0)) } ?? 1
            if q > 0, q > (best?.q ?? 0) { best = (format, q) }
        }
        return best?.format ?? .jpeg
    }

    /// The strong entity tag of a rendition: the source's SHA-256 (first 128 bits) and a
    /// fingerprint of what makes the bytes (the spec as used, the toolkit version).
    static func entityTag(sourceDigest: String, specFingerprint: String) -> String {
        "\"\(sourceDigest.prefix(32))-\(specFingerprint)\""
    }

    /// What makes a rendition's bytes besides its source: the spec as used and the toolkit
    /// version, hashed (64 bits, hex). Made once per preset, role and format at start-up.
    static func specFingerprint(_ spec: RenditionSpec) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let specJSON = (try? encoder.encode(spec)).map { [UInt8]($0) } ?? Array(spec.role.utf8)
        return String(ContentDigest.sha256(specJSON + Array(Version.toolkit.utf8)).prefix(16))
    }

    /// Whether `If-None-Match` names `tag` (weak comparison, RFC 9110 §13.1.2) or is `*`.
    static func matches(ifNoneMatch: String?, tag: String) -> Bool {
        guard let header = ifNoneMatch else { return false }
        let opaque = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        for candidate in header.split(separator: ",") {
            var given = candidate.trimmingCharacters(in: .whitespaces)
            if given == "*" { return true }
            if given.hasPrefix("W/") { given.removeFirst(2) }
            if given == opaque { return true }
        }
        return false
    }
}
