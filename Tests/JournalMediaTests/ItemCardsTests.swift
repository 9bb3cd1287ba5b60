import Foundation
import Testing
import JournalMedia

/// One call for one item's cards (issue 32): `SuggestionProcessor.cards(for:in:files:…)` draws
/// the cards the whole bundle would draw for that item — the same bytes — for the size classes
/// and appearances asked for, in memory, on the executor; media items are refused up front.
@Suite struct ItemCardsTests {
    static let morningRun = TestSupport.sample("suggestions/morning-run/suggestion.json")

    static func bundle() throws -> SuggestionBundle {
        try SuggestionBundleReader.read(Data(contentsOf: morningRun))
    }

    static func item(_ id: String, of bundle: SuggestionBundle) throws -> SuggestionItem {
        try #require(bundle.suggestion.items.first { $0.id == id })
    }

    @Test func aWorkoutsSixCardsAreTheBundlesOwn() async throws {
        let bundle = try Self.bundle()
        let folder = Self.morningRun.deletingLastPathComponent()
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "item cards test")
        let processor = SuggestionProcessor(executor: executor)
        let workout = try Self.item("6F0E", of: bundle)
        let made = try await processor.cards(for: workout, in: bundle, files: .folder(folder))
        #expect(made.cards.map { "\($0.sizeClass.rawValue) \($0.appearance.rawValue)" }
                == ["tile light", "tile dark", "portrait light", "portrait dark", "landscape light", "landscape dark"])
        #expect(made.item.id == "6F0E" && made.item.output == "card" && made.item.error == nil)
        #expect(made.item.headline?.isEmpty == false && made.item.light != nil && made.item.dark != nil)
        #expect(executor.counters.completed == 1, "one slot of the executor")

        // The same bytes as the whole bundle's cards for this item.
        let whole = try await SuggestionProcessor().process(bundleAt: Self.morningRun)
        let entry = try #require(whole.output.items.first { $0.id == "6F0E" })
        for card in made.cards {
            let rendition = try #require(entry.renditions.first { $0.role == card.rendition.role })
            #expect(whole.data(for: rendition) == card.rendition.data, "\(card.rendition.role)")
            #expect(card.rendition.width == rendition.width && card.rendition.height == rendition.height)
            let image = try TestImage(card.rendition.data)
            #expect(image.width == rendition.width && image.height == rendition.height)
        }
        #expect(made.card(.portrait, .dark)?.rendition.format == .png)
        #expect(made.card(.tile)?.rendition.format == .webp)
        // The workout's icon went through the pipeline; its renditions are among the files.
        for picture in made.item.pictures {
            for rendition in picture.renditions { #expect(made.files[rendition.path]?.count == rendition.bytes) }
        }
    }

    @Test func oneClassInOneAppearance() async throws {
        let bundle = try Self.bundle()
        let song = try Self.item("A7", of: bundle)
        let folder = Self.morningRun.deletingLastPathComponent()
        let artwork = try [UInt8](Data(contentsOf: folder.appendingPathComponent("files/artwork.jpg")))
        let made = try await SuggestionProcessor().cards(for: song, in: bundle, files: .memory(["files/artwork.jpg": artwork]),
                                                          classes: [.tile], appearances: [.dark])
        #expect(made.cards.count == 1)
        let tile = try #require(made.card(.tile, .dark))
        #expect(tile.rendition.role == "thumbnailDark" && tile.rendition.format == .webp)
        #expect(tile.rendition.width == 512 && tile.rendition.height == 512)
        let image = try TestImage(tile.rendition.data)
        #expect(image.width == 512 && image.height == 512)
        #expect(made.item.error == nil, "\(String(describing: made.item.error))")
        #expect(made.card(.tile, .light) == nil && made.card(.portrait, .dark) == nil)
    }

    @Test func aMissingPictureStillGivesACardAndAMediaItemIsRefused() async throws {
        let bundle = try Self.bundle()
        let song = try Self.item("A7", of: bundle)
        let made = try await SuggestionProcessor().cards(for: song, in: bundle, classes: [.portrait], appearances: [.light])
        #expect(made.cards.count == 1 && made.card(.portrait)?.rendition.data.isEmpty == false)
        #expect(made.item.error?.reason == .unreadable, "the artwork was not supplied")

        let photo = try Self.item("A1", of: bundle)
        do throws(OutputError) {
            _ = try await SuggestionProcessor().cards(for: photo, in: bundle)
            Issue.record("a photo item has no cards")
        } catch {
            #expect(error.reason == .invalidInput && error.message.contains("A1"))
        }
    }
}
