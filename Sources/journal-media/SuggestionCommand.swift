import ArgumentParser
import Foundation
import JournalMedia

struct SuggestionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggestion",
        abstract: "Turn suggestion bundles into renditions and rendered cards for every item.",
        discussion: """
            A bundle is a suggestion.json (schema version 1: Schemas/suggestion-bundle.v1.json) \
            beside the files it references by relative path, as an app uploads a \
            JournalingSuggestion: a title, a date interval and up to 13 items of 15 types \
            (photo, livePhoto, video, workout, workoutGroup, contact, location, locationGroup, \
            song, podcast, genericMedia, motionActivity, reflection, stateOfMind, eventPoster).

            Every bundle is validated first; a file that is not JSON, has another schema \
            version or a value of the wrong type or range is refused with its JSON path \
            (suggestion.items[3].steps: expected an integer) and nothing is produced (exit 2).

            Output, one folder per bundle, OUTPUT/<bundleId>/:

              NN-<id>.thumbnail.webp, NN-<id>.fallback.jpg   photo, Live Photo (and \
            .motionPoster), video: the usual renditions
              NN-<id>.thumbnail.webp, NN-<id>.fallback.png, NN-<id>.landscape.png and \
            NN-<id>.thumbnailDark.webp, NN-<id>.fallbackDark.png, NN-<id>.landscapeDark.png   \
            every other item: a rendered card in each size class, light and dark, each its own \
            layout: tile 512×512 (hero, headline, one line; no text under 24 px), portrait \
            1200×1500 and landscape 1600×1000 (all the detail; no text under 36 px)
              NN-<id>.<field>.<role>.<ext>   pictures inside items (artwork, icon, photo, \
            image, appIcon, fallbackImage) through the same pipeline
              suggestion.json   items in order: renditions, the card's texts (headline, \
            lines, chips, footnote, badge), every card's layout (each text's box and pixel \
            size, the hero's box, the pins), colours and APCA contrast figures, dates \
            formatted in the bundle's locale and time zone beside the raw values, \
            missingGlyphs, error, warnings; and the cover item

            NN is the item's position (01…13). Cards show texts in any script (Pango with the \
            Noto fonts make deps installs); numbers, units and dates follow the bundle's \
            locale ("10,02 km" for de_DE, "6.23 mi" for en_US). Headlines reach APCA |Lc| 75 \
            and other text |Lc| 60 on their background: a background that cannot carry text \
            is moved in tone (hue kept). An unknown item type is kept and drawn from its \
            fallbackImage; unknown values are shown as written; both are reported.

            A referenced file that is missing, unreadable, corrupt, or outside the bundle's \
            folder (absolute, "..", or a symbolic link leading out) gives that item an error \
            and one line on stderr; the other items are still produced (exit 1). Outputs \
            carry no metadata, are written atomically, and are the same bytes for the same \
            bundle. Exit status: 0 all items succeeded, 1 some failed, 2 usage error.
            """)

    @Argument(help: ArgumentHelp("suggestion.json files (their files are read from their folders).", valueName: "bundle"))
    var bundles: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Output folder; OUTPUT/<bundleId>/ per bundle.", valueName: "dir"))
    var output: String

    @Flag(name: .long, help: "Draw routes and pins, but write no coordinates on the cards.")
    var redactLocation = false

    @Option(name: .long, help: ArgumentHelp("""
        JSON file replacing the renditions of media items and of the pictures inside items \
        (the format of `convert --preset`; its optional "cardClasses" chooses the card size \
        classes). Cards get thumbnail/fallback/landscape (light) and \
        thumbnailDark/fallbackDark/landscapeDark (see --card-classes).
        """, valueName: "file"))
    var preset: String?

    @Option(name: .long, help: ArgumentHelp("The portrait card's canvas, WIDTHxHEIGHT.", valueName: "size"))
    var cardSize: String = "\(CardSpec.defaultWidth)x\(CardSpec.defaultHeight)"

    @Option(name: .long, help: ArgumentHelp("""
        Card size classes to draw, each optionally with its size: tile (thumbnail), portrait \
        (fallback), landscape (landscape), e.g. "tile,portrait" or "tile=384x384,landscape". \
        Default: the preset's "cardClasses", else tile,portrait,landscape.
        """, valueName: "list"))
    var cardClasses: String?

    @OptionGroup var jobs: JobsOption

    @OptionGroup var limits: DecodeLimitOptions

    @Flag(name: [.short, .long], help: "Print nothing but errors on stderr.")
    var quiet = false

    func validate() throws {
        _ = try parsedCardSize()
        if let cardClasses {
            do { _ = try CardSize.parseList(cardClasses) } catch { throw ValidationError("--card-classes: \(error.message)") }
        }
    }

    private func parsedCardSize() throws -> (Int, Int) {
        let parts = cardSize.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (200...4096).contains(width), (200...4096).contains(height) else {
            throw ValidationError("--card-size must be WIDTHxHEIGHT with sides of 200–4096 pixels, not \"\(cardSize)\"")
        }
        return (width, height)
    }

    func run() throws {
        var renditions = Defaults.renditions
        var presetCardSizes: [CardSize]? = nil
        if let preset {
            do {
                let contents = try Preset.loadContents(contentsOf: URL(fileURLWithPath: preset))
                renditions = contents.renditions
                presetCardSizes = contents.cardSizes
            } catch {
                throw ValidationError("preset \(preset): \(error)")
            }
        }
        let (width, height) = try parsedCardSize()
        // Every bundle is validated before any work.
        var read: [(url: URL, bundle: SuggestionBundle)] = []
        var refused = false
        for path in bundles {
            do {
                read.append((URL(fileURLWithPath: path), try SuggestionBundleReader.read(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                StandardError.writeLine("journal-media: error: \(path): bundle: \(error)")
                refused = true
            }
        }
        var ids: [String: String] = [:]
        for entry in read {
            if let other = ids.updateValue(entry.url.path, forKey: entry.bundle.bundleId) {
                StandardError.writeLine(
                    "journal-media: error: \(entry.url.path): bundle: bundleId \"\(entry.bundle.bundleId)\" is also the id of \(other)")
                refused = true
            }
        }
        if refused { throw ExitCode(ExitStatus.usage) }
        var options = SuggestionOptions(
            renditions: renditions, cardWidth: width, cardHeight: height,
            cardSizes: cardClasses.map { (try? CardSize.parseList($0)) ?? CardSize.defaults } ?? presetCardSizes ?? CardSize.defaults,
            redactLocation: redactLocation, jobs: jobs.count)
        limits.apply(to: &options)
        let processor = SuggestionProcessor(options: options)
        var failed = 0
        for (url, bundle) in read {
            let result = processor.process(bundle, folder: url.deletingLastPathComponent(),
                                           output: URL(fileURLWithPath: output))
            for item in result.items {
                if let error = item.error {
                    StandardError.writeLine(
                        "journal-media: error: \(url.path): item \(item.id) (\(item.type)): \(error.field.map { "\($0): " } ?? "")\(error.stage.rawValue): \(error.message)")
                }
            }
            failed += result.summary.failed
            if !quiet {
                let s = result.summary
                StandardError.writeLine(
                    "\(url.path): \(s.items) items: \(s.succeeded) succeeded, \(s.failed) failed, \(s.cards) cards, \(s.missingGlyphs) missing glyphs → \(output)/\(bundle.bundleId)/suggestion.json")
            }
        }
        if failed > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
    }
}
