import Foundation
import Testing
@testable import JournalMedia
import JournalMediaCore

/// `SuggestionProcessor`'s async, in-memory calls on the committed sample bundles: every item
/// gets an image, cards have their sizes, nothing is written, the files are the ones the disk
/// path writes, the work runs on the executor, and a cancelled call stops.
@Suite struct SuggestionInMemoryTests {
    static let morningRun = TestSupport.sample("suggestions/morning-run/suggestion.json")

    /// Names and sizes of every file below `folder`.
    static func listing(_ folder: URL) -> [String: Int] {
        var files: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        while let url = enumerator?.nextObject() as? URL {
            files[url.path] = (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize
        }
        return files
    }

    @Test func everyItemHasItsImagesInMemoryAndNothingIsWritten() async throws {
        let samples = Self.listing(TestSupport.samples)
        let executor = AssetExecutor(maxConcurrentAssets: 2, label: "in-memory test")
        let processor = SuggestionProcessor(executor: executor)
        let result = try await processor.process(bundleAt: Self.morningRun)
        let output = result.output
        #expect(output.items.map(\.id) == ["A1", "A2", "6F0E", "A4", "A5", "A6", "A7"])
        #expect(output.summary.failed == 0, "\(output.items.compactMap(\.error))")
        for item in output.items {
            #expect(item.renditions.contains { $0.role == "thumbnail" }, "\(item.id) has an image")
            for rendition in item.renditions {
                let bytes = try #require(result.data(for: rendition), "\(item.id) \(rendition.path)")
                #expect(bytes.count == rendition.bytes)
                let image = try TestImage(bytes)
                #expect(image.width == rendition.width && image.height == rendition.height, "\(rendition.path)")
            }
            if item.output == "card" {
                let sizes = Dictionary(uniqueKeysWithValues: item.renditions.map { ($0.role, [$0.width, $0.height]) })
                #expect(sizes == ["thumbnail": [512, 512], "thumbnailDark": [512, 512],
                                  "fallback": [1200, 1500], "fallbackDark": [1200, 1500],
                                  "landscape": [1600, 1000], "landscapeDark": [1600, 1000]], "\(item.id)")
            }
        }
        #expect(output.coverCollage.count == 3)
        for collage in output.coverCollage { #expect(result.data(for: collage.rendition) != nil) }
        let json = try JSONDecoder().decode(SuggestionOutput.self, from: Data(result.json))
        #expect(json == output, "suggestion.json is the model returned")
        // Nothing written beside the bundle (the call has no output folder to write to).
        #expect(Self.listing(TestSupport.samples) == samples)
        // Every item (and the collages) ran in a slot of the executor, two at a time at most.
        #expect(executor.counters.completed == output.items.count + 1)
        #expect(executor.counters.peakRunning <= 2)
    }

    @Test func theFilesAreTheOnesTheDiskPathWrites() async throws {
        let memory = try await SuggestionProcessor().process(bundleAt: Self.morningRun)
        let out = try TestSupport.temporaryFolder("in-memory-vs-disk")
        let disk = try SuggestionProcessor().process(bundleAt: Self.morningRun, output: out)
        let folder = out.appendingPathComponent(disk.bundleId)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(memory.files.keys.sorted() == names)
        for name in names {
            #expect(memory.files[name] == [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))), "\(name)")
        }
        // And written from memory, the same folder again.
        let again = try TestSupport.temporaryFolder("in-memory-written")
        try memory.write(to: again)
        #expect(try FileManager.default.contentsOfDirectory(atPath: again.appendingPathComponent(disk.bundleId).path).sorted()
                == names)
    }

    @Test func filesSuppliedByTheCaller() async throws {
        let folder = Self.morningRun.deletingLastPathComponent()
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(at: folder.appendingPathComponent("files"), includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard let data = try? Data(contentsOf: url), !url.hasDirectoryPath else { continue }
            files[String(url.path.dropFirst(folder.path.count + 1))] = [UInt8](data)
        }
        files["files/photo.jpg"] = nil
        let bundle = try SuggestionBundleReader.read(try Data(contentsOf: Self.morningRun))
        let result = await SuggestionProcessor().process(bundle, files: .memory(files))
        let failed = result.output.items.filter { $0.error != nil }
        #expect(failed.map(\.id) == ["A1"], "only the photo left out fails")
        #expect(failed.first?.error?.reason == .unreadable)
        #expect(failed.first?.renditions.map(\.role).contains("thumbnail") == true, "and it still gets a card")
        #expect(result.output.items.filter { $0.error == nil }.allSatisfy { !$0.renditions.isEmpty })
    }

    @Test func aCancelledCallStops() async throws {
        let executor = AssetExecutor(maxConcurrentAssets: 1, label: "cancel test")
        let processor = SuggestionProcessor(options: SuggestionOptions(jobs: 1), executor: executor)
        let task = Task { try await processor.process(bundleAt: Self.morningRun) }
        task.cancel()
        let result = try await task.value
        let errors = result.output.items.compactMap(\.error)
        #expect(!errors.isEmpty, "items after the cancel never ran")
        #expect(errors.allSatisfy { $0.reason == .cancelled }, "\(errors)")
    }
}
