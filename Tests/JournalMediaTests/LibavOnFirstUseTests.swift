import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// libav is opened on first use (CLibavLoader), not linked (issue 19): a run that converts
/// only stills never loads it, a movie loads it, a HEIC loads libavcodec without libavformat,
/// and a libav that cannot be loaded fails the movie with a typed error naming the library
/// while the stills beside it still convert. Runs the built CLI with the dynamic linker's
/// own report (`LD_DEBUG=files`, one `file=NAME [0];  needed by …` or `dynamically loaded by`
/// line per library it opens), written to files (`LD_DEBUG_OUTPUT`), not the stderr pipe.
@Suite struct LibavOnFirstUseTests {
    /// Converts the named samples; with `traced`, also the set of libraries the run opened,
    /// by file name.
    static func convert(_ names: [String], traced: Bool = false, environment: [String: String] = [:]) throws
        -> (run: TestSupport.CLIRun, manifest: Manifest, loaded: Set<String>)
    {
        let input = try TestSupport.temporaryFolder("libav-in")
        let output = try TestSupport.temporaryFolder("libav-out")
        let trace = try TestSupport.temporaryFolder("libav-trace")
        defer { for folder in [input, output, trace] { try? FileManager.default.removeItem(at: folder) } }
        try TestSupport.copySamples(names, to: input)
        var environment = environment
        if traced {
            environment["LD_DEBUG"] = "files"
            environment["LD_DEBUG_OUTPUT"] = trace.appendingPathComponent("ld").path
        }
        let run = try TestSupport.runCLI(["convert", input.path, "-o", output.path, "--quiet"], environment: environment)
        let manifest = try Manifest.decode(try Data(contentsOf: output.appendingPathComponent("manifest.json")))
        var loaded = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: trace.path) {
            let text = try String(contentsOf: trace.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                guard let range = line.range(of: "file=") else { continue }
                let name = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != "[" }
                if let last = name.split(separator: "/").last { loaded.insert(String(last)) }
            }
        }
        return (run, manifest, loaded)
    }

    @Test func stillsNeverLoadLibav() throws {
        let (run, manifest, loaded) = try Self.convert(["orientation-8-srgb.jpg", "alpha-disc.png"], traced: true)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(manifest.assets.count == 2 && manifest.assets.allSatisfy { $0.error == nil && !$0.renditions.isEmpty })
        // The report is there (libvips is linked), and names no libav library.
        #expect(loaded.contains("libvips.so.42"), "\(loaded.sorted())")
        #expect(loaded.filter { $0.hasPrefix("libav") || $0.hasPrefix("libswscale") }.isEmpty, "\(loaded.sorted())")
    }

    @Test func aMovieLoadsLibavAndAHEICOnlyLibavcodec() throws {
        let (movie, movieManifest, movieLoaded) = try Self.convert(["video-rotated-90.mp4"], traced: true)
        #expect(movie.status == 0, "\(movie.stderr.suffix(2000))")
        #expect(movieManifest.assets.first?.error == nil && movieManifest.assets.first?.renditions.isEmpty == false)
        #expect(["libavformat.so.59", "libavcodec.so.59", "libavutil.so.57", "libswscale.so.6"].allSatisfy(movieLoaded.contains),
                "\(movieLoaded.sorted())")

        let (heic, heicManifest, heicLoaded) = try Self.convert(["photo.heic"], traced: true)
        #expect(heic.status == 0, "\(heic.stderr.suffix(2000))")
        #expect(heicManifest.assets.first?.error == nil && heicManifest.assets.first?.renditions.isEmpty == false)
        #expect(heicLoaded.contains("libavcodec.so.59"), "\(heicLoaded.sorted())")
        #expect(!heicLoaded.contains("libavformat.so.59"), "\(heicLoaded.sorted())")
    }

    /// libavfilter (about 30 more libraries) is loaded only by a poster the table tone curve
    /// does not cover: a JPEG, an SDR movie and an HLG movie (BT.2020, table path) leave it
    /// out; a PQ movie in DCI-P3 primaries (zscale + tonemap graph) loads it with what it
    /// needs. An unloadable libavfilter costs that movie only its tone-map: the poster falls
    /// back to the SDR conversion, the run succeeds, and the asset's warnings say why.
    @Test func onlyTheFilterGraphPosterLoadsLibavfilter() throws {
        let (run, manifest, loaded) = try Self.convert(["orientation-8-srgb.jpg", "video-rotated-90.mp4",
                                                        "video-hdr-hlg.mov"], traced: true)
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(manifest.assets.count == 3 && manifest.assets.allSatisfy { $0.error == nil && !$0.renditions.isEmpty })
        #expect(["libavformat.so.59", "libavcodec.so.59", "libswscale.so.6"].allSatisfy(loaded.contains), "\(loaded.sorted())")
        #expect(!loaded.contains("libavfilter.so.8"), "\(loaded.sorted())")

        let (graph, graphManifest, graphLoaded) = try Self.convert(["video-hdr-pq-dci-p3.mov"], traced: true)
        #expect(graph.status == 0, "\(graph.stderr.suffix(2000))")
        let movie = try #require(graphManifest.assets.first)
        #expect(movie.error == nil && !movie.renditions.isEmpty && movie.video?.hdr == true)
        #expect(["libavfilter.so.8", "libswresample.so.4", "libpostproc.so.56"].allSatisfy(graphLoaded.contains),
                "\(graphLoaded.sorted())")

        let broken = try TestSupport.temporaryFolder("libavfilter-broken")
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data().write(to: broken.appendingPathComponent("libavfilter.so.8"))
        let (fallback, fallbackManifest, _) = try Self.convert(["video-hdr-pq-dci-p3.mov"],
                                                               environment: ["LD_LIBRARY_PATH": broken.path])
        #expect(fallback.status == 0, "\(fallback.stderr.suffix(2000))")
        let washedOut = try #require(fallbackManifest.assets.first)
        #expect(washedOut.error == nil && !washedOut.renditions.isEmpty)
        // The SDR conversion stood in, and the manifest says why.
        let warning = washedOut.warnings?.first { $0.hasPrefix("poster: the HDR frame could not be tone-mapped") }
        #expect(warning?.contains("libavfilter.so.8") == true, "\(washedOut.warnings ?? [])")
        #expect(graphManifest.assets.first?.warnings == nil, "\(graphManifest.assets.first?.warnings ?? [])")
    }

    /// An unloadable libavcodec (an empty file of its name first on the library path): the
    /// movie and the audio file fail with the dynamic linker's reason, the JPEG converts, the
    /// HEIC too (libvips' libheif decodes it when the libavcodec path fails), nothing crashes,
    /// and `--version` says libav is unavailable. Before issue 19 the program did not start.
    @Test func anUnloadableLibavIsATypedFailure() throws {
        let broken = try TestSupport.temporaryFolder("libav-broken")
        defer { try? FileManager.default.removeItem(at: broken) }
        try Data().write(to: broken.appendingPathComponent("libavcodec.so.59"))
        let environment = ["LD_LIBRARY_PATH": broken.path]
        let (run, manifest, _) = try Self.convert(["orientation-8-srgb.jpg", "photo.heic", "video-rotated-90.mp4",
                                                "song-cover.m4a"], environment: environment)
        #expect(run.status == 1, "some assets failed, none crashed: \(run.stderr)")
        let bySource = Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.source, $0) })
        for name in ["orientation-8-srgb.jpg", "photo.heic"] {
            #expect(bySource[name]?.error == nil, "\(name): \(String(describing: bySource[name]?.error))")
            #expect(bySource[name]?.renditions.isEmpty == false)
        }
        for name in ["video-rotated-90.mp4", "song-cover.m4a"] {
            let error = try #require(bySource[name]?.error, "\(name) should fail")
            #expect(error.message.contains("libavcodec.so.59 could not be loaded"), "\(name): \(error.message)")
            #expect(error.message.contains("file too short"), "\(name): \(error.message)")
        }
        #expect(bySource["video-rotated-90.mp4"]?.error?.reason == .unsupportedFormat)

        let version = try TestSupport.runCLI(["--version"], environment: environment)
        #expect(version.status == 0)
        #expect(version.stdout.contains("libav unavailable (libavcodec.so.59 could not be loaded"), "\(version.stdout)")
    }
}
