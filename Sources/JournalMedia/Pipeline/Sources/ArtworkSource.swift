import JournalMediaCore
import JournalMediaVideo

/// Audio files with cover art (MP3, M4A, FLAC, Ogg, WAV and AIFF with an ID3 chunk): the embedded picture is decoded like a
/// photo (`kind: artwork`); a file without one fails with reason `noArtwork`.
///
/// With an audio attachment in the plan (`notificationAudio`), the same open file's sound is
/// also encoded as an M4A notification attachment (AAC, ≤ 5 MB), pre-made (`SourceImage.premade`).
///
/// Made by the registry for sniffed audio formats. Costs the container open, one copy of the
/// picture's bytes and its decode (and the audio encode when asked for).
public struct ArtworkSource: FileSource {
    let probe: ProbedAsset

    public static func accepts(_ probe: ProbedAsset) -> Bool { probe.format?.isAudio == true }

    public init(probe: ProbedAsset, content: SourceFile) {
        self.probe = probe
    }

    public func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
        result.kind = .artwork
        let media = try probe.takeMedia(maxPixels: plan.maxPixels, timeLimit: plan.timeoutSeconds, stop: plan.stop)
        let cover = try media.coverArt()
        guard let coverFormat = FormatSniffer.sniff(cover.bytes), coverFormat.isImage else {
            throw AssetError(file: probe.name, stage: .probe, reason: .noArtwork,
                             message: "the embedded artwork is not an image this toolkit reads")
        }
        var image = try StillDecoding.decode(cover.bytes, format: coverFormat, name: probe.name, plan: plan, into: &result,
                                             reuseJPEG: true)
        if let request = plan.audioAttachment {
            let sound = try media.audioAttachment(request)
            var rendition = Rendition(role: request.role, format: .m4a, width: image.width, height: image.height,
                                      data: sound.data)
            rendition.attachment = NotificationAttachment(uti: RenditionFormat.m4a.uniformTypeIdentifier,
                                                          limitBytes: request.maxBytes)
            image.premade.append(rendition)
        }
        return image
    }
}
