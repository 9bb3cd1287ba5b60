import CFFmpeg
import JournalMediaCore

extension MediaFile {
    /// The cover picture embedded in this audio file: the `attached_pic` packet of a stream
    /// with `AV_DISPOSITION_ATTACHED_PIC` (ID3 APIC in MP3, `covr` in M4A, the picture block of
    /// FLAC and Ogg), preferring one tagged as the front cover. Returns the encoded bytes;
    /// nothing is decoded.
    ///
    /// Runs once per audio asset after the open; costs one copy of the picture. Throws `probe`
    /// with "no artwork" when the file embeds no picture.
    package func coverArt() throws(AssetError) -> CoverArt {
        let pictures = streams.filter { Self.isAttachedPicture($0) && $0.pointee.attached_pic.size > 0 }
        let front = pictures.first { stream in
            let tags = Self.tags(stream.pointee.metadata)
            return (tags["comment"] ?? "").lowercased().contains("front")
        }
        guard let chosen = front ?? pictures.first,
              let data = chosen.pointee.attached_pic.data else {
            throw failure(.probe, "no artwork: the file embeds no cover picture", reason: .noArtwork)
        }
        let bytes = Array(UnsafeBufferPointer(start: data, count: Int(chosen.pointee.attached_pic.size)))
        let parameters = chosen.pointee.codecpar?.pointee
        return CoverArt(
            bytes: bytes,
            codec: parameters.flatMap { LibavRuntime.string(avcodec_get_name($0.codec_id)) } ?? "unknown",
            width: Int(parameters?.width ?? 0), height: Int(parameters?.height ?? 0))
    }
}
