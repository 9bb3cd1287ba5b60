import Foundation
import JournalMediaCore
import JournalMediaSuggestions

/// One item's cards drawn in memory (`SuggestionProcessor.cards(for:in:files:classes:appearances:)`):
/// the item as `suggestion.json` describes it, and each card's encoded bytes. Holds the
/// bytes (a few hundred KiB for six cards); costs nothing more.
public struct ItemCards: Sendable {
    /// The item's entry: the card's texts and colours, its pictures (with their errors),
    /// warnings; `renditions` name the cards below by role.
    public var item: SuggestionItemOutput
    /// Every card drawn, in the options' size-class order, light before dark.
    public var cards: [ItemCard]
    /// Every file the entry names by its `path`: the cards and the pictures' own renditions.
    public var files: [String: [UInt8]]

    /// The card of `sizeClass` in `appearance`, when it was asked for and drawn.
    public func card(_ sizeClass: CardSizeClass, _ appearance: CardSpec.Appearance = .light) -> ItemCard? {
        cards.first { $0.sizeClass == sizeClass && $0.appearance == appearance }
    }
}

/// One drawn card: its size class, appearance and encoded rendition (role, format, size, bytes:
/// the tile as WebP, the portrait and landscape as PNG).
public struct ItemCard: Sendable, Equatable {
    public var sizeClass: CardSizeClass
    public var appearance: CardSpec.Appearance
    public var rendition: Rendition
}

extension SuggestionProcessor {
    /// Draws the cards of one item of `bundle` in memory, in one call: exactly the cards
    /// `process(_:files:)` draws for it (the same bytes), for the size classes in `classes`
    /// (nil: `options.cardSizes`; a class the options lack is drawn at its design size) and
    /// the `appearances` asked for. The bundle gives the locale, time zone and the items'
    /// context; `item` is usually one of its items. The item's pictures (artwork, icon,
    /// contact photo, route…) come from `files`; one that is missing or broken is reported in
    /// `item.error` and the card is drawn without it.
    ///
    /// Runs in one slot of `executor` on the executor's worker thread, never on the caller's;
    /// cancelling the calling task stops it. Costs one decode per picture, one render per
    /// card (tens of milliseconds) and its encode.
    ///
    /// Throws, before any work, for a photo, video or Live Photo item (those are shown by
    /// their renditions: `AssetProcessor`, or the whole bundle); when the executor refuses
    /// the call (`busy`) or the call is cancelled (`cancelled`); and when no card could be
    /// drawn (the render's error).
    public func cards(for item: SuggestionItem, in bundle: SuggestionBundle, files: SuggestionFiles = .memory([:]),
                      classes: Set<CardSizeClass>? = nil,
                      appearances: Set<CardSpec.Appearance> = [.light, .dark]) async throws(OutputError) -> ItemCards {
        switch item.content {
        case .photo, .video, .livePhoto:
            throw OutputError(field: nil, stage: .read, reason: .invalidInput,
                              message: "\(item.id): a \(item.type) item is shown by its renditions, not a card "
                                + "(AssetProcessor, or the whole bundle)")
        default: break
        }
        var options = self.options
        if let classes {
            options.cardSizes = CardSizeClass.allCases.filter(classes.contains).map { sizeClass in
                options.cardSizes.first { $0.sizeClass == sizeClass } ?? CardSize(sizeClass)
            }
        }
        let sink = MemorySink()
        let index = bundle.suggestion.items.firstIndex(of: item) ?? 0
        var work = ItemWork(options: options, builder: CardSpecBuilder(bundle: bundle, redactLocation: options.redactLocation,
                                                                       width: options.cardWidth, height: options.cardHeight),
                            files: files, sink: sink, index: index, id: item.id)
        work.appearances = appearances
        let stop = DecodeGuard()
        work.stop = stop
        let output: SuggestionItemOutput
        switch await executor.run(under: stop, { [work] in work.run(item) }) {
        case .success(let made): output = made
        case .failure(let refusal): throw Self.error(refusal, item: item)
        }
        var cards: [ItemCard] = []
        for size in options.cardSizes {
            for appearance in CardSpec.Appearance.allCases where appearances.contains(appearance) {
                let role = size.sizeClass.role(dark: appearance == .dark)
                guard let made = output.renditions.first(where: { $0.role == role }),
                      let bytes = sink.read(made.path) else { continue }
                cards.append(ItemCard(sizeClass: size.sizeClass, appearance: appearance,
                                      rendition: Rendition(role: role, format: made.format, width: made.width,
                                                           height: made.height, data: bytes)))
            }
        }
        if cards.isEmpty {
            throw output.error ?? OutputError(field: nil, stage: .encode, reason: .encodeFailed,
                                              message: "\(item.id): no card was drawn")
        }
        return ItemCards(item: output, cards: cards, files: sink.files)
    }
}
