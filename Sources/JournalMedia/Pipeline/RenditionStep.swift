import Foundation
import JournalMediaCore
import JournalMediaImaging

/// The stage after decoding, the same for every source, and the one place renditions are
/// ordered and made: colours and the ThumbHash placeholder from a ≤ 100 px box-averaged copy
/// of the decode, then the renditions in the specs' order, each either the source's
/// pre-made one for that role (`SourceImage.premade`) or one resize + encode from the one
/// decoded image in memory; pre-made renditions without a spec (a movie's notification
/// attachment) come last, in the order the source made them.
///
/// Runs on the processor's worker thread right after a source's `decode`. Costs the
/// analysis (a few milliseconds) plus one resize and one encode per spec not pre-made.
/// Checks `stop` (the asset's `DecodeGuard`, handed down by the caller) before the analysis
/// and before each rendition.
public enum RenditionStep {
    /// Fills `result.colors`, `result.placeholder` (when `analyzeColors`) and sets
    /// `result.renditions` to one rendition per spec role, in spec order, followed by the
    /// pre-made ones without a spec. Renditions already in `result.renditions` count as
    /// pre-made (before `image.premade`). Throws `analyze` or `encode` errors naming `name`.
    public static func run(_ image: SourceImage, specs: [RenditionSpec], analyzeColors: Bool, name: String,
                           stop: DecodeGuard? = nil, into result: inout AssetResult) throws(AssetError) {
        var clock = StageClock()
        var premade = result.renditions + image.premade
        result.renditions = []
        if analyzeColors {
            try stop?.check(file: name, stage: .analyze)
            let pixels: AnalysisPixels
            do throws(VipsError) { pixels = try AnalysisPixels(image.decoded) } catch {
                throw AssetError(file: name, stage: .analyze, message: error.message)
            }
            result.colors = ImageColorAnalyzer.analyze(width: pixels.width, height: pixels.height, rgba: pixels.rgba)
            if let hash = ThumbHash.encode(width: pixels.width, height: pixels.height, rgba: pixels.rgba) {
                result.placeholder = Placeholder(thumbhash: Data(hash).base64EncodedString())
            }
            result.timings.analyze += clock.lap()
        }
        for spec in specs where !result.renditions.contains(where: { $0.role == spec.role }) {
            if let index = premade.firstIndex(where: { $0.role == spec.role }) {
                result.renditions.append(premade.remove(at: index))
                continue
            }
            try stop?.check(file: name, stage: .encode)
            do throws(VipsError) {
                result.renditions.append(try RenditionRenderer.render(
                    image.decoded, spec: spec, sourceWidth: image.width, sourceHeight: image.height,
                    allowUpscale: image.upscale, stop: stop))
            } catch { throw AssetError(file: name, stage: .encode, message: "\(spec.role): \(error.message)") }
        }
        result.renditions += premade
        result.timings.encode += clock.lap()
        // A stop that came during the last encode is still the caller's answer.
        try stop?.check(file: name, stage: .encode)
    }
}
