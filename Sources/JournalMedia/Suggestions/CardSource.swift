import JournalMediaCore
import JournalMediaImaging

/// A rendered card as a source: `decode` draws the `CardSpec` (with the item's decoded
/// pictures) through `CardRenderer` and yields the card's pixels to the shared
/// `RenditionStep`, like any photo. This is the architecture's seam for images without a
/// file (the README's "Extending" example).
///
/// Runs on the processor's thread when `AssetProcessor.process(_:name:)` is handed it;
/// costs one card render (text layout and composition, tens of milliseconds), after which
/// the renditions cost what a photo's do. What the renderer reports (missing glyphs,
/// shrunk or shortened text) is kept in `report` for the caller.
public struct CardSource: ImageSource {
    public let spec: CardSpec
    public let images: [String: DecodedImage]
    /// Filled by `decode`: the renderer's account of the card.
    public let report = CardRenderReport()

    public init(spec: CardSpec, images: [String: DecodedImage] = [:]) {
        self.spec = spec
        self.images = images
    }

    public func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
        let card: RenderedCard
        do throws(CardRenderError) {
            card = try CardRenderer.render(spec, images: images)
        } catch {
            throw AssetError(file: result.source, stage: .decode, reason: .invalidInput,
                             message: "cannot render the \(spec.appearance.rawValue) \(spec.itemType) card: \(error.message)")
        }
        report.missingGlyphs = card.missingGlyphs
        report.headlineFontSize = card.headlineFontSize
        report.truncated = card.truncated
        report.warnings = card.warnings
        result.width = spec.width
        result.height = spec.height
        result.orientation = 1
        return SourceImage(decoded: card.image, width: spec.width, height: spec.height, upscale: false)
    }
}

/// What the renderer said about one card. A reference so the value set inside `decode`
/// reaches the caller; used on one thread at a time.
public final class CardRenderReport {
    public var missingGlyphs = 0
    public var headlineFontSize = 0.0
    public var truncated = false
    public var warnings: [String] = []
    public init() {}
}
