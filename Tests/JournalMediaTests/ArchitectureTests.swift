import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// The seams the rest of the toolkit plugs into: one open per input, bytes in memory
/// processed like files, Live Photos through the library, typed error reasons, and a new
/// kind of source made of one type.
@Suite struct ArchitectureTests {
    /// `strace` the CLI over a folder of stills, movies, audio and Live Photo pairs and count
    /// the `openat`s of each input file: exactly one each, for `convert` and `inspect`.
    @Test(arguments: [["convert", "--quiet", "--jobs", "2"], ["inspect", "--jobs", "2"]])
    func everyInputFileIsOpenedExactlyOnce(_ command: [String]) throws {
        let strace = try #require(["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "strace is installed by `make test`")
        let input = try TestSupport.temporaryFolder("opens")
        for name in ["photo.heic", "orientation-6-gps-p3.jpg", "alpha-disc.png", "icon.svg", "song-cover.m4a",
                     "video-rotated-90.mp4", "truncated.jpg", "live/IMG_0001.JPG", "live/IMG_0001.MOV",
                     // OpenEXR goes to libvips through a memfd (MemoryFile), not by its path.
                     "formats/linear.exr"] {
            let target = input.appendingPathComponent(name.replacingOccurrences(of: "/", with: "-"))
            try FileManager.default.copyItem(at: TestSupport.sample(name), to: target)
        }
        let output = try TestSupport.temporaryFolder("opens-out")
        let trace = output.appendingPathComponent("trace.txt")
        var arguments = ["-f", "-qq", "-e", "trace=openat", "-o", trace.path, TestSupport.cli.path] + [command[0], input.path]
        if command[0] == "convert" { arguments += ["--output", output.appendingPathComponent("out").path] }
        arguments += Array(command.dropFirst())
        let process = Process()
        process.executableURL = URL(fileURLWithPath: strace)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus <= 1)
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: input.path)
        #expect(files.count == 10)
        for file in files {
            let path = input.appendingPathComponent(file).path
            let opens = lines.filter { $0.contains("openat(") && $0.contains("\"\(path)\"") }.count
            #expect(opens == 1, "\(command[0]) opened \(file) \(opens) times")
        }
    }

    /// An upload processed from memory gives the same renditions as the same file on disk,
    /// for a still, a movie (libav reading memory through its custom I/O) and audio artwork.
    @Test(arguments: ["photo.heic", "orientation-6-gps-p3.jpg", "video-rotated-90.mp4", "song-cover.m4a"])
    func bytesInGiveTheSameRenditionsAsFileIn(_ name: String) async throws {
        let url = TestSupport.sample(name)
        let processor = AssetProcessor()
        let fromFile = await processor.process(fileAt: url)
        let fromBytes = await processor.process(data: Array(try Data(contentsOf: url)), filename: name)
        #expect(fromFile.error == nil && fromBytes.error == nil)
        #expect(fromBytes.source == name)
        #expect(fromBytes.sha256 == fromFile.sha256 && fromBytes.kind == fromFile.kind)
        #expect(fromBytes.renditions.map(\.data) == fromFile.renditions.map(\.data))
        #expect(!fromBytes.renditions.isEmpty)
        #expect(fromBytes.video == fromFile.video)
    }

    /// Bytes keep their original name for file-name dates, and no file time is invented.
    @Test func bytesInReadTheOriginalNamesDate() async throws {
        let name = "IMG-20230101-WA0001.jpg"
        let data = Array(try Data(contentsOf: TestSupport.sample("dates/" + name)))
        let result = await AssetProcessor().process(data: data, filename: name)
        #expect(result.captureDate?.source == "filename")
        #expect(result.captureDate?.local?.description == "2023-01-01T00:00:00")
        #expect(result.modified == nil)
    }

    /// A library user pairs and processes a Live Photo without `Batch`.
    @Test func livePhotoPairsAreProcessedByTheLibrary() throws {
        let probes = ["live/IMG_0001.JPG", "live/IMG_0001.MOV", "photo.heic"].map {
            ProbedAsset.open(TestSupport.sample($0), name: $0)
        }
        let pairs = LivePhotoPairer.pairs(probes)
        #expect(pairs == [LivePhotoPairer.Pair(still: 0, motion: 1, pairedBy: .contentIdentifier)])
        let result = AssetProcessor().process(livePhoto: probes[0], motion: probes[1], pairedBy: .contentIdentifier)
        #expect(result.error == nil)
        #expect(result.kind == .livePhoto)
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback", "motionPoster"])
        #expect(result.livePhoto?.motionSource == "live/IMG_0001.MOV")
        #expect(result.livePhoto?.motionSha256 == ContentDigest.sha256(Array(try Data(contentsOf: TestSupport.sample("live/IMG_0001.MOV")))))
        #expect(result.video != nil)
    }

    /// Callers switch on reasons instead of matching message text.
    @Test func failuresCarryTypedReasons() async throws {
        let processor = AssetProcessor()
        func reason(_ name: String, _ options: ProcessingOptions = ProcessingOptions()) async -> AssetErrorReason? {
            await AssetProcessor(options: options).process(fileAt: TestSupport.sample(name)).error?.reason
        }
        #expect(await reason("truncated.jpg") == .truncated)
        #expect(await reason("empty.png") == .empty)
        #expect(await reason("not-an-image.jpg") == .unsupportedFormat)
        #expect(await reason("song-no-cover.mp3") == .noArtwork)
        #expect(await reason("photo.heic", ProcessingOptions(maxPixels: 1000)) == .overPixelLimit)
        #expect(await reason("photo.heic", ProcessingOptions(maxBytes: 1000)) == .overByteLimit)
        let missing = await processor.process(fileAt: URL(fileURLWithPath: "/nonexistent/x.jpg"))
        #expect(missing.error?.reason == .unreadable && missing.error?.stage == .read)
        // The manifest carries stage, reason and message; the reason survives a round trip.
        let truncated = await processor.process(fileAt: TestSupport.sample("truncated.jpg"))
        let json = try JSONEncoder().encode(truncated)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["stage"] as? String == "decode" && error["reason"] as? String == "truncated")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(try JSONDecoder().decode(AssetResult.self, from: json) == truncated)
    }

    /// Every documented manifest field is present, `null` when unknown.
    @Test func resultsEncodeEveryFieldWithExplicitNulls() throws {
        let json = try JSONEncoder().encode(AssetResult(source: "x.jpg"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let expected: Set<String> = ["source", "sha256", "bytes", "modified", "kind", "mediaType", "width", "height",
                                     "orientation", "captureDate", "location", "place", "camera", "contentIdentifier", "video", "livePhoto",
                                     "renditions", "colors", "placeholder", "error"]
        #expect(Set(object.keys) == expected)
        #expect(object["sha256"] is NSNull && object["error"] is NSNull)
    }

    /// A kind of source without a file: one type conforming to `ImageSource`, handed to the
    /// processor, gets the shared rendition step (colours, placeholder, every rendition).
    @Test func aNewSourceIsOneTypeGivenToTheProcessor() throws {
        struct FlatColourSource: ImageSource {
            func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
                let box = plan.box(width: 800, height: 600, upscale: true)
                let pixels = [UInt8](repeating: 0, count: box.width * box.height * 3).enumerated().map { index, _ in
                    [UInt8(200), 40, 90][index % 3]
                }
                do throws(VipsError) {
                    let image = try VipsImageHandle.copyingPackedRGB(pixels, width: box.width, height: box.height)
                    return SourceImage(decoded: DecodedImage(image: image, hasRealTransparency: false),
                                       width: 800, height: 600, upscale: true)
                } catch {
                    throw AssetError(file: "flat", stage: .decode, message: error.message)
                }
            }
        }
        let result = AssetProcessor().process(FlatColourSource(), name: "flat")
        #expect(result.error == nil)
        #expect(result.renditions.map(\.role) == ["thumbnail", "fallback"])
        #expect(result.renditions.map(\.width) == [512, 1600], "upscaled to the boxes")
        #expect(result.colors?.average == "#C8285A")
        #expect(result.placeholder != nil)
    }

    /// Issue 33, item 4: suggestion links and push payloads (`link`, `push`) are a target of
    /// their own that needs Foundation alone; the core no longer holds them.
    @Test func notificationsAreTheirOwnTargetOnFoundationAlone() throws {
        let sources = TestSupport.packageRoot.appendingPathComponent("Sources")
        #expect(!FileManager.default.fileExists(atPath: sources.appendingPathComponent("JournalMediaCore/Notifications").path))
        // So are the suggestion bundle and card contents (JournalMediaSuggestions, on the core).
        #expect(!FileManager.default.fileExists(atPath: sources.appendingPathComponent("JournalMediaCore/Suggestions").path))
        #expect(FileManager.default.fileExists(atPath: sources.appendingPathComponent("JournalMediaSuggestions/CardSpecBuilder.swift").path))
        let folder = sources.appendingPathComponent("JournalMediaNotifications")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count == 17)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            #expect(imports.allSatisfy { $0 == "import Foundation" }, "\(file): \(imports)")
        }
    }
}
