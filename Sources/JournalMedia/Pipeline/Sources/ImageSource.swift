import JournalMediaCore
import JournalMediaImaging
import JournalMediaVideo

/// Something the processor can turn into renditions: it decodes, and returns what it
/// decoded (`SourceImage`): the one image every rendition, the colours and the placeholder
/// are made from, plus the renditions it can make more cheaply itself than from those pixels
/// (`SourceImage.premade`: a JPEG that is its own fallback, a card's PNG, an animation's GIF,
/// a movie's MP4 attachment). It makes no other rendition: `RenditionStep` orders the
/// renditions by spec and makes every one not pre-made, in one place. It records what it
/// learns about the asset (kind, display size, orientation, movie facts) in `result`.
///
/// Conformers: `PhotoSource` (stills and icons), `VideoSource` (a movie's poster frame),
/// `ArtworkSource` (an audio file's cover) — found for a file by the processor's
/// `SourceRegistry` — and
/// sources without a file (a rendered card), which a caller hands to
/// `AssetProcessor.process(_:name:)` directly. `decode` runs on the processor's worker
/// thread; it costs one decode at the size `plan` asks for.
public protocol ImageSource {
    /// Decodes at the size `plan` derives from the source's dimensions, filling what it
    /// learns into `result`. Throws an `AssetError` naming the stage that failed.
    /// Renditions appended to `result.renditions` here (as sources did before `premade`)
    /// count as pre-made too.
    func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage
}

/// A kind of input file: a source that can be made from a probed file. Adding a kind of
/// file is one type conforming to this, registered at run time with
/// `SourceRegistry.register(_:)` and given to `AssetProcessor(sources:)`.
public protocol FileSource: ImageSource, FileSourceKind {
    /// Whether this source reads the probed file (usually by its sniffed format).
    static func accepts(_ probe: ProbedAsset) -> Bool
    /// A source for the probed file whose content has been loaded.
    init(probe: ProbedAsset, content: SourceFile)
}

/// What a source decoded: the one image, with the size the renditions are fitted from, and
/// the renditions it made itself for less than a resize and encode of that image would cost.
public struct SourceImage {
    public let decoded: DecodedImage
    /// The source's display size (a vector's intrinsic size, a movie's rotated size).
    public let width: Int
    public let height: Int
    /// Whether renditions may be larger than the source (vector drawings, cards).
    public let upscale: Bool
    /// Renditions the source made itself, each for its spec's role (or for a role with no
    /// spec, such as a movie's notification attachment, which come last): `RenditionStep`
    /// uses them in their spec's place and does not make those roles again.
    public var premade: [Rendition]
    /// The pixels at the size the largest rendition needs, when `decoded` is smaller because
    /// a pre-made rendition stood in for the largest and the plan asked for them
    /// (`DecodePlan.keepsFullPixels`: a card draws the picture); nil otherwise.
    public var fullPixels: DecodedImage?

    public init(decoded: DecodedImage, width: Int, height: Int, upscale: Bool, premade: [Rendition] = []) {
        self.decoded = decoded
        self.width = width
        self.height = height
        self.upscale = upscale
        self.premade = premade
    }

    /// The decoded pixels at the size of the largest rendition (`fullPixels`, else `decoded`).
    public var pixelsForDrawing: DecodedImage { fullPixels ?? decoded }
}

/// What a source is asked for: the renditions (so it can decode at the size the largest
/// one needs, never more) and the limits that apply before any pixel is decoded.
public struct DecodePlan: Sendable {
    public let renditions: [RenditionSpec]
    public let maxPixels: Int
    /// Largest grid HEIC, decoded tile by tile (`Defaults.maxTiledPixels`).
    public var maxTiledPixels: Int = Defaults.maxTiledPixels
    /// Longest the decode may take, in seconds; a source turns an overrun into `timeout`.
    public let timeoutSeconds: Double
    /// A movie notification attachment to encode from the same open movie (videos and Live
    /// Photo motion, when the `notification` role is on); sources without a movie ignore it.
    public var movieAttachment: MovieAttachmentRequest?
    /// An audio notification attachment to encode from an audio file (when asked for).
    public var audioAttachment: AudioAttachmentRequest?
    /// Whether the pixels must reach the largest rendition's size even when a pre-made
    /// rendition stands in for it (`SourceImage.fullPixels`): asked when the pixels are
    /// drawn afterwards (a picture on a card). Costs a second decode for such a source.
    public var keepsFullPixels = false
    /// The asset's stop signal (its caller's cancellation, a request's deadline), handed down
    /// to the decode: a source's own deadlines are its children. nil: nothing stops it but
    /// `timeoutSeconds`.
    public var stop: DecodeGuard?
    /// The threads the decode may add beside its own, asked where it can split (a grid HEIC's
    /// tile rows): `AssetRequest.spareCores`. Sources that cannot split ignore it.
    public var spareCores = SpareCores.none

    public init(renditions: [RenditionSpec], maxPixels: Int = Defaults.maxPixels,
                timeoutSeconds: Double = Defaults.decodeTimeoutSeconds,
                movieAttachment: MovieAttachmentRequest? = nil, audioAttachment: AudioAttachmentRequest? = nil) {
        self.renditions = renditions
        self.maxPixels = maxPixels
        self.timeoutSeconds = timeoutSeconds
        self.movieAttachment = movieAttachment
        self.audioAttachment = audioAttachment
    }

    /// The size the single decode must reach for a source of `width`×`height`: the largest
    /// box any rendition needs, leaving out the roles in `excluding` (renditions made without
    /// the decode). With every rendition left out that way, the colour analysis' box
    /// (`AnalysisPixels.maxSide`).
    public func box(width: Int, height: Int, upscale: Bool,
                    excluding roles: Set<String> = []) -> (width: Int, height: Int) {
        var decodeWidth = 1, decodeHeight = 1
        var specs = renditions.filter { !roles.contains($0.role) }
        if specs.isEmpty, !roles.isEmpty {
            specs = [RenditionSpec(role: "analysis", format: .webp, width: AnalysisPixels.maxSide)]
        }
        for spec in specs {
            let size = RenditionRenderer.scaledSize(for: spec, sourceWidth: width, sourceHeight: height,
                                                    allowUpscale: upscale)
            decodeWidth = max(decodeWidth, size.width)
            decodeHeight = max(decodeHeight, size.height)
        }
        return (decodeWidth, decodeHeight)
    }
}
