import Foundation
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// The video, Live Photo and audio samples made by Tests/SampleMaker/make-media-samples.sh,
/// and the identifiers that script wrote into them.
enum MediaSamples {
    static let livePhotoIdentifier = "5F0E6A4C-2B1D-4E8A-9C3F-7A1B2C3D4E01"
    static let mismatchedStillIdentifier = "0C3B7E21-94D6-4F0A-8B52-1E2D3C4B5A03"
    static let mismatchedVideoIdentifier = "D5A4C3B2-1F0E-4D9C-8B7A-6F5E4D3C2B13"

    static func path(_ name: String) -> String { TestSupport.sample(name).path }

    static func open(_ name: String) throws(AssetError) -> MediaFile { try MediaFile(path: path(name), name: name) }

    /// A file in a fresh temporary folder holding `bytes`.
    static func temporaryFile(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = try TestSupport.temporaryFolder(name).appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    static func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: TestSupport.sample(name))) }
}

extension TestImage {
    /// A poster's pixels in libvips, for the pixel helpers.
    init(poster: PosterFrame) throws {
        image = try VipsImageHandle.copyingPackedRGB(poster.rgb, width: poster.width, height: poster.height)
    }
}

/// Mean chroma (max − min of R, G, B) and mean BT.709 luma of packed RGB: how colourful and
/// how bright a poster is.
func colourfulnessAndLuma(_ rgb: [UInt8]) -> (chroma: Double, luma: Double) {
    var chroma = 0.0, luma = 0.0
    let pixels = rgb.count / 3
    for i in 0..<pixels {
        let r = Double(rgb[3 * i]), g = Double(rgb[3 * i + 1]), b = Double(rgb[3 * i + 2])
        chroma += max(r, g, b) - min(r, g, b)
        luma += 0.2126 * r + 0.7152 * g + 0.0722 * b
    }
    return (chroma / Double(max(1, pixels)), luma / Double(max(1, pixels)))
}
