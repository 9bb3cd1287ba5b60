import Foundation
import Testing
@testable import JournalMedia

/// Bytes in, for a backend that holds an upload in memory (issue 32, item 2): `process(data:)`
/// also takes a `Data`, and `CaptureDateReader.inspect(data:)` reads dates, location and
/// camera from `[UInt8]` or `Data` — each equal to the file's own reading.
@Suite struct LibraryBytesTests {
    @Test func processTakesData() async throws {
        let url = TestSupport.sample("orientation-6-gps-p3.jpg")
        let bytes = try Data(contentsOf: url)
        let processor = AssetProcessor()
        let fromData = await processor.process(data: bytes, filename: "IMG_0001.JPG")
        let fromArray = await processor.process(data: Array(bytes), filename: "IMG_0001.JPG")
        #expect(fromData.error == nil && fromData.renditions.count > 0)
        #expect(fromData.renditions.map(\.data) == fromArray.renditions.map(\.data))
        #expect(fromData.captureDate == fromArray.captureDate && fromData.width == fromArray.width)
    }

    /// The on-demand route's lean mode (issue 31 item 5): a caller that hashed the bytes hands
    /// the digest over, and with `readsMetadata` off no metadata is walked: the same
    /// renditions, byte for byte, without date, camera, location or place.
    @Test func renditionsOnlyWithAKnownDigest() async throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("orientation-6-gps-p3.jpg")))
        let spec = RenditionSpec(role: "thumb", format: .webp, width: 256)
        let full = AssetProcessor(options: ProcessingOptions(renditions: [spec], analyzeColors: false))
        var leanOptions = full.options
        leanOptions.readsMetadata = false
        let lean = AssetProcessor(options: leanOptions)
        let digest = String(repeating: "ab", count: 32)
        let whole = await full.process(data: bytes, filename: "IMG_0001.JPG")
        let only = await lean.process(data: bytes, filename: "IMG_0001.JPG", sha256: digest)
        #expect(whole.error == nil && only.error == nil)
        #expect(whole.location != nil && whole.camera != nil && whole.captureDate != nil)
        #expect(only.location == nil && only.place == nil && only.camera == nil && only.captureDate == nil)
        #expect(only.sha256 == digest, "the given digest is the result's: the bytes were not hashed again")
        #expect(whole.sha256 == ContentDigest.sha256(bytes))
        #expect(only.renditions.map(\.data) == whole.renditions.map(\.data), "same pixels, upright either way")
        #expect(only.width == whole.width && only.height == whole.height && only.orientation == 6)
    }

    @Test(arguments: ["location/pixel6-ultrahdr.jpg", "location/apple-keys.mov", "location/matroska-apple-keys.mkv"])
    func inspectReadsBytesAsItReadsTheFile(_ sample: String) throws {
        let url = TestSupport.sample(sample)
        let data = try Data(contentsOf: url)
        let file = CaptureDateReader.inspect(fileAt: url)
        let array = CaptureDateReader.inspect(data: Array(data), name: url.lastPathComponent)
        let foundation = CaptureDateReader.inspect(data: data, name: url.lastPathComponent)
        for bytes in [array, foundation] {
            #expect(bytes.format == file.format && bytes.bytes == file.bytes, "\(sample)")
            #expect(bytes.location == file.location && bytes.place == file.place && bytes.camera == file.camera, "\(sample)")
            #expect(bytes.durationSeconds == file.durationSeconds && bytes.error == nil, "\(sample)")
            // A date from the file's content is the same; the modification time is not content.
            if file.captureDate?.confidence != .fileModified { #expect(bytes.captureDate == file.captureDate, "\(sample)") }
        }
        #expect(array.location != nil && array.camera != nil, "\(sample)")
    }
}
