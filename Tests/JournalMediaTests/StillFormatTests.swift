import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata

/// Issue 17's still formats: JPEG XL, BMP, ICO and camera raw (through the embedded
/// preview) in; JPEG XL out; a JPEG with a damaged restart marker decoded leniently with a
/// warning. Samples in Samples/formats/ (made by Tests/SampleMaker/make-samples.sh).
@Suite struct StillFormatTests {
    static func formats(_ name: String) -> URL { TestSupport.sample("formats/" + name) }

    let processor = AssetProcessor(options: ProcessingOptions(
        renditions: [RenditionSpec(role: "image", format: .png, width: 1024)], analyzeColors: false))

    /// The one rendition of `result`, decoded.
    func rendition(_ result: AssetResult) throws -> TestImage {
        try TestImage(try #require(result.renditions.first).data)
    }

    @Test func sniffsTheNewFormatsByContent() throws {
        let expected: [String: SourceFormat] = [
            "scene.jxl": .jxl, "scene.bmp": .bmp, "icon.ico": .ico, "raw-preview.dng": .dng, "raw-preview.cr2": .cr2,
        ]
        for (name, format) in expected {
            // The probe's format: the DNG's IFD0 lies past the first kilobyte the sniffer
            // sees (it takes it for a TIFF), so the probe reads IFD0 where it is.
            #expect(ProbedAsset.open(Self.formats(name)).format == format, "\(name)")
        }
        let dngHead = Array(try Data(contentsOf: Self.formats("raw-preview.dng")).prefix(FormatSniffer.prefixLength))
        #expect(FormatSniffer.sniff(dngHead) == .tiff)
        // "BM" followed by an impossible DIB header size is not a bitmap; "IIU\0" is RW2,
        // "FUJIFILMCCD-RAW " RAF, "IIRO" ORF.
        #expect(FormatSniffer.sniff(Array("BMxxxxxxxxxxxxxxxxxxxxxxxx".utf8)) == nil)
        #expect(FormatSniffer.sniff([0x49, 0x49, 0x55, 0x00] + [UInt8](repeating: 0, count: 12)) == .rw2)
        #expect(FormatSniffer.sniff(Array("FUJIFILMCCD-RAW 0201".utf8)) == .raf)
        #expect(FormatSniffer.sniff(Array("IIRO\u{8}\0\0\0".utf8)) == .orf)
        // A TIFF that is not a raw stays a TIFF.
        #expect(FormatSniffer.sniff([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0, 0]) == .tiff)
        #expect(FormatSniffer.sniff([0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]) == .tiff, "BigTIFF")
    }

    @Test(arguments: [("scene.jxl", "image/jxl", 240, 160), ("scene.bmp", "image/bmp", 120, 80),
                      ("icon.ico", "image/vnd.microsoft.icon", 48, 48)])
    func decodesJPEGXLBitmapsAndIcons(name: String, mediaType: String, width: Int, height: Int) async throws {
        let result = await processor.process(fileAt: Self.formats(name))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.mediaType == mediaType && result.width == width && result.height == height)
        let image = try rendition(result)
        #expect(image.width == width && image.height == height)
        if name != "icon.ico" {
            // The scene's red marker is at the top left: decoded the right way round.
            let red = try image.mean(around: 3, 3, size: 3)
            #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
        } else {
            // The icon is a disc on a transparent ground: the corner stays transparent.
            let corner = try image.pixel(0, 0)
            #expect(image.bands == 4 && corner[3] < 10, "\(corner)")
        }
    }

    @Test func aCutBitmapOrIconIsRefusedBeforeImageMagickSeesIt() async throws {
        let bitmap = Array(try Data(contentsOf: Self.formats("scene.bmp")))
        let cut = await processor.process(data: Array(bitmap.prefix(bitmap.count / 2)), filename: "cut.bmp")
        #expect(cut.error?.stage == .probe && cut.error?.reason == .truncated, "\(cut.error?.description ?? "")")
        #expect(cut.error?.message.contains("BMP pixel rows (120×80, 24 bits)") == true)
        let icon = Array(try Data(contentsOf: Self.formats("icon.ico")))
        let short = await processor.process(data: Array(icon.prefix(icon.count - 100)), filename: "cut.ico")
        #expect(short.error?.stage == .probe && short.error?.reason == .truncated)
    }

