import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
import JournalMediaServer

/// Presets are parsed by the library, strictly: errors name the JSON path and the accepted
/// values; encoder settings per format reach the encoders.
@Suite struct PresetTests {
    func error(_ json: String) -> PresetError? {
        do { _ = try Preset.parse(Data(json.utf8)); return nil } catch { return error }
    }

    @Test func mistakesNameThePathAndTheAcceptedValues() {
        #expect(error(#"{"renditions": [{"role": "a", "format": "webp", "width": 10, "qualty": 80}]}"#)?.description
                == "renditions[0].qualty: unknown key; accepted: " + Preset.specKeys.joined(separator: ", "))
        #expect(error(#"{"renditions": [{"role": "a", "format": "heic", "width": 10}]}"#)?.description
                == #"renditions[0].format: "heic" is not accepted; accepted: webp, jpeg, png, avif, jxl"#)
        #expect(error(#"{"renditions": [{"role": "a", "format": "webp", "width": 10, "effort": 8}]}"#) != nil)
        #expect(error(#"{"renditions": [{"role": "a", "format": "avif", "width": 10, "effort": 8}]}"#) == nil)
        #expect(error(#"{"renditions": [{"role": "a", "format": "png", "width": "10"}]}"#)?.description
                == "renditions[0].width: expected an integer")
        #expect(error(#"{"renditions": [{"role": "a", "format": "png", "width": 10}, {"role": "b", "format": "jpeg", "width": 10, "quality": 101}]}"#)?.description
                == "renditions[1].quality: 101 is out of range 1–100")
        #expect(error(#"{"renditions": [{"role": "a", "format": "jpeg", "width": 10, "progressive": 1}]}"#)?.description
                == "renditions[0].progressive: expected true or false")
        #expect(error(#"{"renditions": [{"role": "../../x", "format": "png", "width": 10}]}"#)?.path == "renditions[0].role")
        #expect(error(#"{"rendition": []}"#)?.description == "rendition: unknown key; accepted: renditions, cardClasses")
        #expect(error("[1]")?.path == "")
        #expect(error("not json")?.message.hasPrefix("not JSON") == true)
    }

    /// Issue 28: a preset (CLI `--preset`, the service's named presets) chooses the card size
    /// classes a suggestion draws, as `--card-classes` / `cardClasses` do per run.
    @Test func aPresetChoosesTheCardSizeClasses() throws {
        let rendition = #"{"role": "a", "format": "webp", "width": 10}"#
        let text = try Preset.parseContents(Data(#"{"renditions": [\#(rendition)], "cardClasses": "tile=384x384,portrait"}"#.utf8))
        #expect(text.cardSizes == [CardSize(.tile, width: 384, height: 384), CardSize(.portrait)])
        let list = try Preset.parseContents(Data(#"{"renditions": [\#(rendition)], "cardClasses": ["landscape"]}"#.utf8))
        #expect(list.cardSizes == [CardSize(.landscape)])
        #expect(try Preset.parseContents(Data(#"{"renditions": [\#(rendition)]}"#.utf8)).cardSizes == nil)
        #expect(error(#"{"renditions": [\#(rendition)], "cardClasses": "tile,poster"}"#)?.path == "cardClasses")
        #expect(error(#"{"renditions": [\#(rendition)], "cardClasses": 3}"#)?.path == "cardClasses")
        // The service keeps them per preset name.
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("serve.json")
        try Data(#"{"presets": {"grid": {"renditions": [\#(rendition)], "cardClasses": "tile"}, "plain": {"renditions": [\#(rendition)]}}}"#.utf8).write(to: file)
        var configuration = ServeConfiguration()
        try configuration.apply(configFile: file)
        #expect(configuration.presetCardSizes["grid"] == [CardSize(.tile)] && configuration.presetCardSizes["plain"] == nil)
    }

    @Test func encoderSettingsReachTheEncoders() throws {
        let specs = try Preset.parse(Data(#"""
            {"renditions": [
              {"role": "small", "format": "webp", "width": 256, "effort": 0},
              {"role": "big", "format": "webp", "width": 256, "effort": 6},
              {"role": "base", "format": "jpeg", "width": 256},
              {"role": "prog", "format": "jpeg", "width": 256, "progressive": true, "chromaSubsampling": "off"},
              {"role": "fast", "format": "png", "width": 256, "compression": 0}
            ]}
            """#.utf8))
        #expect(specs[1].effort == 6 && specs[3].progressive == true && specs[3].chromaSubsampling == .off)
        let result = AssetProcessor(options: ProcessingOptions(renditions: specs))
            .processBlocking(fileAt: TestSupport.sample("orientation-6-gps-p3.jpg"))
        #expect(result.error == nil)
        let byRole = Dictionary(uniqueKeysWithValues: result.renditions.map { ($0.role, $0) })
        let small = try #require(byRole["small"]), big = try #require(byRole["big"])
        #expect(small.data != big.data, "effort changes the WebP encode")
        let base = try #require(byRole["base"]).data, prog = try #require(byRole["prog"]).data
        // SOF0 (baseline) vs SOF2 (progressive) markers.
        #expect(base.indices.contains { base[$0] == 0xFF && $0 + 1 < base.count && base[$0 + 1] == 0xC0 })
        #expect(prog.indices.contains { prog[$0] == 0xFF && $0 + 1 < prog.count && prog[$0 + 1] == 0xC2 })
        // The SOF2 component table: luma sampling 0x11 means 4:4:4.
        let sof = try #require(prog.indices.first { prog[$0] == 0xFF && $0 + 1 < prog.count && prog[$0 + 1] == 0xC2 })
        #expect(prog[sof + 11] == 0x11)
        let png = try #require(byRole["fast"]).data
        #expect(try TestImage(png).width == 256 || TestImage(png).height == 256)
        // The defaults' JSON is unchanged by the new optional settings (manifests stay comparable).
        let json = String(decoding: try JSONEncoder().encode(Defaults.renditions[0]), as: UTF8.self)
        #expect(!json.contains("effort") && !json.contains("progressive"))
    }

    /// A library caller's hostile roles never reach the file system.
    @Test(arguments: ["../../../x", "/etc/x", "a/b", "..", ""])
    func batchesRefuseRolesThatAreNotPlainNames(_ role: String) async throws {
        let output = try TestSupport.temporaryFolder()
        let batch = Batch(inputs: [TestSupport.sample("photo.heic")], output: output.appendingPathComponent("out"),
                          options: ProcessingOptions(renditions: [RenditionSpec(role: role, format: .webp, width: 64)]))
        await #expect(throws: BatchError.self) { try await batch.run() }
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("out").path))
    }
}
