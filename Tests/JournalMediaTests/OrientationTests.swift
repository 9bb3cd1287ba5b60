import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Every EXIF orientation (1–8): a JPEG is stored transformed by the inverse of the
/// orientation and tagged with it; its renditions must show the scene upright.
@Suite struct OrientationTests {
    /// The upright scene, decoded from the HEIC sample (600×400, markers in the corners).
    static func uprightScene() throws -> VipsImageHandle {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("photo.heic")))
        return try TestImage(bytes).image
    }

    static func apply(_ name: String, _ argument: String, _ value: String, to image: VipsImageHandle) throws -> VipsImageHandle {
        let op = try VipsOperationCall(name)
        try op.set("in", .image(image))
        try op.set(argument, .nick(value))
        try op.build()
        return try op.outputImage()
    }

    /// Stored pixels for orientation `o`: the inverse of the transform a viewer applies.
    static func stored(_ upright: VipsImageHandle, orientation o: Int) throws -> VipsImageHandle {
        switch o {
        case 1: return upright
        case 2: return try apply("flip", "direction", "horizontal", to: upright)
        case 3: return try apply("rot", "angle", "d180", to: upright)
        case 4: return try apply("flip", "direction", "vertical", to: upright)
        case 5: // transpose: its own inverse
            return try apply("flip", "direction", "horizontal", to: try apply("rot", "angle", "d90", to: upright))
        case 6: return try apply("rot", "angle", "d270", to: upright)
        case 7: // transverse: its own inverse
            return try apply("flip", "direction", "horizontal", to: try apply("rot", "angle", "d270", to: upright))
        default: return try apply("rot", "angle", "d90", to: upright)
        }
    }

    static func taggedJPEG(orientation o: Int) throws -> [UInt8] {
        let pixels = try stored(try uprightScene(), orientation: o)
        let copy = try VipsOperationCall("copy")
        try copy.set("in", .image(pixels))
        try copy.build()
        let tagged = try copy.outputImage()
        vips_image_set_int(tagged.pointer, "orientation", Int32(o))
        let save = try VipsOperationCall("jpegsave_buffer")
        try save.set("in", .image(tagged))
        try save.set("Q", .int(92))
        try save.build()
        return try save.outputBytes()
    }

    /// The sample loaded with its metadata and saved as WebP by libvips without our remover.
    static func encodeWebPKeepingMetadata(_ url: URL) throws -> [UInt8] {
        let image = try TestImage(contentsOf: url).image
        let save = try VipsOperationCall("webpsave_buffer")
        try save.set("in", .image(image))
        try save.build()
        return try save.outputBytes()
    }

    @Test(arguments: 1...8)
    func orientationIsAppliedToThePixels(orientation: Int) throws {
        let folder = try TestSupport.temporaryFolder("orientation\(orientation)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("o\(orientation).jpg")
        try Data(try Self.taggedJPEG(orientation: orientation)).write(to: file)

        let result = AssetProcessor().processBlocking(fileAt: file)
        #expect(result.error == nil)
        #expect(result.orientation == orientation, "the file really carries orientation \(orientation)")
        #expect(result.width == 600 && result.height == 400)
        for rendition in result.renditions {
            let image = try TestImage(rendition.data)
            #expect(image.width > image.height, "\(rendition.role) is landscape")
            try expectUprightMarkers(image)
        }
    }
}