    @Test func dngShowsItsLargestPreviewUprightWithTheRawsDate() async throws {
        let result = await processor.process(fileAt: Self.formats("raw-preview.dng"))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.mediaType == "image/x-adobe-dng" && result.kind == .photo)
        // The 360×240 preview, not the 120×80 IFD1 thumbnail nor the 16×12 IFD0 image,
        // turned by the DNG's orientation 6 (90° clockwise).
        #expect(result.orientation == 6 && result.width == 240 && result.height == 360)
        #expect(result.captureDate?.local?.description == "2021-07-14T09:26:53")
        let image = try rendition(result)
        #expect(image.width == 240 && image.height == 360)
        let red = try image.mean(around: image.width - 4, 3, size: 3)  // top-left marker → top right
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
    }

    @Test func cr2ShowsItsFullSizeJPEGNotItsLosslessSensorData() async throws {
        let bytes = Array(try Data(contentsOf: Self.formats("raw-preview.cr2")))
        let location = try #require(RawPreview.locate(in: MemoryBytes(bytes: bytes), format: .cr2))
        // IFD3's SOF3 "raw" declares 4000×3000 and must not win.
        #expect(location.width == 360 && location.height == 240 && location.orientation == 8)
        let result = await processor.process(fileAt: Self.formats("raw-preview.cr2"))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.mediaType == "image/x-canon-cr2" && result.width == 240 && result.height == 360)
        #expect(result.captureDate?.local?.description == "2021-07-14T09:26:53")
        let image = try rendition(result)
        let red = try image.mean(around: 3, image.height - 4, size: 3)  // orientation 8: top left → bottom left
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
    }

    /// The sample with every JPEG's SOI broken: no preview left.
    func withoutPreviews(_ name: String) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: Self.formats(name)))
        for index in 0..<(bytes.count - 2) where bytes[index] == 0xFF && bytes[index + 1] == 0xD8 && bytes[index + 2] == 0xFF {
            bytes[index + 1] = 0x00
        }
        return bytes
    }

    @Test func aRawWithoutAPreviewFallsBackToIFD0OrFailsNamingWhy() async throws {
        // A DNG still has its IFD0 image (here the 16×12 RGB thumbnail): shown, and said so.
        let dng = await processor.process(data: try withoutPreviews("raw-preview.dng"), filename: "no-preview.dng")
        #expect(dng.error == nil && dng.width == 12 && dng.height == 16, "\(dng.error?.description ?? "")")
        #expect(dng.warnings?.first?.contains("no embedded JPEG preview") == true)
        // A CR2's IFD0 is the JPEG itself: nothing to show.
        let cr2 = await processor.process(data: try withoutPreviews("raw-preview.cr2"), filename: "no-preview.cr2")
        #expect(cr2.error?.stage == .probe && cr2.error?.message.contains("no JPEG preview") == true)
    }

    @Test func aDamagedRestartMarkerRendersWithAWarning() async throws {
        let result = await processor.process(fileAt: Self.formats("restart-marker-damaged.jpg"))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        let warning = try #require(result.warnings?.first)
        // libjpeg's own words, even while other files decode at once (the full suite): each
        // decode keeps its own libvips messages (CVipsMessages).
        #expect(warning.contains("found marker 0xd1 instead of RST5"), "\(warning)")
        #expect(warning.hasPrefix("decode: VipsJpeg:"), "\(warning)")
        let image = try rendition(result)
        #expect(image.width == 96 && image.height == 64)
        // The warning is in the manifest entry's JSON, and a clean file has no `warnings` key.
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains("\"warnings\""))
        let clean = await processor.process(fileAt: TestSupport.sample("cmyk.jpg"))
        #expect(clean.warnings == nil)
        #expect(!String(decoding: try JSONEncoder().encode(clean), as: UTF8.self).contains("\"warnings\""))
    }

    @Test func aTruncatedJPEGStillFails() async throws {
        // Pixels really missing (the data ends 44 % into the scan): no lenient decode.
        let result = await processor.process(fileAt: TestSupport.sample("truncated.jpg"))
        #expect(result.error?.reason == .truncated && result.warnings == nil && result.renditions.isEmpty)
    }

    @Test func writesJPEGXLRenditionsWithTheirOwnSettings() async throws {
        var spec = RenditionSpec(role: "image", format: .jxl, width: 200, quality: 60)
        spec.effort = 3
        let jxl = AssetProcessor(options: ProcessingOptions(renditions: [spec], analyzeColors: false))
        let result = await jxl.process(fileAt: TestSupport.sample("cmyk.jpg"))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        let rendition = try #require(result.renditions.first)
        #expect(rendition.format == .jxl && Batch.renditionPath(source: "a.jpg", role: "image", format: .jxl) == "a.jpg.image.jxl")
        #expect(FormatSniffer.sniff(rendition.data) == .jxl)
        let image = try TestImage(rendition.data)
        #expect(image.width == 200 && image.height == rendition.height && rendition.height == 133)
        // The preset accepts jxl with effort 1–9, and refuses effort 0.
        #expect(try Preset.parse(Data(#"{"renditions": [{"role": "a", "format": "jxl", "width": 10, "effort": 9}]}"#.utf8))
            .first?.effort == 9)
        #expect(throws: PresetError.self) {
            try Preset.parse(Data(#"{"renditions": [{"role": "a", "format": "jxl", "width": 10, "effort": 0}]}"#.utf8))
        }
    }

    /// raw-preview.orf keeps its only JPEG (360×240) in the Olympus MakerNote's CameraSettings
    /// (ExifTool 12.57 reads it as ORF with PreviewImage); IFD0 says orientation 6.
    @Test func orfShowsItsMakerNotePreviewUpright() async throws {
        let bytes = Array(try Data(contentsOf: Self.formats("raw-preview.orf")))
        let location = try #require(RawPreview.locate(in: MemoryBytes(bytes: bytes), format: .orf))
        #expect(location.width == 360 && location.height == 240 && location.orientation == 6)
        let result = await processor.process(fileAt: Self.formats("raw-preview.orf"))
        #expect(result.error == nil, "\(result.error?.description ?? "")")
        #expect(result.mediaType == "image/x-olympus-orf" && result.width == 240 && result.height == 360)
        #expect(result.captureDate?.local?.description == "2021-07-14T09:26:53")
        let image = try rendition(result)
        let red = try image.mean(around: image.width - 4, 3, size: 3)  // top-left marker → top right
        #expect(red[0] > 180 && red[1] < 90 && red[2] < 90, "\(red)")
    }

    /// Damaged MakerNotes: a bad header, CameraSettings or the preview pointing outside the
    /// MakerNote or the file, an absurd entry count, preview marked invalid, a cut file. None
    /// yields a preview, none crashes, and the asset fails naming the stage.
    @Test func aDamagedOlympusMakerNoteGivesNoPreview() async throws {
        let bytes = Array(try Data(contentsOf: Self.formats("raw-preview.orf")))
        let note = try #require(bytes.firstRange(of: Array("OLYMPUS\0".utf8))?.lowerBound)
        func patched(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var copy = bytes
            withUnsafeBytes(of: value.littleEndian) { copy.replaceSubrange(offset..<offset + 4, with: $0) }
            return copy
        }
        let settingsPointer = note + 12 + 2 + 12 + 8  // main IFD entry 1 (0x2020)'s value
        let settings = note + Int(bytes[settingsPointer]) | Int(bytes[settingsPointer + 1]) << 8
        var header = bytes
        header[note + 1] = UInt8(ascii: "X")
        var entries = bytes
        entries[note + 12] = 0xFF
        entries[note + 13] = 0xFF
        let damaged: [String: [UInt8]] = [
            "header": header, "entry count": entries,
            "settings past the note": patched(settingsPointer, 0x7FFF_FFF0),
            "preview past the file": patched(settings + 2 + 12 * 2 + 8, UInt32(bytes.count)),
            "length past the file": patched(settings + 2 + 12 * 3 + 8, 0xFFFF_FFFF),
            "marked invalid": patched(settings + 2 + 12 * 1 + 8, 0),
            "cut inside the note": Array(bytes.prefix(note + 40)),
        ]
        for (what, variant) in damaged {
            #expect(RawPreview.locate(in: MemoryBytes(bytes: variant), format: .orf) == nil, "\(what)")
            let result = await processor.process(data: variant, filename: "damaged.orf")
            #expect(result.error != nil && result.renditions.isEmpty, "\(what)")
        }
    }
}

