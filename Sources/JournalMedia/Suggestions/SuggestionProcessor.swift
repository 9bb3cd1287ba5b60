import Foundation
import JournalMediaCore
import JournalMediaSuggestions

/// Turns a suggestion bundle into a display-ready result for every item: renditions of
/// media items (photos, Live Photos with their given pair, videos) and of the pictures
/// inside other items, through the existing pipeline; a light and a dark rendered card in
/// every size class for every other item (`CardSpecBuilder` → `CardSource` →
/// `RenditionStep`); cover collages; and the `suggestion.json` model (`SuggestionOutput`).
///
/// Two ways to run it:
/// - `process(bundleAt:)` and `process(_:files:)` are async and keep everything in memory
///   (`SuggestionResult`; the bundle's files from its folder or from the caller's bytes).
///   Every item runs in a slot of `executor` on the executor's worker thread, never on the
///   caller's; cancelling the calling task stops the items in flight at their next stage
///   (their error's reason is then `cancelled`) and starts no other.
/// - `process(bundleAt:output:)` and `process(_:folder:output:)` block the calling thread
///   and write to `output/<bundleId>/` (the `suggestion` command).
///
/// A file that is missing, unreadable, corrupt or outside the bundle's folder gives its
/// item an `error`; the other items are still produced. On disk files are written
/// atomically, nothing outside `output/<bundleId>/`, inputs never modified; the same bundle
/// gives the same bytes either way. Cost per item: a media item as `AssetProcessor`; a card
/// item one decode per picture plus six card renders (tens of milliseconds each) and their
/// encodes; `options.jobs` items at once.
public struct SuggestionProcessor: Sendable {
    public let options: SuggestionOptions
    /// Runs the async calls' items (`AssetExecutor.shared`, one asset per core, by default).
    public let executor: AssetExecutor

    public init(options: SuggestionOptions = SuggestionOptions(), executor: AssetExecutor = .shared) {
        self.options = options
        self.executor = executor
    }

    /// Reads, validates and processes the bundle at `url`, its files read from its folder,
    /// its outputs kept in memory: nothing is written. Throws only when the bundle itself is
    /// refused; item failures (and cancellation) are in the result.
    public func process(bundleAt url: URL) async throws(SuggestionBundleError) -> SuggestionResult {
        let bundle = try SuggestionBundleReader.read(contentsOf: url)
        return await process(bundle, files: .folder(url.deletingLastPathComponent()))
    }

    /// Processes a bundle already read (`SuggestionBundleReader.read(_:)` takes its JSON
    /// bytes) with its files from `files`, in memory. Never throws: a file that is missing
    /// or bad is its item's error; a call cancelled gives its unfinished items the reason
    /// `cancelled`; a full executor queue gives them `busy`.
    public func process(_ bundle: SuggestionBundle, files: SuggestionFiles) async -> SuggestionResult {
        let sink = MemorySink()
        let builder = cardBuilder(bundle)
        let items = bundle.suggestion.items
        let outputs = await withTaskGroup(of: (Int, SuggestionItemOutput).self) { group in
            var slots = [SuggestionItemOutput?](repeating: nil, count: items.count)
            var next = 0
            func start() {
                guard next < items.count else { return }
                let index = next, item = items[index]
                next += 1
                var work = ItemWork(options: options, builder: builder, files: files, sink: sink, index: index, id: item.id)
                let stop = DecodeGuard()
                work.stop = stop
                group.addTask { [work] in
                    switch await executor.run(under: stop, { work.run(item) }) {
                    case .success(let output): return (index, output)
                    case .failure(let refusal): return (index, ItemWork.empty(item, error: Self.error(refusal, item: item)))
                    }
                }
            }
            for _ in 0..<min(options.jobs, items.count) { start() }
            for await (index, output) in group {
                slots[index] = output
                start()
            }
            return slots.compactMap { $0 }
        }
        let collageStop = DecodeGuard()
        let collage = await executor.run(under: collageStop) { [options] in
            CoverCollage(options: options, sink: sink).make(outputs, stop: collageStop)
        }
        let output = finish(bundle, builder: builder, outputs: outputs, collages: (try? collage.get()) ?? [], sink: sink)
        return SuggestionResult(output: output, files: sink.files)
    }

