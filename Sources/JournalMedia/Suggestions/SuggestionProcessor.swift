import Foundation
import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// Turns a suggestion bundle into a display-ready result for every item, written to
/// `output/<bundleId>/`: renditions of media items (photos, Live Photos with their given
/// pair, videos) and of the pictures inside other items, through the existing pipeline;
/// a light and a dark rendered card for every other item (`CardSpecBuilder` →
/// `CardSource` → `RenditionStep`); and `suggestion.json` (`SuggestionOutput`).
///
/// A file that is missing, unreadable, corrupt or outside the bundle's folder gives its
/// item an `error`; the other items are still produced. Files are written atomically,
/// nothing outside `output/<bundleId>/`, inputs never modified; the same bundle gives the
/// same bytes. Cost per item: a media item as `AssetProcessor`; a card item one decode per
/// picture plus two card renders (tens of milliseconds each) and their encodes.
public struct SuggestionProcessor: Sendable {
    public let options: SuggestionOptions

    public init(options: SuggestionOptions = SuggestionOptions()) {
        self.options = options
    }

    /// Reads, validates and processes the bundle at `url` (its files are resolved in its folder).
    /// Throws only when the bundle itself is refused; item failures are in the output.
    public func process(bundleAt url: URL, output: URL) throws(SuggestionBundleError) -> SuggestionOutput {
        let bundle = try SuggestionBundleReader.read(contentsOf: url)
        return process(bundle, folder: url.deletingLastPathComponent(), output: output)
    }

    /// Processes a bundle already read, whose files lie in `folder`.
    public func process(_ bundle: SuggestionBundle, folder: URL, output: URL) -> SuggestionOutput {
        let target = output.appendingPathComponent(bundle.bundleId)
        AtomicFile.removeLeftovers(in: target)
        let builder = CardSpecBuilder(bundle: bundle, redactLocation: options.redactLocation,
                                      width: options.cardWidth, height: options.cardHeight)
        let items = bundle.suggestion.items
        let slots = ItemSlots(count: items.count)
        let work: @Sendable (Int) -> Void = { index in
            let item = ItemWork(options: options, builder: builder, folder: folder, target: target, index: index,
                                id: items[index].id)
            slots.set(index, item.run(items[index]))
        }
        if options.jobs > 1 && items.count > 1 {
            DispatchQueue.concurrentPerform(iterations: min(options.jobs, items.count)) { _ in
                while let index = slots.next() { work(index) }
            }
        } else {
            for index in items.indices { work(index) }
        }
        let outputs = slots.values()
        let format = builder.formatter
        var result = SuggestionOutput(
            generator: Version.generator, bundleId: bundle.bundleId, title: bundle.suggestion.title,
            timeZone: bundle.timeZone.identifier, locale: bundle.locale.identifier,
            date: bundle.suggestion.date.map {
                OutputInterval(start: FormattedDate(field: "start", raw: $0.start.raw, formatted: format.dateTime($0.start.date)),
                               end: FormattedDate(field: "end", raw: $0.end.raw, formatted: format.dateTime($0.end.date)))
            },
            cover: nil, coverCollage: CoverCollage(options: options, target: target).make(outputs), items: outputs,
            summary: OutputSummary(items: outputs.count, succeeded: outputs.filter { $0.error == nil }.count,
                                   failed: outputs.filter { $0.error != nil }.count,
                                   cards: outputs.filter { $0.output == "card" }.count,
                                   missingGlyphs: outputs.reduce(0) { $0 + $1.missingGlyphs }))
        let media = outputs.indices.first { outputs[$0].output == "media" && outputs[$0].error == nil }
        let firstCard = outputs.indices.first { outputs[$0].output == "card" && !outputs[$0].renditions.isEmpty }
        if let index = media ?? firstCard {
            result.cover = OutputCover(itemId: outputs[index].id, index: index, renditions: outputs[index].renditions)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(result)
            data.append(0x0A)
            try AtomicFile.write(data, to: target.appendingPathComponent("suggestion.json"))
        } catch {
            result.summary.failed = max(result.summary.failed, 1)
            result.items = result.items.map { item in
                var item = item
                if item.error == nil {
                    item.error = OutputError(field: nil, stage: .write, reason: .writeFailed,
                                             message: "cannot write suggestion.json: \(error)")
                }
                return item
            }
        }
        return result
    }
}

/// Results by item index, filled from several threads.
private final class ItemSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [SuggestionItemOutput?]
    private var cursor = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard cursor < slots.count else { return nil }
        cursor += 1
        return cursor - 1
    }

    func set(_ index: Int, _ value: SuggestionItemOutput) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    func values() -> [SuggestionItemOutput] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
