// Bytes in, as a server gets them: a thumbnail, the capture date and a colour of a photo;
// then a suggestion bundle's cards, in memory, and one item's cards alone. Nothing is written.
// Usage: Consumer [PHOTO] [SUGGESTION.JSON] (defaults: the project's samples).
import Foundation
import JournalMedia

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized
let arguments = CommandLine.arguments.dropFirst()
let photo = arguments.first.map { URL(fileURLWithPath: $0) }
    ?? root.appendingPathComponent("Samples/orientation-6-gps-p3.jpg")
let bundle = arguments.dropFirst().first.map { URL(fileURLWithPath: $0) }
    ?? root.appendingPathComponent("Samples/suggestions/morning-run/suggestion.json")

var failed = false

// 1. An upload's bytes: renditions, date and colours in one call, on the shared executor.
let bytes = try [UInt8](Data(contentsOf: photo))
let result = await AssetProcessor().process(data: bytes, filename: photo.lastPathComponent)
if let error = result.error {
    print("photo failed: \(error.message)")
    failed = true
} else if let thumbnail = result.renditions.first(where: { $0.role == "thumbnail" }) {
    print("thumbnail: \(thumbnail.format.rawValue) \(thumbnail.width)x\(thumbnail.height), \(thumbnail.data.count) bytes")
    print("captured: \(result.captureDate?.local?.description ?? "unknown") (\(result.captureDate?.source ?? "none"))")
    if let colors = result.colors {
        print("colour: average \(colors.average), card \(colors.card.light.background) on \(colors.card.light.foreground)")
    }
} else {
    print("photo: no thumbnail")
    failed = true
}

// 2. A suggestion bundle: every item's image in memory, cards included.
do {
    let cards = try await SuggestionProcessor().process(bundleAt: bundle)
    let summary = cards.output.summary
    print("bundle \(cards.output.bundleId): \(summary.items) items, \(summary.cards) cards, \(summary.failed) failed")
    for item in cards.output.items {
        let tile = item.renditions.first { $0.role == "thumbnail" }
        let size = tile.flatMap { cards.data(for: $0) }?.count ?? 0
        print("  \(item.id) \(item.type): \(item.output) \(tile.map { "\($0.width)x\($0.height)" } ?? "-") \(size) bytes")
        if tile == nil || size == 0 { failed = true }
    }
} catch {
    print("bundle refused: \(error)")
    failed = true
}

// 3. One item's cards in one call: the bundle's first card item, its tile in both appearances.
do {
    let suggestion = try SuggestionBundleReader.read(Data(contentsOf: bundle))
    if let item = suggestion.suggestion.items.first(where: { !["photo", "video", "livePhoto"].contains($0.type) }) {
        let made = try await SuggestionProcessor().cards(for: item, in: suggestion,
                                                         files: .folder(bundle.deletingLastPathComponent()),
                                                         classes: [.tile])
        for card in made.cards {
            print("card \(item.id) \(card.sizeClass) \(card.appearance): \(card.rendition.format.rawValue) "
                  + "\(card.rendition.width)x\(card.rendition.height), \(card.rendition.data.count) bytes")
        }
        if made.cards.count != 2 { failed = true }
    }
} catch {
    print("cards failed: \(error)")
    failed = true
}
exit(failed ? 1 : 0)