    /// Reads, validates and processes the bundle at `url` (its files are resolved in its
    /// folder), on the calling thread, writing to `output/<bundleId>/`.
    /// Throws only when the bundle itself is refused; item failures are in the output.
    public func process(bundleAt url: URL, output: URL) throws(SuggestionBundleError) -> SuggestionOutput {
        let bundle = try SuggestionBundleReader.read(contentsOf: url)
        return process(bundle, folder: url.deletingLastPathComponent(), output: output)
    }

    /// Processes a bundle already read, whose files lie in `folder`, on the calling thread,
    /// writing to `output/<bundleId>/`. `stop` (a request's deadline, its cancellation) is
    /// handed to every item's pipeline calls.
    public func process(_ bundle: SuggestionBundle, folder: URL, output: URL, stop: DecodeGuard? = nil) -> SuggestionOutput {
        let target = output.appendingPathComponent(bundle.bundleId)
        AtomicFile.removeLeftovers(in: target)
        let sink = FolderSink(folder: target)
        let builder = cardBuilder(bundle)
        let items = bundle.suggestion.items
        let slots = ItemSlots(count: items.count)
        let work: @Sendable (Int) -> Void = { index in
            var item = ItemWork(options: options, builder: builder, files: .folder(folder), sink: sink, index: index,
                                id: items[index].id)
            item.stop = stop
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
        return finish(bundle, builder: builder, outputs: outputs,
                      collages: CoverCollage(options: options, sink: sink).make(outputs, stop: stop), sink: sink)
    }

    private func cardBuilder(_ bundle: SuggestionBundle) -> CardSpecBuilder {
        CardSpecBuilder(bundle: bundle, redactLocation: options.redactLocation,
                        width: options.cardWidth, height: options.cardHeight)
    }

    /// An item that never ran: refused by a full executor queue, or its call cancelled.
    static func error(_ refusal: AssetExecutor.Refusal, item: SuggestionItem) -> OutputError {
        refusal == .queueFull
            ? OutputError(field: nil, stage: .read, reason: .busy, message: "\(item.id): too many assets waiting; try again later")
            : OutputError(field: nil, stage: .read, reason: .cancelled, message: "\(item.id): cancelled before it started")
    }

    /// The `suggestion.json` model of the items' outputs, also handed to the sink.
    private func finish(_ bundle: SuggestionBundle, builder: CardSpecBuilder, outputs: [SuggestionItemOutput],
                        collages: [OutputCollage], sink: any SuggestionSink) -> SuggestionOutput {
        let format = builder.formatter
        var result = SuggestionOutput(
            generator: Version.generator, bundleId: bundle.bundleId, title: bundle.suggestion.title,
            timeZone: bundle.timeZone.identifier, locale: bundle.locale.identifier,
            date: bundle.suggestion.date.map {
                OutputInterval(start: FormattedDate(field: "start", raw: $0.start.raw, formatted: format.dateTime($0.start.date)),
                               end: FormattedDate(field: "end", raw: $0.end.raw, formatted: format.dateTime($0.end.date)))
            },
            cover: nil, coverCollage: collages, items: outputs,
            summary: OutputSummary(items: outputs.count, succeeded: outputs.filter { $0.error == nil }.count,
                                   failed: outputs.filter { $0.error != nil }.count,
                                   cards: outputs.filter { $0.output == "card" }.count,
                                   missingGlyphs: outputs.reduce(0) { $0 + $1.missingGlyphs }))
        let media = outputs.indices.first { outputs[$0].output == "media" && outputs[$0].error == nil }
        let firstCard = outputs.indices.first { outputs[$0].output == "card" && !outputs[$0].renditions.isEmpty }
        if let index = media ?? firstCard {
            result.cover = OutputCover(itemId: outputs[index].id, index: index, renditions: outputs[index].renditions)
        }
        do {
            try sink.write(try SuggestionResult.encode(result), name: SuggestionResult.jsonName)
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
