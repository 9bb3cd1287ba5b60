import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Opt-in comparison of the in-process HEIC path with libvips' heifload over every HEIC/HEIF
/// in the development corpus. Not part of `make test`; run it with
///
///     JM_CORPUS=/work/shared/corpus swift test --filter CorpusHEICCheck
///
/// For each file it prints which path `ImageDecoder` took, the size, the mean absolute
/// difference per channel against libvips (same 1600 px box), and the best of three decode
/// times of each path. Only crashes fail it.
@Suite struct CorpusHEICCheck {
    static let root = ProcessInfo.processInfo.environment["JM_CORPUS"]

    @Test(.enabled(if: root != nil)) func corpusHEICsAgainstLibvips() throws {
        let root = URL(fileURLWithPath: try #require(Self.root))
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if ["heic", "heif"].contains(url.pathExtension.lowercased()) { files.append(url) }
        }
        for url in files.sorted(by: { $0.path < $1.path }) {
            let name = String(url.path.dropFirst(root.path.count + 1))
            let bytes = Array(try Data(contentsOf: url))
            for box in [1600, 300] { do {
                let (fastTime, fast) = try Self.bestOf(3) { try Self.decode(bytes, box: box, fastPath: true) }
                let (vipsTime, vips) = try Self.bestOf(3) { try Self.decode(bytes, box: box, fastPath: false) }
                var difference = "sizes differ: \(vips.image.width)×\(vips.image.height)"
                if fast.image.width == vips.image.width, fast.image.height == vips.image.height {
                    difference = try HEIFHEVCTests.meanAbsoluteDifference(fast.image, vips.image)
                        .map { String(format: "%.2f", $0) }.joined(separator: " ")
                }
                print(String(format: "CORPUS-HEIC %@ | box %d | %@ | %d×%d | MAD %@ | new %.0f ms, libvips %.0f ms", name,
                             box, bytes.withUnsafeBytes({ HEIFHEVCDecoder.decode($0, boxWidth: box, boxHeight: box) }) != nil
                                ? "hevc" : "fallback", fast.image.width, fast.image.height,
                             difference, fastTime * 1000, vipsTime * 1000))
            } catch {
                print("CORPUS-HEIC \(name) | box \(box) | error: \(error)")
            } }
        }
    }

    static func decode(_ bytes: [UInt8], box: Int, fastPath: Bool) throws -> DecodedImage {
        try bytes.withUnsafeBytes { buffer in
            let header = try ImageHeaderReader.read(buffer, format: .heic)
            return fastPath
                ? try StillDecoding.pixels(buffer, header: header, box: (box, box), upscale: false)
                : try ImageDecoder.decode(buffer, header: header, width: box, height: box, allowUpscale: false)
        }
    }

    static func bestOf<T>(_ runs: Int, _ body: () throws -> T) throws -> (Double, T) {
        var best = Double.infinity
        var result: T?
        for _ in 0..<runs {
            let start = Date()
            result = try body()
            best = min(best, Date().timeIntervalSince(start))
        }
        return (best, result!)
    }
}
