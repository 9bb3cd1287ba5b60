import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Issue 33, item 5: `JOURNAL_MEDIA_LIBRARY_PATHS=1` runs the whole pipeline on the
/// libraries' own paths (libvips' jpegload, thumbnail, resize, jpegsave, webpsave, pngsave,
/// libheif), none of the toolkit's fast paths. Its renditions of every sample are the fast
/// paths' within a stated tolerance: the same assets succeed, with the same renditions (role,
/// format, size within a pixel), and each rendition's pixels agree within
/// `leastPSNR` dB and `largestMeanDifference` levels per band, except where the library
/// path is known to be wrong (`colourGaps`).
@Suite struct LibraryPathsTests {
    /// Samples whose colour only the fast paths get right, compared by size and format alone:
    /// libheif hands libvips the nclx-signalled Display P3 of `nclx-p3.heic` without a profile
    /// (taken as sRGB: PSNR 28 dB), and libvips' heifload does not tone-map a PQ AVIF (the
    /// fast path does: 14 dB). The HLG movie's posters are libavfilter's zscale + tonemap on the
    /// library paths (issue 33 item 5), the tone curve's tables on the fast ones: on this
    /// synthetic pattern, whose YUV → R'G'B' leaves 0…1, zimg linearises unclipped and the two
    /// part (26 dB; HDRToneMapTests compares them by luma and colourfulness).
    /// The overlay sample's layer at a negative offset libheif 1.15 mis-draws (repeated along the
    /// bottom: 16 dB); HEIFOverlayTests compares the fast path with pillow-heif's libheif 1.20.
    static let colourGaps: Set<String> = ["heif/nclx-p3.heic", "heif/avif-hdr-pq-p3-10bit-rot270.avif", "video-hdr-hlg.mov",
                                          "heif/overlay.heic"]
    /// Samples only the fast paths decode: libheif 1.15 reports a grid whose `irot` is listed
    /// before its `ispe` unturned, and libvips' heifload then refuses the tiles ("bad image
    /// dimensions on decode"). The library path must fail on them, with a reason.
    static let decodeGaps: Set<String> = ["heif/10bit-422-grid-irot-first.heic"]
    /// Least PSNR of one rendition of the library paths against the fast paths', in dB.
    static let leastPSNR = 35.0
    /// Largest mean absolute difference of a band, in 8-bit levels.
    static let largestMeanDifference = 4.0

    @Test(.timeLimit(.minutes(15))) func theLibraryPathsMakeTheSameRenditionsWithinTolerance() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        func convert(_ name: String, _ environment: [String: String]) throws -> Manifest {
            let output = root.appendingPathComponent(name)
            let run = try TestSupport.runCLI(["convert", TestSupport.samples.path, "-o", output.path, "--quiet",
                                              "--jobs", "2", "--timeout", "300"], environment: environment)
            #expect(run.status <= 1, "\(run.stderr)")
            return try TestSupport.manifest(in: output)
        }
        let fast = try convert("fast", [:])
        let library = try convert("library", [FastPaths.environmentVariable: "1"])
        let others = Dictionary(uniqueKeysWithValues: library.assets.map { ($0.source, $0) })
        var compared = 0, differing = 0
        var worst: (psnr: Double, mean: Double, name: String) = (.infinity, 0, "")
        for asset in fast.assets {
            let other = try #require(others[asset.source], "\(asset.source) missing")
            if Self.decodeGaps.contains(asset.source) {
                #expect(asset.error == nil && other.error != nil, "\(asset.source): the gap closed? \(other.error?.message ?? "ok")")
                continue
            }
            #expect((asset.error == nil) == (other.error == nil),
                    "\(asset.source): \(asset.error?.message ?? "ok") vs \(other.error?.message ?? "ok")")
            #expect(asset.renditions.map(\.role) == other.renditions.map(\.role), "\(asset.source)")
            for (a, b) in zip(asset.renditions, other.renditions) where a.role == b.role {
                let name = "\(asset.source) \(a.role)"
                #expect(a.format == b.format, "\(name)")
                #expect(abs(a.width - b.width) <= 1 && abs(a.height - b.height) <= 1,
                        "\(name): \(a.width)×\(a.height) vs \(b.width)×\(b.height)")
                guard let pathA = a.path, let pathB = b.path, [.webp, .jpeg, .png].contains(a.format),
                      !Self.colourGaps.contains(asset.source) else { continue }
                let bytesA = try Data(contentsOf: root.appendingPathComponent("fast").appendingPathComponent(pathA))
                let bytesB = try Data(contentsOf: root.appendingPathComponent("library").appendingPathComponent(pathB))
                compared += 1
                if bytesA == bytesB { continue }
                differing += 1
                let imageA = try TestImage(Array(bytesA)), imageB = try TestImage(Array(bytesB))
                guard imageA.width == imageB.width, imageA.height == imageB.height, imageA.bands == imageB.bands else { continue }
                // Compared as seen: colour weighted by alpha, so the colour of invisible pixels
                // (which the alpha-weighted resize leaves black and libvips keeps) does not count.
                let seenA = try Self.seen(imageA.image), seenB = try Self.seen(imageB.image)
                let psnr = try CorpusAVIFCheck.psnr(seenA, seenB)
                let mean = try HEIFHEVCTests.meanAbsoluteDifference(seenA, seenB).max() ?? 0
                if psnr < worst.psnr { worst = (psnr, mean, name) }
                #expect(psnr >= Self.leastPSNR && mean <= Self.largestMeanDifference,
                        "\(name): PSNR \(psnr) dB, mean difference \(mean)")
            }
        }
        print("library paths: \(compared) renditions compared, \(differing) differ; least PSNR \(worst.psnr) dB, "
              + "mean difference \(worst.mean) (\(worst.name))")
        // The switch does switch: a good part of the renditions are other bytes.
        #expect(differing >= compared / 4, "\(differing) of \(compared) differ")
    }

    /// An image with alpha, its colour multiplied by alpha (libvips' `premultiply`); others as they are.
    static func seen(_ image: VipsImageHandle) throws -> VipsImageHandle {
        guard image.bands == 2 || image.bands == 4 else { return image }
        let premultiply = try VipsOperationCall("premultiply")
        try premultiply.set("in", .image(image))
        try premultiply.build()
        return try premultiply.outputImage()
    }
}
