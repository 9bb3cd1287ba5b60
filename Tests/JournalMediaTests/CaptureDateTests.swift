import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Capture dates read from the samples in Samples/dates (made by
/// Tests/SampleMaker/make-date-samples.sh with exiftool and ffmpeg), compared with the
/// values those tools wrote.
@Suite struct CaptureDateTests {
    static func date(_ name: String) -> CaptureDate? {
        let url = TestSupport.samples.appendingPathComponent("dates").appendingPathComponent(name)
        return CaptureDateReader.inspect(fileAt: url).captureDate
    }

    /// (file, local, offset, utc, source, confidence)
    static let expected: [(String, String?, String?, String?, String, CaptureDate.Confidence)] = [
        ("offset-subsec.jpg", "2023-06-01T14:03:22.120", "+02:00", "2023-06-01T12:03:22.120Z",
         "exif.DateTimeOriginal", .exact),
        ("local-only.jpg", "2022-12-24T18:30:05", nil, nil, "exif.DateTimeOriginal", .localOnly),
        ("gps-time.jpg", "2023-01-01T20:30:00", "-05:00", "2023-01-02T01:30:00Z", "exif.DateTimeOriginal",
         .offsetInferred),
        ("gps-absurd.jpg", "2023-01-01T20:30:00", nil, nil, "exif.DateTimeOriginal", .localOnly),
        ("zero-date.jpg", "2021-03-14T15:09:26.500", "-07:00", "2021-03-14T22:09:26.500Z", "exif.DateTimeDigitized",
         .exact),
        ("xmp-only.jpg", "2020-02-29T23:59:58.250", "+05:30", "2020-02-29T18:29:58.250Z", "xmp.exif:DateTimeOriginal",
         .exact),
        ("modify-only.jpg", "2019-07-04T10:11:12", nil, nil, "exif.DateTime", .localOnly),
        ("future-date.jpg", "2018-05-06T07:08:09", nil, nil, "xmp.xmp:CreateDate", .localOnly),
        ("wrong-type.jpg", "2017-08-09T10:11:13", nil, nil, "exif.DateTimeDigitized", .localOnly),
        ("garbled-exif.jpg", "2016-01-02T03:04:05", "-03:00", "2016-01-02T06:04:05Z", "xmp.photoshop:DateCreated",
         .exact),
        ("creation-time.png", "2024-08-10T16:45:30", "+01:00", "2024-08-10T15:45:30Z", "png.CreationTime", .exact),
        ("exif.png", "2024-03-10T02:30:00", "-08:00", "2024-03-10T10:30:00Z", "exif.DateTimeOriginal", .exact),
        ("dated.heic", "2023-07-12T12:17:10.983", "+01:00", "2023-07-12T11:17:10.983Z", "exif.DateTimeOriginal", .exact),
        ("dated.webp", "2022-02-22T22:22:22", nil, nil, "exif.DateTimeOriginal", .localOnly),
        ("apple-creationdate.mov", "2023-06-01T14:03:22", "+02:00", "2023-06-01T12:03:22Z", "quicktime.creationdate",
         .exact),
        ("creation-time-only.mp4", nil, nil, "2023-06-01T12:03:22Z", "quicktime.creation_time", .utcOnly),
        // A field recorder's Broadcast Wave bext chunk, and a RIFF INFO date alone (midnight, as
        // other date-only values): ExifTool reads 2021:03:04 05:06:07 and 2005:08:08.
        ("voice-bext.wav", "2021-03-04T05:06:07", nil, nil, "riff.bext.OriginationDate", .localOnly),
        ("voice-icrd.wav", "2005-08-08T00:00:00", nil, nil, "riff.DateCreated", .localOnly),
        ("PXL_20230101_120000123.png", "2023-01-01T12:00:00.123", nil, nil, "filename", .filename),
        ("Screenshot 2023-01-01 at 12.00.00.png", "2023-01-01T12:00:00", nil, nil, "filename", .filename),
        ("IMG-20230101-WA0001.jpg", "2023-01-01T00:00:00", nil, nil, "filename", .filename),
        // The mvhd time of this one is zero: ignored, and the name gives the date.
        ("VID_20221231_235959.mp4", "2022-12-31T23:59:59", nil, nil, "filename", .filename),
    ]

    @Test(arguments: expected.indices)
    func sampleDate(_ index: Int) throws {
        let (file, local, offset, utc, source, confidence) = Self.expected[index]
        let date = try #require(Self.date(file), "\(file)")
        #expect(date.local?.description == local, "\(file)")
        #expect(date.offsetText == offset, "\(file)")
        #expect(date.utcText == utc, "\(file)")
        #expect(date.source == source, "\(file)")
        #expect(date.confidence == confidence, "\(file)")
    }

    /// A DV camcorder's recording date, from the VAUX REC DATE/REC TIME packs of its frames
    /// (libav exports only the timecode); ExifTool reads 2009:07:14 10:20:30 from the sample.
    @Test func aDVFrameGivesItsRecordingDate() throws {
        let date = try #require(CaptureDateReader.inspect(fileAt: TestSupport.sample("video-dv.dv")).captureDate)
        #expect(date.local?.description == "2009-07-14T10:20:30")
        #expect(date.source == DVRecordingDate.source && date.confidence == .localOnly)
        // The packs must be whole: a frame whose date pack is blanked (all ones) has no date.
        var bytes = Array(try Data(contentsOf: TestSupport.sample("video-dv.dv")))
        for block in stride(from: 0, to: 12_000, by: 80) where bytes[block] >> 5 == 2 {
            for pack in stride(from: block + 3, to: block + 78, by: 5) where bytes[pack] == 0x62 {
                for i in pack + 1..<pack + 5 { bytes[i] = 0xFF }
            }
        }
        #expect(DVRecordingDate.find(in: MemoryBytes(bytes: bytes)) == nil)
    }

    /// A Matroska file's DateUTC read from its EBML elements gives what libav reports as
    /// creation_time (the fallback for files libav refuses, such as ExifTool's Matroska.mkv).
    @Test func matroskaDateUTCFromTheElementsEqualsLibavs() throws {
        let bytes = Array(try Data(contentsOf: TestSupport.sample("video-hevc.mkv")))
        #expect(MatroskaDateUTC.find(in: MemoryBytes(bytes: bytes)) == "2019-05-04T10:20:30.000000Z")
        #expect(MatroskaDateUTC.find(in: MemoryBytes(bytes: Array(bytes.prefix(40)))) == nil, "cut before the Info element")
    }

    @Test func jsonHasTheDocumentedShape() throws {
        let date = try #require(Self.date("offset-subsec.jpg"))
        #expect(date.json == #"{"local":"2023-06-01T14:03:22.120","offset":"+02:00","utc":"2023-06-01T12:03:22.120Z","source":"exif.DateTimeOriginal","confidence":"exact"}"#)
    }

    @Test func theInstantIsKnownOnlyWithAnOffset() throws {
        let exact = try #require(Self.date("offset-subsec.jpg"))
        #expect(exact.date == Date(timeIntervalSince1970: 1_685_621_002.120))
        #expect(try #require(Self.date("local-only.jpg")).date == nil)
        let mvhd = try #require(Self.date("creation-time-only.mp4"))
        #expect(mvhd.date == Date(timeIntervalSince1970: 1_685_621_002))
    }

    /// A file without any date inside reports its modification time.
    @Test func fileModifiedIsTheLastResort() throws {
        let folder = try TestSupport.temporaryFolder()
        let copy = folder.appendingPathComponent("scene.webp")
        try FileManager.default.copyItem(at: TestSupport.sample("scene.webp"), to: copy)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)],
                                              ofItemAtPath: copy.path)
        let date = try #require(CaptureDateReader.inspect(fileAt: copy).captureDate)
        #expect(date.confidence == .fileModified)
        #expect(date.utcText == "2023-11-14T22:13:20.000Z")
        #expect(date.local == nil && date.offsetText == nil)
    }

    @Test func exifDateTexts() {
        #expect(DateText.dateTime("2023:06:01 14:03:22")?.local.description == "2023-06-01T14:03:22")
        #expect(DateText.dateTime("2023:06:01 14:03:22\0\0")?.local.description == "2023-06-01T14:03:22")
        #expect(DateText.dateTime("2023-06-01T14:03:22.5Z")?.offsetMinutes == 0)
        #expect(DateText.dateTime("2023-06-01T14:03:22+0530")?.offsetMinutes == 330)
        #expect(DateText.dateTime("2023-06-01T14:03-04:00")?.offsetMinutes == -240)
        for bad in ["0000:00:00 00:00:00", "    :  :     :  :  ", "", "2023:02:30 10:00:00", "2023:06:01 25:00:00",
                    "2023:06:01 14:03:22 garbage", "2023:06:01", "2023:06:01 14:03:22+15:00", "20230601"] {
            #expect(DateText.dateTime(bad) == nil, "\(bad)")
        }
        #expect(DateText.dateTime("2023:06:01", allowDateOnly: true)?.hasTime == false)
        #expect(DateText.subSecondMilliseconds("12") == 120)
        #expect(DateText.subSecondMilliseconds("98345") == 983)
        #expect(DateText.subSecondMilliseconds("x") == nil)
        #expect(DateText.offsetMinutes("-07:00") == -420)
        #expect(DateText.offsetMinutes("+14:30") == nil)
        #expect(DateText.rfc1123("Sat, 10 Aug 2024 16:45:30 +0100")?.offsetMinutes == 60)
        #expect(DateText.rfc1123("10 Aug 2024 16:45:30 GMT")?.local.description == "2024-08-10T16:45:30")
    }

    @Test func implausibleYearsAreRefused() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14
        #expect(!DateText.isPlausible(try #require(LocalDateTime(year: 1899, month: 12, day: 31)), now: now))
        #expect(DateText.isPlausible(try #require(LocalDateTime(year: 1900, month: 1, day: 1)), now: now))
        // At 22:13 UTC it is already the 15th in UTC+14, so "tomorrow" there is the 16th.
        #expect(DateText.isPlausible(try #require(LocalDateTime(year: 2023, month: 11, day: 16, hour: 23)), now: now))
        #expect(!DateText.isPlausible(try #require(LocalDateTime(year: 2023, month: 11, day: 17)), now: now))
    }

    @Test func fileNames() {
        let cases: [(String, String?)] = [
            ("IMG_20230101_120000.jpg", "2023-01-01T12:00:00"),
            ("VID_20230101_120000.mp4", "2023-01-01T12:00:00"),
            ("PXL_20230101_120000123.MP.jpg", "2023-01-01T12:00:00.123"),
            ("2023-01-01 12.00.00.jpg", "2023-01-01T12:00:00"),
            ("Screenshot 2023-01-01 at 12.00.00.png", "2023-01-01T12:00:00"),
            ("Screenshot_20230101-120000.png", "2023-01-01T12:00:00"),
            ("IMG-20230101-WA0001.jpg", "2023-01-01T00:00:00"),
            ("IMG_0001.JPG", nil),
            ("IMG_20231301_120000.jpg", nil),  // month 13
            ("123456789_20230101.jpg", nil),
        ]
        for (name, local) in cases {
            #expect(FileNameDate.parse(name)?.description == local, "\(name)")
        }
    }

    @Test func calendarArithmetic() throws {
        let leap = try #require(LocalDateTime(year: 2024, month: 2, day: 28, hour: 23, minute: 30))
        #expect(leap.adding(minutes: 60)?.description == "2024-02-29T00:30:00")
        let newYear = try #require(LocalDateTime(year: 2023, month: 1, day: 1, hour: 0, minute: 10))
        #expect(newYear.adding(minutes: -20)?.description == "2022-12-31T23:50:00")
        #expect(LocalDateTime(year: 2023, month: 2, day: 29) == nil)
        #expect(LocalDateTime(utcSecondsSinceEpoch: 0)?.description == "1970-01-01T00:00:00.000")
    }

    /// Damaged metadata never crashes or hangs the reader: every sample with metadata, with
    /// bytes flipped and cut at random, still yields a result (or nothing), quickly.
    @Test func damagedMetadataIsSurvived() throws {
        var generator = SystemRandomNumberGenerator()
        for name in ["offset-subsec.jpg", "dated.heic", "exif.png", "creation-time.png", "dated.webp", "gps-time.jpg"] {
            let original = try [UInt8](Data(contentsOf: TestSupport.samples.appendingPathComponent("dates/" + name)))
            let format = try #require(FormatSniffer.sniff(original))
            for round in 0..<300 {
                var bytes = original
                let flips = Int.random(in: 1...20, using: &generator)
                for _ in 0..<flips {
                    let at = Int.random(in: 2..<min(bytes.count, 600), using: &generator)
                    bytes[at] = UInt8.random(in: 0...255, using: &generator)
                }
                if round % 3 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count / 2, using: &generator)) }
                _ = HeaderMetadata.read(MemoryBytes(bytes: bytes), format: format, fileName: name, modified: nil)
            }
        }
        // A TIFF structure whose directories point everywhere.
        for _ in 0..<300 {
            var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]
            tiff += (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = HeaderMetadata.read(MemoryBytes(bytes: tiff), format: .tiff, fileName: "x.tif", modified: nil)
        }
    }

    /// The capture date lands in the batch manifest for every asset, including one whose
    /// pixels fail to decode.
    @Test func manifestCarriesCaptureDates() async throws {
        let root = try TestSupport.temporaryFolder()
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for name in ["offset-subsec.jpg", "gps-time.jpg", "dated.heic"] {
            try FileManager.default.copyItem(at: TestSupport.samples.appendingPathComponent("dates/" + name),
                                             to: input.appendingPathComponent(name))
        }
        let output = root.appendingPathComponent("out")
        let run = try TestSupport.runCLI(["convert", input.path, "--output", output.path, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let json = try String(contentsOf: output.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(json.contains(#""local" : "2023-06-01T14:03:22.120""#))
        let manifest = try Manifest.decode(Data(json.utf8))
        let bySource = Dictionary(uniqueKeysWithValues: manifest.assets.map { ($0.source, $0) })
        #expect(bySource["offset-subsec.jpg"]?.captureDate?.utcText == "2023-06-01T12:03:22.120Z")
        #expect(bySource["gps-time.jpg"]?.captureDate?.confidence == .offsetInferred)
        #expect(bySource["dated.heic"]?.captureDate?.offsetText == "+01:00")
    }

    @Test func inspectPrintsOneObjectPerFile() throws {
        let dates = TestSupport.samples.appendingPathComponent("dates")
        let run = try TestSupport.runCLI(["inspect", dates.appendingPathComponent("gps-time.jpg").path,
                                          TestSupport.sample("not-an-image.jpg").path, dates.path])
        #expect(run.status == 1)  // the text file is an error
        let lines = run.stdout.split(separator: "\n")
        let count = try FileManager.default.contentsOfDirectory(atPath: dates.path).count
        #expect(lines.count == 2 + count)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let capture = try #require(first["captureDate"] as? [String: Any])
        #expect(capture["offset"] as? String == "-05:00")
        #expect(capture["confidence"] as? String == "offsetInferred")
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect((second["error"] as? [String: Any])?["stage"] as? String == "sniff")
        #expect(second["captureDate"] is NSNull)
    }
}
