import Foundation
import Hummingbird
import Synchronization
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

    /// A collection of bytes that says whether its contiguous storage was asked for.
    struct WatchedBytes: Collection, Sendable {
        let bytes: [UInt8]
        let contiguous: Bool
        let asked = Asked()
        final class Asked: Sendable {
            private let count = Mutex(0)
            func note() { count.withLock { $0 += 1 } }
            var value: Int { count.withLock { $0 } }
        }
        var startIndex: Int { bytes.startIndex }
        var endIndex: Int { bytes.endIndex }
        func index(after i: Int) -> Int { i + 1 }
        subscript(position: Int) -> UInt8 { bytes[position] }
        func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
            asked.note()
            return contiguous ? try bytes.withUnsafeBufferPointer(body) : nil
        }
    }

    /// A request body as a server holds it: a `ByteBuffer` whose readable bytes start past
    /// what was already consumed; its view goes in as it is, still and movie alike.
    @Test(arguments: ["orientation-6-gps-p3.jpg", "video-rotated-90.mp4"])
    func processTakesAByteBufferView(_ sample: String) async throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample(sample)))
        var buffer = ByteBuffer(bytes: [0x48, 0x54, 0x54, 0x50, 0x2F, 0x31, 0x0D] + bytes)
        buffer.moveReaderIndex(forwardBy: 7)
        let processor = AssetProcessor()
        let fromView = await processor.process(data: buffer.readableBytesView, filename: sample)
        let fromArray = await processor.process(data: bytes, filename: sample)
        #expect(fromView.error == nil && !fromView.renditions.isEmpty, "\(String(describing: fromView.error))")
        #expect(fromView.renditions.map(\.data) == fromArray.renditions.map(\.data), "\(sample)")
        #expect(fromView.sha256 == fromArray.sha256 && fromView.bytes == fromArray.bytes)
        #expect(fromView.captureDate == fromArray.captureDate && fromView.width == fromArray.width)
        #expect(fromView.video == fromArray.video)
    }

    @Test func contiguousBytesAreReadInPlaceAndOthersCopied() async throws {
        let bytes = try [UInt8](Data(contentsOf: TestSupport.sample("location/apple-keys.mov")))
        let file = CaptureDateReader.inspect(data: bytes, name: "apple-keys.mov")
        for contiguous in [true, false] {
            let watched = WatchedBytes(bytes: bytes, contiguous: contiguous)
            let inspection = CaptureDateReader.inspect(data: watched, name: "apple-keys.mov")
            #expect(watched.asked.value == 1, "withContiguousStorageIfAvailable was asked")
            #expect(inspection.captureDate == file.captureDate && inspection.location == file.location
                    && inspection.durationSeconds == file.durationSeconds && inspection.error == nil, "contiguous: \(contiguous)")
            let result = await AssetProcessor().process(data: watched, filename: "apple-keys.mov")
            #expect(watched.asked.value == 2)
            #expect(result.error == nil && result.kind == .video, "\(String(describing: result.error))")
        }
        let buffer = ByteBuffer(bytes: bytes)
        let view = CaptureDateReader.inspect(data: buffer.readableBytesView, name: "apple-keys.mov")
        #expect(view.captureDate == file.captureDate && view.location == file.location && view.camera == file.camera)
    }
}
