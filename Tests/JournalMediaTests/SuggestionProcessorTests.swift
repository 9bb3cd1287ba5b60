import Foundation
import Testing
@testable import JournalMedia
import JournalMediaCore
import JournalMediaImaging

/// Bundles end to end on the committed samples: every item gets its renditions or cards,
/// texts in every script have glyphs, bad references are refused per item, outputs are
/// private and deterministic, and suggestion.json says what was drawn.
@Suite struct SuggestionProcessorTests {
    struct Run: Sendable {
        let folder: URL
        let output: SuggestionOutput
        let jsonData: Data
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: jsonData)) as? [String: Any]) ?? [:] }
        var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
        func item(_ id: String) -> SuggestionItemOutput? { output.items.first { $0.id == id } }
        func file(_ path: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(path)) }
    }

    /// Each sample bundle processed once for the whole suite.
    static let runs: [String: Run] = {
        var runs: [String: Run] = [:]
        guard let out = try? TestSupport.temporaryFolder("suggestion-samples") else { return runs }
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let bundle = TestSupport.sample("suggestions/\(name)/suggestion.json")
            guard let output = try? SuggestionProcessor().process(bundleAt: bundle, output: out) else { continue }
            let folder = out.appendingPathComponent(output.bundleId)
            let data = (try? Data(contentsOf: folder.appendingPathComponent("suggestion.json"))) ?? Data()
            runs[name] = Run(folder: folder, output: output, jsonData: data)
        }
        return runs
    }()

    /// The roles of a card item: tile, portrait and landscape, light and dark.
    static let cardRoles = ["thumbnail", "thumbnailDark", "fallback", "fallbackDark", "landscape", "landscapeDark"]

    static func run(_ name: String) throws -> Run { try #require(runs[name], "\(name) was not processed") }

    @Test func everyItemOfTheExampleBundleIsProduced() throws {
        let run = try Self.run("morning-run")
        #expect(run.output.items.map(\.id) == ["A1", "A2", "6F0E", "A4", "A5", "A6", "A7"])
        #expect(run.output.summary.failed == 0, "\(run.output.items.compactMap(\.error))")
        for item in run.output.items {
            let roles = item.renditions.map(\.role)
            #expect(roles.contains("thumbnail") && roles.contains("fallback"), "\(item.id): \(roles)")
            if item.output == "card" {
                #expect(roles == Self.cardRoles, "\(item.id)")
                #expect(item.renditions.map(\.format) == [.webp, .webp, .png, .png, .png, .png])
                #expect(item.renditions[2].width == 1200 && item.renditions[2].height == 1500)
                #expect(item.renditions[0].width == 512 && item.renditions[0].height == 512)
                #expect(item.renditions[4].width == 1600 && item.renditions[4].height == 1000)
            }
            for rendition in item.renditions {
                let data = try run.file(rendition.path)
                #expect(data.count == rendition.bytes, "\(rendition.path)")
            }
        }
        #expect(run.item("A1")?.output == "media")
        #expect(run.item("A2")?.renditions.map(\.role).contains("motionPoster") == true, "the given pair gives a motion poster")
        #expect(run.item("A2")?.pictures.first?.livePhoto?.pairedBy == .given)
        #expect(run.output.cover?.itemId == "A1", "the first photo is the cover")
        // The workout icon and the song artwork went through the pipeline too.
        #expect(run.item("6F0E")?.pictures.map(\.field) == ["icon", "map"])
        #expect(run.item("A7")?.pictures.first?.colors != nil)
    }

    @Test func suggestionJSONSaysWhatWasDrawn() throws {
        let run = try Self.run("morning-run")
        let workout = try #require(run.items.first { $0["id"] as? String == "6F0E" })
        #expect(workout["headline"] as? String == "Outdoor Run")
        #expect(workout["lines"] as? [String] == ["52 min · 10,02 km", "512 kcal · 151 bpm"])
        let dates = try #require(workout["dates"] as? [[String: Any]])
        #expect(dates.first?["raw"] as? String == "2025-10-04T06:00:00Z")
        #expect(dates.first?["formatted"] as? String == "4. Okt. 2025, 8:00")
        for key in ["error", "badge", "footnote", "headline", "light", "dark", "cards", "missingGlyphs", "warnings", "pictures"] {
            #expect(workout.keys.contains(key), "\(key) is always written")
        }
        let light = try #require(workout["light"] as? [String: Any])
        let colors = try #require(light["colors"] as? [String: Any])
        #expect(abs(colors["headlineLc"] as? Double ?? 0) >= 75)
        #expect(abs(colors["bodyLc"] as? Double ?? 0) >= 60)
        let reflection = try #require(run.item("A5"))
        #expect(reflection.light?.colors.foreground == "#FFFFFF", "white on #0A84FF, the toolkit's APCA choice")
        #expect(reflection.light?.colors.requestedBackground == ["#0A84FF"], "darkened to reach Lc 75")
        let mood = try #require(run.item("A6"))
        #expect(mood.chips == ["Joyful", "Proud", "Calm", "Fitness", "Self-care"])
        #expect(run.json["cover"] as? [String: Any] != nil)
        #expect((run.json["summary"] as? [String: Any])?["failed"] as? Int == 0)
    }

    @Test func everyScriptHasItsGlyphs() throws {
        for name in ["morning-run", "world-scripts", "edge-cases"] {
            let run = try Self.run(name)
            for item in run.output.items where item.output == "card" {
                #expect(item.missingGlyphs == 0, "\(name) \(item.id): \(item.headline ?? "")")
                #expect(item.light != nil && item.dark != nil || item.error != nil, "\(name) \(item.id)")
            }
            #expect(run.output.summary.missingGlyphs == 0)
        }
        let world = try Self.run("world-scripts")
        #expect(world.output.summary.failed == 0, "\(world.output.items.compactMap(\.error))")
        #expect(world.item("W1")?.headline == "ما الذي جعلك تبتسم اليوم؟")
    }

    @Test func badReferencesFailTheirItemOnly() throws {
        let run = try Self.run("edge-cases")
        func error(_ id: String) -> OutputError? { run.item(id)?.error }
        #expect(error("E4")?.reason == .unreadable, "missing file")
        #expect(error("E5")?.reason == .invalidInput && error("E5")?.message.contains("..") == true)
        #expect(error("E6")?.message.contains("absolute") == true)
        #expect(error("E7")?.message.contains("symbolic link") == true)
        #expect(error("E7")?.field == "photo")
        #expect(error("E13") != nil, "a corrupt app icon")
        for ok in ["E1", "E2", "E3", "E8", "E9", "E10", "E11", "E12"] {
            #expect(error(ok) == nil, "\(ok): \(String(describing: error(ok)))")
        }
        // Every item, failed or not, still has an image a client can show.
        for item in run.output.items {
            #expect(item.renditions.map(\.role).contains("fallback"), "\(item.id)")
        }
        #expect(run.item("E1")?.output == "media")
        #expect(run.item("E2")?.pictures.map(\.field) == ["fallbackImage"])
        #expect(run.item("E2")?.warnings.contains { $0.contains("travelTicket") } == true)
        #expect(run.item("E8")?.lines == ["Skipping"])
        #expect(run.output.cover?.itemId == "E1")
        // The refused files were not read: no renditions of them; the failed photo got a card.
        let names = try FileManager.default.contentsOfDirectory(atPath: run.folder.path)
        #expect(!names.contains { $0.hasPrefix("05-E5.photo") || $0.hasPrefix("06-E6.artwork") || $0.hasPrefix("07-E7.photo") })
        #expect(run.item("E5")?.output == "card")
        #expect(run.item("E5")?.renditions.map(\.role) == Self.cardRoles)
        // A photo whose file is missing: the "picture unavailable" card with the item's own
        // texts, in every size class, and its error kept.
        #expect(run.item("E4")?.headline == "Photo" && run.item("E4")?.lines == ["Picture unavailable"])
        #expect(run.item("E4")?.renditions.map(\.role) == Self.cardRoles)
        #expect(run.item("E4")?.cards.count == 6)
    }

    @Test func outputsCarryNoMetadata() throws {
        let run = try Self.run("morning-run")
        let markers = ["Exif\0\0", "eXIf", "tEXt", "iTXt", "zTXt", "XMP ", "http://ns.adobe.com", "ICCP", "iCCP"]
        for item in run.output.items {
            for rendition in item.renditions + item.pictures.flatMap(\.renditions) {
                let bytes = try run.file(rendition.path)
                for marker in markers {
                    #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(rendition.path) holds \(marker)")
                }
            }
        }
    }

    /// A small bundle of its own: a route, a gradient with chips, a prompt in two scripts,
    /// an artwork picture.
    static func smallBundle(in folder: URL, items: String) throws -> URL {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("files"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("suggestions/morning-run/files/artwork.jpg"),
                                         to: folder.appendingPathComponent("files/artwork.jpg"))
        let url = folder.appendingPathComponent("suggestion.json")
        try Data(#"{"schemaVersion":1,"bundleId":"small","locale":"de_DE","timeZone":"Europe/Berlin","suggestion":{"title":"Small","items":[\#(items)]}}"#.utf8).write(to: url)
        return url
    }

    static let smallItems = ##"""
        {"id":"w","type":"workout","route":[{"latitude":48.1,"longitude":11.5},{"latitude":48.11,"longitude":11.52},{"latitude":48.12,"longitude":11.5}],"details":{"activityType":13}},
        {"id":"m","type":"stateOfMind","kind":"dailyMood","valence":0.3,"labels":["calm","grateful"]},
        {"id":"r","type":"reflection","prompt":"Was war schön? 今日はどう？","color":"#4CAF50"},
        {"id":"s","type":"song","song":"Lied","artwork":"files/artwork.jpg"},
        {"id":"l","type":"location","place":"Marienplatz","latitude":48.137,"longitude":11.575}
        """##

    @Test func theSameBundleGivesTheSameBytes() throws {
        let out = try TestSupport.temporaryFolder()
        let bundle = try Self.smallBundle(in: out.appendingPathComponent("in"), items: Self.smallItems)
        let first = try SuggestionProcessor().process(bundleAt: bundle, output: out.appendingPathComponent("a"))
        let second = try SuggestionProcessor(options: SuggestionOptions(jobs: 1))
            .process(bundleAt: bundle, output: out.appendingPathComponent("b"))
        #expect(first == second)
        #expect(first.summary.failed == 0, "\(first.items.compactMap(\.error))")
        let a = out.appendingPathComponent("a/small"), b = out.appendingPathComponent("b/small")
        let names = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(names == (try FileManager.default.contentsOfDirectory(atPath: b.path).sorted()))
        #expect(names.count == 5 * 6 + 2 + 3 + 1, "six card files per item, the artwork's two renditions, three cover collages, suggestion.json")
        for name in names {
            #expect(try Data(contentsOf: a.appendingPathComponent(name)) == Data(contentsOf: b.appendingPathComponent(name)), "\(name)")
        }
    }

    @Test func aCardIsTheArchitecturesImageSource() throws {
        let bundle = try SuggestionBundleReader.read(Data(#"""
            {"schemaVersion":1,"bundleId":"one","suggestion":{"title":"T","items":[{"id":"r","type":"reflection","prompt":"What made you smile?"}]}}
            """#.utf8))
        let pair = CardSpecBuilder(bundle: bundle).cards(for: bundle.suggestion.items[0])
        let source = CardSource(spec: pair.light)
        let result = AssetProcessor().process(source, name: "card")
        #expect(result.error == nil)
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback"])
        #expect(result.renditions.map(\.width) == [410, 1200], "4:5 in the 512 box; the 1600 box does not enlarge")
        #expect(source.report.missingGlyphs == 0)
        let png = try TestImage(result.renditions[1].data)
        // The reflection's default indigo, darkened until white reaches Lc 75, fills the corner.
        let corner = try png.pixel(4, 4)
        let expected = try RGBColor.parse(pair.lightColors.background[0])
        #expect(abs(corner[0] - expected.red * 255) < 2 && abs(corner[2] - expected.blue * 255) < 2, "\(corner)")
    }

    @Test func theCommandLine() throws {
        let out = try TestSupport.temporaryFolder()
        let bundle = try Self.smallBundle(in: out.appendingPathComponent("in"), items: Self.smallItems)
        let ok = try TestSupport.runCLI(["suggestion", bundle.path, "--output", out.appendingPathComponent("out").path,
                                         "--redact-location", "--quiet", "--jobs", "2"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let text = try String(contentsOf: out.appendingPathComponent("out/small/suggestion.json"), encoding: .utf8)
        #expect(text.contains("Marienplatz") && !text.contains("°"), "redacted: no coordinates on the location card")
        let missing = try Self.smallBundle(in: out.appendingPathComponent("in2"), items: ##"""
            {"id":"p","type":"photo","photo":"files/nothing.jpg"},{"id":"r","type":"reflection","prompt":"Hi"}
            """##)
        let partial = try TestSupport.runCLI(["suggestion", missing.path, "--output", out.appendingPathComponent("out2").path])
        #expect(partial.status == 1)
        #expect(partial.stderr.contains("item p (photo): photo: read:"), "\(partial.stderr)")
        #expect(partial.stderr.contains("2 items: 1 succeeded, 1 failed"), "\(partial.stderr)")
        let broken = out.appendingPathComponent("broken.json")
        try Data(#"{"schemaVersion":1,"bundleId":"x","suggestion":{"title":"t","items":[{"id":"1","type":"motionActivity","steps":"many"}]}}"#.utf8).write(to: broken)
        let refused = try TestSupport.runCLI(["suggestion", broken.path, bundle.path, "--output", out.appendingPathComponent("out3").path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("broken.json: bundle: suggestion.items[0].steps: expected an integer"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("out3").path), "nothing produced")
        let help = try TestSupport.runCLI(["suggestion", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--redact-location") && help.stdout.contains("thumbnailDark"))
    }

    /// Issue 28: `--preset` chooses the card size classes (its `cardClasses`); `--card-classes` still wins.
    @Test func aPresetChoosesTheCardClassesOnTheCommandLine() throws {
        let out = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let bundle = try Self.smallBundle(in: out.appendingPathComponent("in"), items: #"{"id":"r","type":"reflection","prompt":"Hi"}"#)
        let preset = out.appendingPathComponent("grid.json")
        try Data(#"{"renditions": [{"role": "thumbnail", "format": "webp", "width": 256}], "cardClasses": "tile=384x384"}"#.utf8)
            .write(to: preset)
        func roles(_ arguments: [String], _ folder: String) throws -> [String] {
            let run = try TestSupport.runCLI(["suggestion", bundle.path, "--output", out.appendingPathComponent(folder).path,
                                              "--quiet", "--preset", preset.path] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            let data = try Data(contentsOf: out.appendingPathComponent("\(folder)/small/suggestion.json"))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let item = try #require((root["items"] as? [[String: Any]])?.first)
            return (item["renditions"] as? [[String: Any]] ?? []).compactMap { $0["role"] as? String }
                + (item["renditions"] as? [[String: Any]] ?? []).compactMap { ($0["width"] as? Int).map(String.init) }
        }
        #expect(try roles([], "a") == ["thumbnail", "thumbnailDark", "384", "384"])
        #expect(try roles(["--card-classes", "portrait"], "b") == ["fallback", "fallbackDark", "1200", "1200"])
    }
}
