import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// A capture date that states a local time without an offset takes the offset of the IANA
/// time zone of the place nearest to the file's GPS position (issue 30), checked on files
/// whose offset is known: the Pixel 6 photo with its OffsetTime* and GPS time removed (the
/// phone wrote +08:00), and stills at the iPhone SE photo's position in Scotland (the phone
/// wrote +01:00 in July) on a summer and a winter day (Samples/location/zone,
/// Tests/SampleMaker/make-location-samples.sh).
@Suite struct PlaceTimeZoneTests {
    static func inspect(_ name: String) -> Inspection {
        CaptureDateReader.inspect(fileAt: TestSupport.samples.appendingPathComponent("location/zone/\(name)"))
    }

    static let expected: [(file: String, local: String, offset: String, utc: String, zone: String)] = [
        ("pixel6-no-offset.jpg", "2024-05-07T09:33:04.046", "+08:00", "2024-05-07T01:33:04.046Z", "Asia/Shanghai"),
        ("london-summer.jpg", "2023-07-12T12:17:10", "+01:00", "2023-07-12T11:17:10Z", "Europe/London"),
        ("london-winter.jpg", "2023-01-12T12:17:10", "+00:00", "2023-01-12T12:17:10Z", "Europe/London"),
    ]

    @Test(arguments: expected.indices)
    func localTimeTakesThePlacesZone(_ index: Int) throws {
        let want = Self.expected[index]
        let inspection = Self.inspect(want.file)
        let date = try #require(inspection.captureDate, "\(want.file)")
        #expect(date.local?.description == want.local, "\(want.file)")
        #expect(date.offsetText == want.offset, "\(want.file): \(date.json)")
        #expect(date.utcText == want.utc, "\(want.file)")
        #expect(date.source == "exif.DateTimeOriginal" && date.confidence == .offsetFromPlace, "\(want.file)")
        #expect(date.timeZone == want.zone && inspection.place?.timeZone == want.zone, "\(want.file)")
        #expect(inspection.jsonLine(source: "x").contains(#""confidence":"offsetFromPlace","timeZone":"\#(want.zone)"}"#))
    }

    /// `--no-location` (and the library/service switch) drops the place's zone with the place.
    @Test func noLocationKeepsTheLocalTimeOnly() throws {
        let date = try #require(Self.inspect("london-summer.jpg").withoutLocation().captureDate)
        #expect(date.local?.description == "2023-07-12T12:17:10")
        #expect(date.offsetMinutes == nil && date.utc == nil && date.timeZone == nil && date.confidence == .localOnly)
        #expect(!date.json.contains("timeZone"))
    }

    /// An offset the file states, or one the GPS time gives, still wins over the place.
    @Test func statedAndGPSOffsetsComeFirst() throws {
        let stated = try #require(LocationTests.inspect("pixel6-ultrahdr.jpg").captureDate)
        #expect(stated.confidence == .exact && stated.offsetText == "+08:00" && stated.timeZone == nil)
    }

    /// Around a change of clocks (Europe/Zurich, 2024): the skipped hour reads with the offset
    /// before the gap, the repeated hour with the first (daylight) offset.
    @Test func clockChanges() throws {
        func offset(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int) throws -> Int? {
            TimeZoneOffset.minutes(zone: "Europe/Zurich", local: try #require(LocalDateTime(year: y, month: m, day: d, hour: h, minute: min)))
        }
        #expect(try offset(2024, 3, 31, 1, 30) == 60)
        #expect(try offset(2024, 3, 31, 2, 30) == 60)
        #expect(try offset(2024, 3, 31, 3, 30) == 120)
        #expect(try offset(2024, 10, 27, 1, 30) == 120)
        #expect(try offset(2024, 10, 27, 2, 30) == 120)
        #expect(try offset(2024, 10, 27, 3, 30) == 60)
        #expect(TimeZoneOffset.minutes(zone: "Kathmandu/Nowhere", local: try #require(LocalDateTime(year: 2024, month: 1, day: 1))) == nil)
        #expect(TimeZoneOffset.minutes(zone: "Asia/Kathmandu", local: try #require(LocalDateTime(year: 2024, month: 1, day: 1))) == 345)
    }
}
