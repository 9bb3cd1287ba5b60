import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaHEIF
@testable import JournalMediaImaging
@testable import JournalMediaVideo

/// Opt-in comparison of the in-process AVIF path with libvips' heifload over every AVIF in
/// the development corpus. Not part of `make test`; run it with
///
///     JM_CORPUS=/work/shared/corpus swift test --filter CorpusAVIFCheck
///
/// For each file it prints which path the photo source took, the size, the mean absolute
/// difference per channel and the PSNR against libvips (same 1600 px box; for PQ/HLG files
/// against libheif's 16-bit decode tone-mapped by libavfilter instead, as libvips does not
/// tone-map), and the decode time of each path. Only crashes fail it.
@Suite struct CorpusAVIFCheck {
    @Test(.enabled(if: CorpusHEICCheck.root != nil)) func corpusAVIFsAgainstLibvips() throws {
        let root = URL(fileURLWithPath: try #require(CorpusHEICCheck.root))
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension.lowercased() == "avif" { files.append(url) }
        }
        let box = 1600
        for url in files.sorted(by: { $0.path < $1.path }) {
            let name = String(url.path.dropFirst(root.path.count + 1))
            let bytes = Array(try Data(contentsOf: url))
            do {
                var start = Date()
                let decoded = try AVIFDecodeTests.pipelineDecode(bytes, box: box)
                let newTime = Date().timeIntervalSince(start)
                start = Date()
                let libvips = try AVIFDecodeTests.libvipsDecode(bytes, box: box)
                let libvipsTime = Date().timeIntervalSince(start)
                let items = HEIFImageItems.primary(in: MemoryBytes(bytes: bytes), codec: .av1)
                var reference = libvips, against = "libvips"
                if decoded.av1 != nil, let nclx = items?.nclx, [16, 18].contains(nclx.transfer) {
                    reference = try AVIFDecodeTests.libheifToneMapped(bytes, width: decoded.image.width,
                                                                      height: decoded.image.height)
                    against = "libheif+tonemap"
                }
                var comparison = "sizes differ: \(reference.width)×\(reference.height)"
                if decoded.image.width == reference.width, decoded.image.height == reference.height {
                    let mad = try HEIFHEVCTests.meanAbsoluteDifference(decoded.image, reference)
                    comparison = String(format: "MAD %@ PSNR %.1f dB vs %@",
                                        mad.map { String(format: "%.2f", $0) }.joined(separator: " "),
                                        try Self.psnr(decoded.image, reference), against)
                }
                print(String(format: "CORPUS-AVIF %@ | %@ | %d×%d | %@ | new %.0f ms, libvips %.0f ms", name,
                             decoded.av1 != nil ? "av1" : "fallback", decoded.image.width, decoded.image.height,
                             comparison, newTime * 1000, libvipsTime * 1000))
            } catch {
                print("CORPUS-AVIF \(name) | error: \(error)")
            }
        }
    }

    /// Peak signal-to-noise ratio of two 8-bit images of the same size, over all bands.
    static func psnr(_ a: VipsImageHandle, _ b: VipsImageHandle) throws -> Double {
        let subtract = try VipsOperationCall("subtract")
        try subtract.set("left", .image(a))
        try subtract.set("right", .image(b))
        try subtract.build()
        let difference = try subtract.outputImage()
        let square = try VipsOperationCall("multiply")
        try square.set("left", .image(difference))
        try square.set("right", .image(difference))
        try square.build()
        let mse = try square.outputImage().averagePerBand().reduce(0, +) / Double(a.bands)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
