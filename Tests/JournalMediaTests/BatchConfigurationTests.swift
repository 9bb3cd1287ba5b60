import Foundation
import Synchronization
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 33, item 6: a batch is set up in one value (`BatchConfiguration`) and observed
/// through `BatchEvents`; the properties set after `init` still work, through them; one
/// rendition writer serves the batch, the service and suggestion bundles.
@Suite struct BatchConfigurationTests {
    @Test func aBatchIsOneConfigurationAndItsEvents() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let progress = Mutex(0)
        var events = BatchEvents()
        events.onProgress = { _ in progress.withLock { $0 += 1 } }
        let configuration = BatchConfiguration(jobs: 0, strict: true, returnsEntries: false)
        #expect(configuration.jobs == 1)
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("alpha-disc.png"), to: input.appendingPathComponent("a.png"))
        try Data("notes".utf8).write(to: input.appendingPathComponent("notes.txt"))
        var batch = Batch(inputs: [input], output: root.appendingPathComponent("out"), configuration: configuration,
                          events: events)
        let manifest = try await batch.run()
        #expect(manifest.assets.isEmpty, "returnsEntries false")
        #expect(manifest.summary.failed == 1, "strict: the text file fails")
        #expect(progress.withLock { $0 } == 2)
        // The earlier spelling reads and writes the same values.
        batch.verify = true
        batch.shard = BatchShard(index: 0, count: 2)
        #expect(batch.configuration.verify && batch.configuration.shard == BatchShard(index: 0, count: 2))
        #expect(batch.strict && batch.jobs == 1 && batch.onProgress != nil)
    }

    @Test func theWriterStopsAtTheFirstRenditionItCannotStore() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A folder where the second file should go.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("b.png"), withIntermediateDirectories: true)
        var renditions = [Rendition(role: "a", format: .png, width: 1, height: 1, data: [1, 2, 3]),
                          Rendition(role: "b", format: .png, width: 1, height: 1, data: [4]),
                          Rendition(role: "c", format: .png, width: 1, height: 1, data: [5])]
        do {
            try RenditionWriter.write(&renditions, under: folder) { "\($0.role).\($0.format.fileExtension)" }
            Issue.record("wrote over a folder")
        } catch {
            #expect(error.path == "b.png")
        }
        #expect(renditions[0].path == "a.png" && renditions[0].data.isEmpty && renditions[0].bytes == 3)
        #expect(renditions[1].path == nil && renditions[2].path == nil && renditions[2].data == [5])
        #expect(try Data(contentsOf: folder.appendingPathComponent("a.png")) == Data([1, 2, 3]))
        // Any store: here memory.
        var stored: [String: [UInt8]] = [:]
        var more = [Rendition(role: "c", format: .webp, width: 1, height: 1, data: [9])]
        try RenditionWriter.write(&more, path: { "x.\($0.role).\($0.format.fileExtension)" }, store: { stored[$1] = $0 })
        #expect(stored == ["x.c.webp": [9]] && more[0].path == "x.c.webp")
    }
}
