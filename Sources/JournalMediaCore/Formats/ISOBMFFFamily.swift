/// The ISO base media family: HEIC and AVIF stills, QuickTime, MPEG-4 and 3GPP movies, MPEG-4
/// audio. They share the `ftyp` box; its major and compatible brands say which. Image brands win
/// (an iPhone HEIC lists `mif1` and `heic`); other `ftyp` files (JPEG 2000, Canon CR3) are claimed,
/// not taken for video.
struct ISOBMFFFamily: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [
        FormatDescription(.heic, displayName: "HEIC/HEIF", mediaType: "image/heic", suffixes: ["heic", "heif", "hif"], kind: .still,
                          still: StillLoading(loader: "heifload_buffer", wholeImage: .heifRules, appliesOwnOrientation: true,
                                              codec: .heifHEVC),
                          container: .isoBMFFBoxes, metadata: .heifItems, livePhoto: .still),
        FormatDescription(.avif, mediaType: "image/avif", suffixes: ["avif"], kind: .still,
                          still: StillLoading(loader: "heifload_buffer", wholeImage: .always, appliesOwnOrientation: true,
                                              codec: .heifAV1),
                          container: .isoBMFFBoxes, metadata: .heifItems),
        FormatDescription(.mov, mediaType: "video/quicktime", suffixes: ["mov", "qt"], kind: .video, livePhoto: .motion),
        FormatDescription(.mp4, mediaType: "video/mp4", suffixes: ["mp4"], kind: .video, livePhoto: .motion),
        FormatDescription(.m4v, mediaType: "video/x-m4v", suffixes: ["m4v"], kind: .video),
        FormatDescription(.threeGP, mediaType: "video/3gpp", suffixes: ["3gp", "3g2"], kind: .video),
        FormatDescription(.m4a, mediaType: "audio/mp4", suffixes: ["m4a", "m4b", "m4p"], kind: .audio),
    ]

    private static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]
    private static let mp4Brands: Set<String> = ["isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
                                                 "mp41", "mp42", "avc1", "mmp4", "dash", "MSNV", "NDAS", "XAVC",
                                                 "f4v ", "mp71"]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "ftyp", at: 4) else { return nil }
        return brandFormat(head).map(SniffVerdict.format) ?? .claimed
    }

    private func brandFormat(_ head: SniffHead) -> SourceFormat? {
        guard head.count >= 16 else { return nil }
        func brand(at offset: Int) -> String { String(decoding: head.bytes[offset..<offset + 4], as: UTF8.self) }
        let boxSize = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(max(boxSize, 16), head.count)
        var brands: [String] = [brand(at: 8)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(brand(at: offset))
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        if brands.contains(where: Self.heifBrands.contains) { return .heic }
        let major = brands[0]
        if major == "crx " { return nil }  // Canon CR3 raw: a still image, not a movie
        if major == "qt  " { return .mov }
        if major.hasPrefix("M4V") { return .m4v }
        if ["M4A ", "M4B ", "M4P "].contains(major) { return .m4a }
        if major.hasPrefix("3gp") || major.hasPrefix("3g2") { return .threeGP }
        if Self.mp4Brands.contains(major) { return .mp4 }
        if brands.contains("qt  ") { return .mov }
        if brands.contains(where: Self.mp4Brands.contains) { return .mp4 }
        return nil
    }
}
