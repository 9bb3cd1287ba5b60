import JournalMediaCore
import JournalMediaImaging

/// A rendered card as a source: `decode` draws the `CardSpec` (with the item's decoded
/// pictures) through `CardRenderer` and yields the card's pixels to the shared
/// `RenditionStep`, like any photo. This is the architecture's seam for images without a
/// file (the "Extending" example in docs/library.md).
///
/// Runs on the processor's thread when `AssetProcessor.process(_:name:)` is handed it;
/// costs one card render (text layout and composition, tens of milliseconds), after which
/// the renditions cost what a photo's do, except two made here for less: the PNG at the
/// card's size (`CardPNGEncoder`) and the thumbnails, scaled down by area averaging
/// (`CardThumbnailScaler`, a fraction of the CPU of the photo path's lanczos3), returned as
/// pre-made renditions (`SourceImage.premade`). What the renderer reports (missing glyphs,
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
            card = try CardRenderer.render(spec, images: images, stop: plan.stop)
        } catch {
            throw AssetError(file: result.source, stage: .decode, reason: .invalidInput,
                             message: "cannot render the \(spec.appearance.rawValue) \(spec.itemType) card: \(error.message)")
        }
        report.missingGlyphs = card.missingGlyphs
        report.headlineFontSize = card.headlineFontSize
        report.truncated = card.truncated
        report.warnings = card.warnings
        report.layout = card.layout
        result.width = spec.width
        result.height = spec.height
        result.orientation = 1
        return SourceImage(decoded: card.image, width: spec.width, height: spec.height, upscale: false,
                           premade: try premade(from: card.image, plan: plan, name: result.source))
    }

    /// The renditions made here for less than `RenditionStep`'s resize and encode; it makes
    /// every other one (a card drawn at a non-PNG rendition's size, the tile, is encoded
    /// there as drawn).
    /// - A PNG at the card's own size (the fallback): `CardPNGEncoder`, a deflate coder made
    ///   for flat-colour cards, several times cheaper than libpng with zlib.
    /// - A smaller rendition fitted inside a box (the thumbnail): scaled down with
    ///   `CardThumbnailScaler` (area averaging) to its exact size, then encoded by
    ///   `RenditionRenderer`, which finds nothing left to resize.
    private func premade(from card: DecodedImage, plan: DecodePlan, name: String) throws(AssetError) -> [Rendition] {
        var made: [Rendition] = []
        for rendition in plan.renditions where rendition.byteLimit == nil
            && !made.contains(where: { $0.role == rendition.role }) {
            let size = RenditionRenderer.scaledSize(for: rendition, sourceWidth: spec.width, sourceHeight: spec.height,
                                                    allowUpscale: false)
            do throws(VipsError) {
                if size.width == spec.width && size.height == spec.height {
                    guard rendition.format == .png, FastPaths.enabled,
                          let png = try CardPNGEncoder.encode(card, stop: plan.stop) else { continue }
                    made.append(Rendition(role: rendition.role, format: .png, width: spec.width, height: spec.height,
                                          data: png))
                } else if rendition.fit == .inside {
                    let scaled = try CardThumbnailScaler.scaled(card, width: size.width, height: size.height, stop: plan.stop)
                    made.append(try RenditionRenderer.render(
                        scaled, spec: rendition, sourceWidth: size.width, sourceHeight: size.height,
                        allowUpscale: false, stop: plan.stop))
                }
            } catch {
                throw AssetError(file: name, stage: .encode, message: "\(rendition.role): \(error.message)")
            }
        }
        return made
    }
}

/// What the renderer said about one card. A reference so the value set inside `decode`
/// reaches the caller; used on one thread at a time.
public final class CardRenderReport {
    public var missingGlyphs = 0
    public var headlineFontSize = 0.0
    public var truncated = false
    public var warnings: [String] = []
    /// Where the texts, hero and pins were drawn.
    public var layout: CardLayout?
    public init() {}
}
