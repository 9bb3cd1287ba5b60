import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// An XMP sidecar's `tiff:Orientation` (Samples/xmp/sidecars/IMG_0001.xmp says 6, written
/// by ExifTool) turns a still whose file has no EXIF Orientation tag, and only such a still.
/// The photos are 120×80 scenes with a red marker top-left: orientation 6 (90° clockwise)
/// takes it to the top right.
@Suite struct SidecarOrientationTests {
    let processor = AssetProcessor(options: ProcessingOptions(
        renditions: [RenditionSpec(role: "image", format: .png, width: 1024)], analyzeColors: false))

    /// A folder holding `photo` (a sample) under `name`, with the orientation-6 sidecar beside
    /// it as `STEM.xmp`.
    func folder(with photo: String, as name: String) throws -> URL {
        let folder = try TestSupport.temporaryFolder("sidecar-orientation")
        try FileManager.default.copyItem(at: TestSupport.sample(photo), to: folder.appendingPathComponent(name))
        let stem = (name as NSString).deletingPathExtension
        try FileManager.default.copyItem(at: TestSupport.sample("xmp/sidecars/IMG_0001.xmp"),
                                         to: folder.appendingPathComponent(stem + ".xmp"))
        return folder
    }

    /// A JPEG with EXIF but no Orientation tag (JPEG's own decode path) and a PNG (libvips'
    /// thumbnail path): both turned, upright by the sidecar.
    @Test(arguments: [("dates/local-only.jpg", "IMG_0001.jpg"), ("dates/creation-time.png", "IMG_0005.png")])
    func appliedWhenTheFileHasNone(photo: String, name: String) async throws {
        let folder = try folder(with: photo, as: name)
        let result = await processor.process(fileAt: folder.appendingPathComponent(name))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.orientation == 6 && result.orientationSource == "xmp-sidecar.tiff:Orientation")
        #expect(result.width == 80 && result.height == 120)
        let image = try TestImage(try #require(result.renditions.first).data)
        #expect(image.width == 80 && image.height == 120)
        let red = try image.mean(around: image.width - 4, 3, size: 3)
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
        // Without the sidecar the same file stays as stored.
        try FileManager.default.removeItem(at: folder.appendingPathComponent((name as NSString).deletingPathExtension + ".xmp"))
        let plain = await processor.process(fileAt: folder.appendingPathComponent(name))
        #expect(plain.orientation == 1 && plain.orientationSource == nil && plain.width == 120)
    }

    @Test func ignoredWhenTheFileHasOne() async throws {
        // orientation-8-srgb.jpg carries EXIF Orientation 8: the file's own tag wins.
        let folder = try folder(with: "orientation-8-srgb.jpg", as: "IMG_0002.jpg")
        let result = await processor.process(fileAt: folder.appendingPathComponent("IMG_0002.jpg"))
        #expect(result.error == nil && result.orientation == 8 && result.orientationSource == nil)
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(!json.contains("orientationSource"))
        // The sidecar's date is still used.
        #expect(result.captureDate?.source == "xmp-sidecar.exif:DateTimeOriginal")
    }

    /// A folder run (sidecars found by listing the folder once) and a single file (sidecars
    /// tried by name) agree, and the manifest passes its schema with the new key.
    @Test func aFolderRunAndASingleFileAgree() async throws {
        let folder = try folder(with: "dates/creation-time.png", as: "IMG_0005.png")
        let single = await processor.process(fileAt: folder.appendingPathComponent("IMG_0005.png"))
        let output = try TestSupport.temporaryFolder("sidecar-orientation-out")
        let run = try TestSupport.runCLI(["convert", folder.path, "--output", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try TestSupport.manifest(in: output)
        let entry = try #require(manifest.assets.first { $0.source == "IMG_0005.png" })
        #expect(manifest.assets.count == 1, "the sidecar is not an asset")
        #expect(entry.orientation == single.orientation && entry.orientationSource == single.orientationSource)
        #expect(entry.width == single.width && entry.height == single.height && entry.width == 80)
        #expect(entry.captureDate == single.captureDate)
    }
}
