import Foundation
import JournalMediaCore
import JournalMediaImaging
import JournalMediaSuggestions

/// The work for one item of a bundle: its files through the pipeline, its cards through
/// `CardSource`, its outputs named `NN-<id>[.<field>].<role>.<ext>` and handed to the
/// bundle's sink (its output folder, or memory). Runs on one thread; the processor runs
/// several items at once.
struct ItemWork: Sendable {
    let options: SuggestionOptions
    let builder: CardSpecBuilder
    let files: SuggestionFiles
    let sink: any SuggestionSink
    let index: Int
    /// The appearances drawn (both for a bundle; `SuggestionProcessor.cards(for:…)` may ask for one).
    var appearances: Set<CardSpec.Appearance> = [.light, .dark]
    /// The item's guard (the executor slot's, which its caller may cancel), handed to every
    /// decode and drawing of the item; nil: nothing stops it.
    var stop: DecodeGuard?

    /// `NN-<id>`: the item's position (so names sort in the bundle's order) and its id
    /// reduced to letters, digits, `_` and `-` (ids may hold any text), at most 40 of them.
    let prefix: String

    init(options: SuggestionOptions, builder: CardSpecBuilder, files: SuggestionFiles, sink: any SuggestionSink,
         index: Int, id: String) {
        self.options = options
        self.builder = builder
        self.files = files
        self.sink = sink
        self.index = index
        let safe = String(id.unicodeScalars.prefix(40).map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
                ? Character(scalar) : "_"
        })
        prefix = String(format: "%02d-", index + 1) + (safe.isEmpty ? "item" : safe)
    }

    static func fieldName(_ field: String) -> String {
        let mapped = field.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" }
        return String(mapped).split(separator: "-").joined(separator: "-")
    }

    /// An item's output before any work: a card with nothing made yet, or `error`.
    static func empty(_ item: SuggestionItem, error: OutputError? = nil) -> SuggestionItemOutput {
        SuggestionItemOutput(id: item.id, type: item.type, output: "card", renditions: [], headline: nil,
                             lines: [], chips: [], footnote: nil, badge: nil, light: nil, dark: nil,
                             cards: [], missingGlyphs: 0, dates: [], pictures: [], error: error, warnings: [])
    }

    func run(_ item: SuggestionItem) -> SuggestionItemOutput {
        var out = Self.empty(item)
        func fail(_ error: OutputError) {
            if out.error == nil { out.error = error } else { out.warnings.append("\(error.field ?? "item"): \(error.message)") }
        }
        let mediaProcessor = AssetProcessor(options: options.processingOptions(renditions: options.renditions))
        // The item's own media file(s).
        let mediaFields: Set<String>
        switch item.content {
        case .photo: mediaFields = ["photo"]
        case .livePhoto: mediaFields = ["image", "video"]
        case .video: mediaFields = ["video"]
        default: mediaFields = []
        }
        var pictures = CardPictures()
        var decoded: [String: DecodedImage] = [:]
        if !mediaFields.isEmpty {
            let media = self.media(item, processor: mediaProcessor)
            out.pictures.append(media.picture)
            if let error = media.picture.error {
                fail(error)
                pictures.failed.insert(media.picture.field)
            } else {
                out.output = "media"
                out.renditions = media.picture.renditions
            }
        }
        // The pictures inside the item (and its fallbackImage).
        for (field, reference) in item.files where !mediaFields.contains(field) {
            let picture = self.picture(field: field, reference: reference, processor: mediaProcessor)
            out.pictures.append(picture.output)
            if let error = picture.output.error {
                fail(error)
                pictures.failed.insert(field)
            } else if let image = picture.decoded {
                decoded[field] = image
                pictures.fields.insert(field)
                if let colors = picture.output.colors { pictures.colors[field] = colors.card }
            }
        }
        if item.content == .unknown {
            out.warnings.append(item.fallbackImage == nil
                                ? "unknown item type \"\(item.type)\" without a fallbackImage: shown as a neutral card"
                                : "unknown item type \"\(item.type)\": shown from its fallbackImage")
        }
        if out.output == "media" { return out }
        // A card, light and dark, for every other item (and for media whose file failed).
        let pair = builder.cards(for: item, pictures: pictures)
        out.headline = pair.light.headline
        out.lines = pair.light.lines
        out.chips = pair.light.chips
        out.footnote = pair.light.footnote
        out.badge = pair.light.badge
        out.dates = pair.dates
        out.warnings += pair.warnings.filter { !$0.hasPrefix("unknown item type") }
        // Every size class, light and dark: each its own layout, one rendition at its own size.
        let images = decoded.filter { pair.imageFields.contains($0.key) }
        for size in options.cardSizes {
            let specs = pair.at(size)
            for (spec, colors, dark) in [(specs.light, pair.lightColors, false), (specs.dark, pair.darkColors, true)]
                where appearances.contains(spec.appearance) {
                let source = CardSource(spec: spec, images: images)
                let rendition = SuggestionOptions.cardRendition(size, dark: dark)
                // No colour analysis: a card's colours are its spec's, written from `colors` below.
                let processor = AssetProcessor(options: options.processingOptions(renditions: [rendition], analyzeColors: false))
                let result = processor.process(source, name: "\(prefix) \(size.sizeClass.rawValue) \(spec.appearance.rawValue) card", stop: stop)
                if let error = result.error {
                    fail(OutputError(field: nil, stage: error.stage, reason: error.reason, message: error.message))
                    continue
                }
                do {
                    out.renditions += try write(result.renditions, base: prefix)
                } catch {
                    fail(error)
                }
                let report = source.report
                if let layout = report.layout {
                    out.cards.append(OutputCardDrawing(
                        sizeClass: size.sizeClass, appearance: spec.appearance, role: rendition.role,
                        missingGlyphs: report.missingGlyphs, headlineFontSize: report.headlineFontSize,
                        truncated: report.truncated, layout: layout))
                }
                let card = OutputCard(colors: colors, missingGlyphs: report.missingGlyphs,
                                      headlineFontSize: report.headlineFontSize, truncated: report.truncated)
                if size.sizeClass == .portrait || (dark ? out.dark : out.light) == nil {
                    if dark { out.dark = card } else { out.light = card }
                }
                out.missingGlyphs += report.missingGlyphs
                for warning in report.warnings where !out.warnings.contains(warning) { out.warnings.append(warning) }
            }
        }
        return out
    }

    /// A photo, video or Live Photo item: its file(s) through the pipeline, renditions
    /// named after the item.
    private func media(_ item: SuggestionItem, processor: AssetProcessor) -> (picture: OutputPicture, result: AssetResult?) {
        let field: String, reference: String
        var motion: String?
        switch item.content {
        case .photo(let photo): (field, reference) = ("photo", photo.photo)
        case .video(let video): (field, reference) = ("video", video.video)
        case .livePhoto(let live): (field, reference, motion) = ("image", live.image, live.video)
        default: return (Self.failed(field: "item", reference: "", AssetError(
            file: item.id, stage: .read, reason: .invalidInput, message: "not a media item")), nil)
        }
        let still: ProbedAsset
        switch files.open(reference, maxPixels: options.maxPixels, stop: stop) {
        case .failure(let error): return (Self.failed(field: field, reference: reference, error), nil)
        case .success(let probe): still = probe
        }
        var result: AssetResult
        if let motion {
            let motionProbe: ProbedAsset
            switch files.open(motion, maxPixels: options.maxPixels, stop: stop) {
            case .failure(let error): return (Self.failed(field: "video", reference: motion, error), nil)
            case .success(let probe): motionProbe = probe
            }
            result = processor.process(livePhoto: still, motion: motionProbe, pairedBy: .given, stop: stop)
        } else {
            result = processor.process(still, stop: stop)
        }
        return (output(field: field, reference: reference, result: result, base: prefix), result)
    }

    /// A picture inside an item: the pipeline's renditions, written as `<prefix>.<field>.…`,
    /// and the decoded pixels the renditions were made from (at the largest rendition's
    /// size), which the card draws: not an encoded rendition decoded again.
    private func picture(field: String, reference: String,
                         processor: AssetProcessor) -> (output: OutputPicture, decoded: DecodedImage?) {
        let probe: ProbedAsset
        switch files.open(reference, maxPixels: options.maxPixels, stop: stop) {
        case .failure(let error): return (Self.failed(field: field, reference: reference, error), nil)
        case .success(let opened): probe = opened
        }
        var request = AssetRequest(.probed(probe, content: nil))
        request.keepsPixels = true
        let processed = processor.run(request, stop: stop)
        let output = output(field: field, reference: reference, result: processed.result,
                            base: "\(prefix).\(Self.fieldName(field))")
        // No rendition asked for, no picture drawn (the decode then only reached the analysis' size).
        let drawn = output.error == nil && !processed.result.renditions.isEmpty
        return (output, drawn ? processed.pixels : nil)
    }

    private func output(field: String, reference: String, result: AssetResult, base: String) -> OutputPicture {
        var picture = OutputPicture(field: field, source: reference, kind: result.kind, width: result.width,
                                    height: result.height, captureDate: result.captureDate, video: result.video,
                                    livePhoto: result.livePhoto, renditions: [], colors: result.colors,
                                    placeholder: result.placeholder, error: nil)
        if let error = result.error {
            picture.error = OutputError(field: field, stage: error.stage, reason: error.reason, message: error.message)
            return picture
        }
        do {
            picture.renditions = try write(result.renditions, base: base)
        } catch {
            picture.error = error
        }
        return picture
    }

    private static func failed(field: String, reference: String, _ error: AssetError) -> OutputPicture {
        OutputPicture(field: field, source: reference, kind: nil, width: nil, height: nil, captureDate: nil, video: nil,
                      livePhoto: nil, renditions: [], colors: nil, placeholder: nil,
                      error: OutputError(field: field, stage: error.stage, reason: error.reason,
                                         message: "\(reference): \(error.message)"))
    }

    /// Hands renditions to the sink as `<base>.<role>.<ext>` (on disk each written atomically).
    private func write(_ renditions: [Rendition], base: String) throws(OutputError) -> [OutputRendition] {
        var written = renditions
        do throws(RenditionWriter.Failure) {
            try RenditionWriter.write(&written, path: { "\(base).\($0.role).\($0.format.fileExtension)" },
                                      store: { bytes, name in try sink.write(bytes, name: name) })
        } catch {
            throw OutputError(field: nil, stage: .write, reason: .writeFailed, message: error.description)
        }
        return written.map {
            OutputRendition(role: $0.role, path: $0.path ?? "", format: $0.format, width: $0.width, height: $0.height,
                            bytes: $0.bytes)
        }
    }

    /// A rendition's bytes (one the toolkit wrote) decoded again at its own size.
    static func decodeRendition(_ bytes: [UInt8], width: Int, height: Int, name: String,
                                maxPixels: Int, stop: DecodeGuard? = nil) throws(AssetError) -> DecodedImage? {
        guard let format = FormatSniffer.sniff(bytes) else { return nil }
        var plan = DecodePlan(renditions: [RenditionSpec(role: "card", format: .png, width: width, height: height)],
                              maxPixels: maxPixels)
        plan.stop = stop
        var scratch = AssetResult(source: name)
        return try StillDecoding.decode(bytes, format: format, name: name, plan: plan, into: &scratch).decoded
    }
}

extension OutputError: Error {}
