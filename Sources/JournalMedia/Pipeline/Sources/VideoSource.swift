import JournalMediaCore
import JournalMediaImaging
import JournalMediaVideo

/// Movies (MOV, MP4, M4V, 3GP): one libav open (the probe's, through its descriptor) gives
/// the video's facts and a poster frame — a keyframe, rotated upright, HDR tone-mapped —
/// which feeds the same renditions as a photo.
///
/// With a movie attachment in the plan (the `notification` role), the same open movie is
/// also encoded into an MP4 notification attachment (pre-made: `SourceImage.premade`) (`MovieClipEncoder` in the video layer),
/// whose thumbnail clipping square comes from the poster and thumbnail time is the poster's.
///
/// Made by the registry for sniffed movie formats. Costs the container open and one
/// keyframe decode (more candidates when the first is nearly black); with an attachment,
/// also a decode and H.264 encode of every frame of the clip.
public struct VideoSource: FileSource {
    let probe: ProbedAsset

    public static func accepts(_ probe: ProbedAsset) -> Bool { probe.format?.isVideo == true }

    public init(probe: ProbedAsset, content: SourceFile) {
        self.probe = probe
    }

    public func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
        result.kind = .video
        // The cap reaches libav's stream probing and the poster decoder: a frame size beyond
        // it is refused from the headers, before a frame buffer is allocated.
        let media = try probe.takeMedia(maxPixels: plan.maxPixels, timeLimit: plan.timeoutSeconds, stop: plan.stop)
        let info = try media.videoInfo()
        result.width = info.displayWidth
        result.height = info.displayHeight
        result.orientation = 1
        guard info.codedWidth * info.codedHeight <= plan.maxPixels else {
            throw AssetError(file: probe.name, stage: .limits, reason: .overPixelLimit,
                             message: "\(info.codedWidth)×\(info.codedHeight) video frames are over the limit of \(plan.maxPixels) pixels")
        }
        let box = plan.box(width: info.displayWidth, height: info.displayHeight, upscale: false)
        let poster = try media.posterFrame(PosterOptions(maxDimension: max(box.width, box.height)))
        result.video = VideoRecord(info: info, posterTimeSeconds: poster.timeSeconds)
        if let failure = poster.toneMapFailure {
            result.warnings = (result.warnings ?? [])
                + ["poster: the HDR frame could not be tone-mapped (\(failure)); converted like SDR video, colours washed out"]
        }
        let image: VipsImageHandle
        do throws(VipsError) {
            image = try VipsImageHandle.copyingPackedRGB(poster.rgb, width: poster.width, height: poster.height)
        } catch { throw AssetError(file: probe.name, stage: .decode, message: error.message) }
        var premade: [Rendition] = []
        if let request = plan.movieAttachment {
            let movie = try media.movieAttachment(request)
            var rendition = Rendition(role: request.role, format: .mp4, width: movie.width, height: movie.height,
                                      data: movie.data)
            let clip: ClippingRect
            do throws(VipsError) { clip = try AttentionSquare.clippingRect(of: image) } catch {
                throw AssetError(file: probe.name, stage: .encode, message: "\(request.role): \(error.message)")
            }
            rendition.attachment = NotificationAttachment(
                uti: RenditionFormat.mp4.uniformTypeIdentifier, limitBytes: request.maxBytes,
                thumbnailClippingRect: clip,
                thumbnailTimeSeconds: min(poster.timeSeconds, max(0, movie.durationSeconds - 0.001)))
            premade.append(rendition)
        }
        return SourceImage(decoded: DecodedImage(image: image, hasRealTransparency: false),
                           width: info.displayWidth, height: info.displayHeight, upscale: false, premade: premade)
    }
}
