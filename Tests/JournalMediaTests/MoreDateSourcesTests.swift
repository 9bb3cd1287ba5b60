import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaMetadata

/// Capture dates from the places a plain EXIF walk misses (Samples/xmp, made by
/// Tests/SampleMaker/make-xmp-samples.sh; the expected values are exiftool's readings):
/// compressed PNG XMP, PSD image resources, a HEIF image sequence's `mvhd`, a HEIF XMP item
/// with an unusual content type, and XMP sidecars beside a file.
@Suite struct MoreDateSourcesTests {
    static func inspect(_ path: String, sidecars: XMPSidecars = .direct) -> Inspection {
        CaptureDateReader.inspect(fileAt: TestSupport.sample("xmp/" + path), sidecars: sidecars)
    }

    /// (file, local, offset, utc, source, format)
    static let expected: [(String, String?, String?, String?, String, SourceFormat)] = [
        ("xmp-compressed.png", "2014-02-03T04:05:06", "-05:00", "2014-02-03T09:05:06Z", "xmp.xmp:CreateDate", .png),
        ("exif-xmp.psd", "2015-03-04T05:06:07", "+01:00", "2015-03-04T04:06:07Z", "exif.DateTimeOriginal", .psd),
        // photoshop:DateCreated is the bare day 2013-12-24: the full xmp:CreateDate wins.
        ("date-only-created.psd", "2013-12-24T18:30:00", "+01:00", "2013-12-24T17:30:00Z", "xmp.xmp:CreateDate", .psd),
        ("sequence.heics", nil, nil, "2021-09-10T11:12:13Z", "quicktime.creation_time", .heic),
        ("xmp-item-untyped.heic", "2019-04-05T06:07:08", "+03:00", "2019-04-05T03:07:08Z", "xmp.xmp:CreateDate", .heic),
    ]

    @Test(arguments: expected.indices)
    func embeddedDate(_ index: Int) throws {
        let (file, local, offset, utc, source, format) = Self.expected[index]
        let inspection = Self.inspect(file)
        #expect(inspection.error == nil, "\(file)")
        #expect(inspection.format == format, "\(file)")
        let date = try #require(inspection.captureDate, "\(file)")
        #expect(date.local?.description == local, "\(file)")
        #expect(date.offsetText == offset, "\(file)")
        #expect(date.utcText == utc, "\(file)")
        #expect(date.source == source, "\(file)")
    }

    /// `convert` refuses a PSD with a typed error naming the file, and still reports its date.
    @Test func psdIsRefusedByConvertWithItsDate() throws {
        let result = AssetProcessor().processBlocking(fileAt: TestSupport.sample("xmp/exif-xmp.psd"), displayName: "exif-xmp.psd")
        let error = try #require(result.error)
        #expect(error.reason == AssetErrorReason.unsupportedFormat)
        #expect(error.file == "exif-xmp.psd")
        #expect(error.message.contains("psd"))
        #expect(result.renditions.isEmpty)
        #expect(result.captureDate?.source == "exif.DateTimeOriginal")
    }

    /// (photo, local, offset, source): the sidecar beside each, exiftool's reading of it.
    static let sidecarDates: [(String, String, String?, String)] = [
        // IMG_0001.xmp (Lightroom's naming): full timestamp with zone and fraction.
        ("IMG_0001.JPG", "2010-07-20T17:27:12.500", "+02:00", "xmp-sidecar.exif:DateTimeOriginal"),
        // IMG_0002.JPG.xmp (darktable's naming): date-only photoshop:DateCreated, full xmp:CreateDate.
        ("IMG_0002.JPG", "2011-08-09T10:11:12", nil, "xmp-sidecar.xmp:CreateDate"),
        // The file's own EXIF says 2009-01-01; the sidecar's corrected time wins.
        ("DSC_0003.jpg", "2009-06-15T14:00:00", nil, "xmp-sidecar.exif:DateTimeOriginal"),
        // No sidecar: the file's own date.
        ("IMG_0004.JPG", "2008-02-03T04:05:06", nil, "exif.DateTimeOriginal"),
    ]

