import CVips
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging

/// Notification attachments of still images: the formats and limits of
/// `UNNotificationAttachment`, the byte-limit loop, and the attention square.
@Suite struct NotificationAttachmentTests {
    static let withNotification = ProcessingOptions(renditions: Defaults.renditions + [Defaults.notificationRendition])

    func process(_ url: URL, name: String, options: ProcessingOptions = withNotification) -> AssetResult {
        AssetProcessor(options: options).processBlocking(fileAt: url, displayName: name)
    }

    func notificationAttachment(_ result: AssetResult, role: String = "notification") throws -> (Rendition, NotificationAttachment) {
        let rendition = try #require(result.renditions.first { $0.role == role }, "no \(role) rendition")
        let attachment = try #require(rendition.attachment, "\(role) has no attachment record")
        return (rendition, attachment)
    }

    /// A deterministic noisy RGB image (a linear congruential generator), encoded as PNG by libvips.
    static func noisyPNG(width: Int, height: Int) throws -> [UInt8] {
        var state: UInt32 = 12345
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for index in rgb.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            rgb[index] = UInt8(truncatingIfNeeded: state >> 24)
        }
        let image = try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: height)
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(image))
        try save.set("compression", .int(1))
        try save.build()
        return try save.outputBytes()
    }

    @Test func heicBecomesAJPEGOf1024PixelsWithItsTypeAndASquareClip() throws {
        let result = process(TestSupport.sample("photo.heic"), name: "photo.heic")
        #expect(result.error == nil)
        let (rendition, attachment) = try notificationAttachment(result)
        #expect(rendition.format == .jpeg)
        #expect(attachment.uti == "public.jpeg")
        #expect(attachment.limitBytes == 10_000_000)
        #expect(rendition.bytes <= attachment.limitBytes)
        #expect(attachment.thumbnailTimeSeconds == nil)
        let source = try #require(result.width.flatMap { w in result.height.map { (w, $0) } })
        #expect(max(rendition.width, rendition.height) == min(1024, max(source.0, source.1)))
        let decoded = try TestImage(rendition.data)
        #expect(decoded.width == rendition.width && decoded.height == rendition.height && decoded.bands == 3)
        #expect(Array(rendition.data.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG file, not HEIC")
        // The clip is a square in pixels, inside the image.
        let clip = try #require(attachment.thumbnailClippingRect)
        let side = Double(min(rendition.width, rendition.height))
        #expect(abs(clip.width * Double(rendition.width) - side) < 1)
        #expect(abs(clip.height * Double(rendition.height) - side) < 1)
        #expect(clip.x >= 0 && clip.y >= 0 && clip.x + clip.width <= 1.0001 && clip.y + clip.height <= 1.0001)
    }

    @Test func transparentPNGStaysPNGWithItsAlpha() throws {
        let result = process(TestSupport.sample("alpha-disc.png"), name: "alpha-disc.png")
        #expect(result.error == nil)
        let (rendition, attachment) = try notificationAttachment(result)
        #expect(rendition.format == .png)
        #expect(attachment.uti == "public.png")
        #expect(rendition.bytes <= NotificationLimits.imageBytes)
        let decoded = try TestImage(rendition.data)
        #expect(decoded.bands == 4)
        #expect(try decoded.pixel(0, 0)[3] == 0, "the corner outside the disc stays transparent")
    }

    @Test func aBigNoisyImageIsBroughtUnderASmallLimitByQualityThenSize() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("noise.png")
        try Data(try Self.noisyPNG(width: 2400, height: 1600)).write(to: url)

        // Without a limit, the 1024 px JPEG of pure noise is far over 60 kB.
        var unlimited = Defaults.notificationRendition
        unlimited.role = "plain"
        let plain = try #require(process(url, name: "noise.png", options: ProcessingOptions(renditions: [unlimited]))
            .renditions.first)
        let limit = 60_000
        #expect(plain.bytes > 2 * limit)

        var spec = Defaults.notificationRendition
        spec.maxBytes = limit
        let result = process(url, name: "noise.png", options: ProcessingOptions(renditions: [spec]))
        #expect(result.error == nil)
        let (rendition, attachment) = try notificationAttachment(result)
        #expect(rendition.bytes <= limit)
        #expect(rendition.bytes == rendition.data.count)
        #expect(rendition.width < 1024, "quality alone could not do it: the size was lowered too")
        #expect(abs(Double(rendition.width) / Double(rendition.height) - 1.5) < 0.01, "aspect ratio kept")
        #expect(attachment.uti == "public.jpeg")
        let decoded = try TestImage(rendition.data)
        #expect(decoded.width == rendition.width)

        // A limit the lowest quality at full size already meets is met without shrinking.
        spec.maxBytes = plain.bytes * 3 / 4
        let gentle = process(url, name: "noise.png", options: ProcessingOptions(renditions: [spec]))
        let (quality, _) = try notificationAttachment(gentle)
        #expect(quality.width == 1024)
        #expect(quality.bytes <= plain.bytes * 3 / 4)
    }

    @Test func theClippingSquareFollowsTheSubject() throws {
        // A flat grey 1500×500 picture with a patch of coloured detail near its right edge.
        let width = 1500, height = 500
        var rgb = [UInt8](repeating: 128, count: width * height * 3)
        var state: UInt32 = 7
        for y in 150..<350 {
            for x in 1200..<1400 {
                for band in 0..<3 {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    rgb[(y * width + x) * 3 + band] = band == 0 ? 255 : UInt8(truncatingIfNeeded: state >> 25)
                }
            }
        }
        let image = try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: height)
        let save = try VipsOperationCall("pngsave_buffer")
        try save.set("in", .image(image))
        try save.build()
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("subject-right.png")
        try Data(try save.outputBytes()).write(to: url)

        let result = process(url, name: "subject-right.png")
        let (rendition, attachment) = try notificationAttachment(result)
        #expect(rendition.width == 1024)
        let clip = try #require(attachment.thumbnailClippingRect)
        #expect(clip.y == 0 && clip.height == 1)
        // The subject spans 0.8…0.93 of the width: the square (a third of the width) holds it.
        #expect(clip.x <= 0.8 && clip.x + clip.width >= 0.93, "\(clip)")
    }

    @Test func presetsNameTheNotificationRoleAndItsLimit() throws {
        let specs = try Preset.parse(Data("""
            {"renditions": [{"role": "notification", "format": "jpeg", "formatWhenTransparent": "png",
                             "width": 800, "maxBytes": 500000}]}
            """.utf8))
        #expect(specs.first?.isNotification == true)
        #expect(specs.first?.byteLimit == 500_000)
        // Asking for more than Apple takes is clamped to Apple's limit.
        var generous = Defaults.notificationRendition
        generous.maxBytes = 80_000_000
        #expect(generous.byteLimit == NotificationLimits.imageBytes)

        #expect(throws: PresetError.self) {
            try Preset.parse(Data(#"{"renditions": [{"role": "notification", "format": "webp", "width": 800}]}"#.utf8))
        }
        #expect(throws: PresetError.self) {
            try Preset.parse(Data(#"{"renditions": [{"role": "clip", "format": "mp4", "width": 800}]}"#.utf8))
        }
        #expect(throws: PresetError.self) {
            try Preset.parse(Data(#"{"renditions": [{"role": "small", "format": "jpeg", "width": 80, "maxBytes": 10}]}"#.utf8))
        }
    }

    @Test func convertWithNotificationWritesAttachmentsAndASchemaConformingManifest() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["photo.heic", "alpha-disc.png", "song-cover.mp3", "video-rotated-90.mp4"], to: input)
        let out = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["convert", input.path, "-o", out.path, "--notification", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try TestSupport.manifest(in: out)
        #expect(manifest.preset.map(\.role) == ["thumbnail", "fallback", "notification"])
        let expected = ["photo.heic": ("photo.heic.notification.jpg", "public.jpeg"),
                        "alpha-disc.png": ("alpha-disc.png.notification.png", "public.png"),
                        "song-cover.mp3": ("song-cover.mp3.notification.jpg", "public.jpeg")]
        for (source, (path, uti)) in expected {
            let entry = try #require(manifest.assets.first { $0.source == source })
            let rendition = try #require(entry.renditions.first { $0.role == "notification" }, "\(source)")
            #expect(rendition.path == path)
            #expect(rendition.attachment?.uti == uti)
            let size = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(path).path)[.size] as? Int
            #expect(size == rendition.bytes)
            #expect(rendition.bytes <= NotificationLimits.imageBytes)
        }
        // The movie's MP4 is in the same (schema-checked) manifest, after its poster's attachment.
        let video = try #require(manifest.assets.first { $0.source == "video-rotated-90.mp4" })
        #expect(video.renditions.map(\.role) == ["thumbnail", "fallback", "notification", "notification-video"])
        let clip = try #require(video.renditions.last)
        #expect(clip.path == "video-rotated-90.mp4.notification-video.mp4")
        #expect(clip.attachment?.uti == "public.mpeg-4")
        #expect(clip.attachment?.thumbnailTimeSeconds != nil)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("video-rotated-90.mp4.notification-video.mp4").path))
        // Without the flag there is no attachment and no `attachment` key.
        let plainOut = root.appendingPathComponent("plain")
        #expect(try TestSupport.runCLI(["convert", input.path, "-o", plainOut.path, "--quiet"]).status == 0)
        let json = try String(contentsOf: plainOut.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(!json.contains("\"attachment\""))
        #expect(!json.contains("notification"))
    }

    /// A 4-frame animation (a red square moving across grey), encoded by libvips' `saver`.
    /// With `noisy`, every pixel gets random noise too (which no GIF compresses).
    static func animation(saver: String, noisy: Bool = false) throws -> [UInt8] {
        let width = 320, pageHeight = 240, pages = 4
        var rgb = [UInt8](repeating: 90, count: width * pageHeight * pages * 3)
        var state: UInt32 = 99
        if noisy {
            for index in rgb.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                rgb[index] = UInt8(truncatingIfNeeded: state >> 24)
            }
        }
        for page in 0..<pages {
            for y in 80..<160 {
                for x in (40 + page * 60)..<(120 + page * 60) {
                    let at = ((page * pageHeight + y) * width + x) * 3
                    rgb[at] = 230
                    rgb[at + 1] = 20
                    rgb[at + 2] = 20
                }
            }
        }
        let image = try VipsImageHandle.copyingPackedRGB(rgb, width: width, height: pageHeight * pages)
        vips_image_set_int(image.pointer, "page-height", Int32(pageHeight))
        let save = try VipsOperationCall(saver)
        try save.set("in", .image(image))
        try save.build()
        return try save.outputBytes()
    }

    @Test func animatedGIFAndWebPBecomeAnimatedGIFsAndStillGIFsAJPEG() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, saver) in [("moving.gif", "gifsave_buffer"), ("moving.webp", "webpsave_buffer")] {
            let url = folder.appendingPathComponent(name)
            try Data(try Self.animation(saver: saver)).write(to: url)
            let result = process(url, name: name)
            #expect(result.error == nil, "\(name)")
            #expect(result.renditions.map(\.role) == ["thumbnail", "fallback", "notification"])
            let (rendition, attachment) = try notificationAttachment(result)
            #expect(rendition.format == .gif, "\(name)")
            #expect(attachment.uti == "com.compuserve.gif")
            #expect(rendition.bytes <= NotificationLimits.imageBytes)
            #expect(rendition.width == 320 && rendition.height == 240)
            #expect(Array(rendition.data.prefix(4)) == Array("GIF8".utf8))
            // All four frames are in the file, and the square has moved between them.
            let frames = try rendition.data.withUnsafeBytes { raw in
                let load = try VipsOperationCall("gifload_buffer")
                try load.set("buffer", .borrowedBlob(raw))
                try load.set("n", .int(-1))
                try load.build()
                return try load.outputImage().materialised()
            }
            #expect(frames.height == 4 * 240, "\(name): \(frames.height)")
            let frameImage = TestImage(image: frames)
            #expect(try frameImage.pixel(60, 120)[0] > 180, "frame 1: the square on the left")
            #expect(try frameImage.pixel(60, 3 * 240 + 120)[0] < 150, "frame 4: it has moved on")
        }
        // A single-frame GIF's attachment is a still JPEG.
        let still = process(TestSupport.sample("scene.gif"), name: "scene.gif")
        #expect(try notificationAttachment(still).0.format == .jpeg)
    }

    @Test func anAnimationThatCannotFitFallsBackToItsFirstFrame() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("moving.gif")
        try Data(try Self.animation(saver: "gifsave_buffer", noisy: true)).write(to: url)
        var spec = Defaults.notificationRendition
        spec.maxBytes = 2048
        let result = process(url, name: "moving.gif", options: ProcessingOptions(renditions: [spec]))
        let (rendition, _) = try notificationAttachment(result)
        #expect(rendition.format == .jpeg)
        #expect(rendition.bytes <= 2048)
    }
}

extension TestImage {
    init(image: VipsImageHandle) { self.image = image }
}
