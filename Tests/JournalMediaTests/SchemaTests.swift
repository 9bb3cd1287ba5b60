import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// The committed JSON Schemas (Schemas/) are the contracts of what the toolkit writes: every
/// sample's manifest entry, every `inspect` line and every `color` line must conform, and a
/// document that breaks the contract must be caught.
@Suite struct SchemaTests {
    @Test func everySamplesManifestConformsIncludingErrorsNullsAndLivePhotos() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let made = try await Batch(inputs: [TestSupport.samples], output: output, jobs: 2).run()
        let manifest = try TestSupport.manifest(in: output)
        #expect(manifest.assets.count == made.assets.count)
        // The run covers what the schema must describe: failures with null kind, Live Photos, movies.
        #expect(manifest.assets.contains { $0.kind == nil && $0.error != nil })
        #expect(manifest.assets.contains { $0.kind == .livePhoto && $0.livePhoto != nil })
        #expect(manifest.assets.contains { $0.video != nil })
    }

    @Test func encoderSettingsInThePresetConform() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let specs = try Preset.parse(Data("""
            {"renditions": [
              {"role": "small", "format": "webp", "width": 128, "effort": 2},
              {"role": "big", "format": "jpeg", "width": 640, "progressive": true, "chromaSubsampling": "off"},
              {"role": "lossless", "format": "png", "width": 64, "compression": 9}
            ]}
            """.utf8))
        let output = root.appendingPathComponent("out")
        _ = try await Batch(inputs: [TestSupport.sample("photo.heic"), TestSupport.sample("alpha-disc.png")],
                            output: output, options: ProcessingOptions(renditions: specs)).run()
        let manifest = try TestSupport.manifest(in: output)
        #expect(manifest.preset.count == 3)
    }

    @Test func inspectLinesConform() throws {
        let run = try TestSupport.runCLI(["inspect", TestSupport.samples.path])
        #expect(run.status == 1, "Samples/ holds broken files on purpose")
        let schema = try TestSupport.schema("inspect-line.v1.json")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count > 50)
        for line in lines {
            let problems = schema.problems(in: Data(line.utf8))
            #expect(problems.isEmpty, "\(line): \(problems)")
        }
        // The Live Photo still and its movie report their identifier; movies their duration.
        #expect(lines.contains { $0.contains("IMG_0001.JPG") && $0.contains("\"contentIdentifier\":\"5F0E6A4C-") })
        #expect(lines.contains { $0.contains("video-black-start.mp4") && $0.contains("\"durationSeconds\":3,") })
        #expect(lines.contains { $0.contains("IMG_0001.MOV") && $0.contains("\"contentIdentifier\":\"5F0E6A4C-") })
        // Issue 17: new containers, a duration estimated from MPEG-TS timestamps, Matroska's date.
        #expect(lines.contains { $0.contains("video-h264.mts") && $0.contains("\"format\":\"mpegts\"")
            && $0.contains("\"durationSeconds\":2.0") })
        #expect(lines.contains { $0.contains("video-hevc.mkv") && $0.contains("\"source\":\"matroska.DateUTC\"") })
        #expect(lines.contains { $0.contains("video-vp9.webm") && $0.contains("\"mediaType\":\"video/webm\"") })
        #expect(lines.contains { $0.contains("empty.png") && $0.contains("\"reason\":\"empty\"") })
    }

    @Test func colorLinesConform() throws {
        let run = try TestSupport.runCLI(["color", "#0A84FF", "#FFD60A", "#777777", "#FF000080"])
        #expect(run.status == 0, "\(run.stderr)")
        let schema = try TestSupport.schema("color-line.v1.json")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines { #expect(schema.problems(in: Data(line.utf8)).isEmpty, "\(line)") }
        #expect(lines.contains { $0.contains("accessibleForeground") }, "#777777 needs a tone-shifted foreground")
    }

    @Test func theCheckerCatchesBrokenDocuments() throws {
        let schema = try TestSupport.schema("manifest.v1.json")
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let good = try JSONValue.parse(Data("""
            {"schemaVersion":1,"generator":"journal-media 0.1.0","preset":[],"assets":[],
             "summary":{"assets":0,"succeeded":0,"failed":0,"processed":0,"skipped":0,
                        "elapsedSeconds":0,"assetsPerSecond":0}}
            """.utf8))
        #expect(schema.problems(in: good).isEmpty)
        let broken = [
            #"{"schemaVersion":2}"#,
            #"{"schemaVersion":1,"generator":"x","preset":[],"assets":[],"summary":{}}"#,
            """
            {"schemaVersion":1,"generator":"journal-media 0.1.0","preset":[],
             "assets":[{"source":"a.jpg","sha256":"nothex","bytes":1,"modified":1,"kind":"photo",
               "mediaType":"image/jpeg","width":1,"height":1,"orientation":9,"captureDate":null,
               "contentIdentifier":null,"video":null,"livePhoto":null,"renditions":[],"colors":null,
               "placeholder":null,"error":{"stage":"decode","reason":"truncated","message":""}}],
             "summary":{"assets":1,"succeeded":0,"failed":1,"processed":1,"skipped":0,"elapsedSeconds":0,"assetsPerSecond":0}}
            """,
        ]
        for text in broken {
            #expect(!schema.problems(in: Data(text.utf8)).isEmpty, "\(text)")
        }
        let problems = schema.problems(in: Data(broken[2].utf8))
        #expect(problems.contains { $0.contains("orientation") })
        #expect(problems.contains { $0.contains("sha256") })
        #expect(problems.contains { $0.contains("message") })
    }
}
