import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 14, item 14: libvips keeps one error buffer for the whole process, so a failure's
/// text could be taken by a neighbouring thread and the error line end in an empty reason.
@Suite struct ErrorMessageTests {
    /// Eight damaged PNGs decoded at once: each cut right after one of its `IDAT` chunks (the
    /// chunk structure is intact, so the container check lets it through and libpng itself
    /// runs out of pixel data). Every error must say why, after the stage's own words.
    @Test func concurrentDecodeFailuresAllCarryAReason() async throws {
        let png = try CraftedFiles.noisePNG(width: 300, height: 300)
        let idats = CraftedFiles.pngChunks(png).filter { $0.type == "IDAT" }
        try #require(idats.count >= 8, "the noise PNG has \(idats.count) IDAT chunks")
        let damaged = idats.prefix(8).map { chunk in Array(png[..<(chunk.offset + 12 + chunk.length)]) }
        let processor = AssetProcessor()
        for _ in 0..<3 {
            let results = await withTaskGroup(of: AssetResult.self) { group in
                for (index, bytes) in damaged.enumerated() {
                    group.addTask { await processor.process(data: bytes, filename: "cut-\(index).png") }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == 8)
            for result in results {
                let error = try #require(result.error, "\(result.source) decoded although its pixels are cut")
                #expect(error.stage == .decode, "\(error)")
                #expect(error.reason == .truncated || error.reason == .corrupt, "\(error)")
                let detail = error.message.components(separatedBy: "pixels:").last?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                #expect(!detail.isEmpty, "empty reason: \(error)")
            }
        }
    }
}
