/// The RIFF family: WebP (a still), AVI (a movie) and WAV (audio), told apart by the form type
/// at byte 8.
struct RIFFFormats: FormatHandler {
    let priority = FormatPriority.signature
    let formats = [
        FormatDescription(.webp, displayName: "WebP", mediaType: "image/webp", suffixes: ["webp"], kind: .still,
                          still: StillLoading(loader: "webpload_buffer", animated: true, iconWhenTransparent: true),
                          container: .riffChunks, metadata: .riffChunks),
        FormatDescription(.avi, mediaType: "video/x-msvideo", suffixes: ["avi"], kind: .video),
        FormatDescription(.wav, mediaType: "audio/wav", suffixes: ["wav"], kind: .audio),
    ]

    func sniff(_ head: SniffHead) -> SniffVerdict? {
        guard head.starts(with: "RIFF") else { return nil }
        if head.starts(with: "WEBP", at: 8) { return .format(.webp) }
        if head.starts(with: "AVI ", at: 8) { return .format(.avi) }
        if head.starts(with: "WAVE", at: 8) { return .format(.wav) }
        return nil
    }
}