    @Test(arguments: sidecarDates.indices, [true, false])
    func sidecarDate(_ index: Int, listing: Bool) throws {
        let (file, local, offset, source) = Self.sidecarDates[index]
        let inspection = Self.inspect("sidecars/" + file, sidecars: listing ? .listing() : .direct)
        let date = try #require(inspection.captureDate, "\(file)")
        #expect(date.local?.description == local, "\(file)")
        #expect(date.offsetText == offset, "\(file)")
        #expect(date.source == source, "\(file)")
    }

    /// A batch reads sidecars for its assets: the manifest entry carries the sidecar's date.
    @Test func batchEntriesCarrySidecarDates() async throws {
        let input = try TestSupport.temporaryFolder("sidecar-in")
        for name in ["IMG_0001.JPG", "IMG_0001.xmp", "IMG_0004.JPG"] {
            try FileManager.default.copyItem(at: TestSupport.sample("xmp/sidecars/" + name),
                                             to: input.appendingPathComponent(name))
        }
        let output = try TestSupport.temporaryFolder("sidecar-out")
        let manifest = try await Batch(inputs: [input], output: output).run()
        let entry = try #require(manifest.assets.first { $0.source == "IMG_0001.JPG" })
        #expect(entry.captureDate?.source == "xmp-sidecar.exif:DateTimeOriginal")
        #expect(entry.captureDate?.utcText == "2010-07-20T15:27:12.500Z")
        let plain = try #require(manifest.assets.first { $0.source == "IMG_0004.JPG" })
        #expect(plain.captureDate?.source == "exif.DateTimeOriginal")
    }

    /// A listing reads each folder once per run: a sidecar written into an already-listed
    /// folder is not seen by the same run (the cost is one readdir per folder, not a stat
    /// per file), and is seen by the next one.
    @Test func aFolderIsListedOncePerRun() throws {
        let folder = try TestSupport.temporaryFolder("sidecar-once")
        for name in ["IMG_0001.JPG", "IMG_0001.xmp", "IMG_0002.JPG"] {
            try FileManager.default.copyItem(at: TestSupport.sample("xmp/sidecars/" + name),
                                             to: folder.appendingPathComponent(name))
        }
        let run = XMPSidecars.listing()
        #expect(run.sidecar(of: folder.appendingPathComponent("IMG_0001.JPG")) != nil)
        try FileManager.default.copyItem(at: TestSupport.sample("xmp/sidecars/IMG_0002.JPG.xmp"),
                                         to: folder.appendingPathComponent("img_0002.jpg.XMP"))
        #expect(run.sidecar(of: folder.appendingPathComponent("IMG_0002.JPG")) == nil)
        let next = try #require(XMPSidecars.listing().sidecar(of: folder.appendingPathComponent("IMG_0002.JPG")))
        #expect(next.path.hasSuffix("img_0002.jpg.XMP"))
        #expect(next.packet[.createDate] == "2011-08-09T10:11:12")
    }

    /// A sidecar over the size bound, or one that is a folder, is ignored: the file's own
    /// date stands.
    @Test func oversizedOrOddSidecarsAreIgnored() throws {
        let folder = try TestSupport.temporaryFolder("sidecar-odd")
        let photo = folder.appendingPathComponent("IMG_0004.JPG")
        try FileManager.default.copyItem(at: TestSupport.sample("xmp/sidecars/IMG_0004.JPG"), to: photo)
        var big = try Data(contentsOf: TestSupport.sample("xmp/sidecars/IMG_0001.xmp"))
        big.append(Data(repeating: 0x20, count: XMPPacket.maximumBytes))
        try big.write(to: folder.appendingPathComponent("IMG_0004.xmp"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("IMG_0004.JPG.xmp"),
                                                withIntermediateDirectories: false)
        for sidecars in [XMPSidecars.listing(), .direct] {
            let date = try #require(CaptureDateReader.inspect(fileAt: photo, sidecars: sidecars).captureDate)
            #expect(date.source == "exif.DateTimeOriginal")
        }
    }
}
