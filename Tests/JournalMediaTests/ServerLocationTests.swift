import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaServer

/// The service answers where and with what (issue 30): an upload with GPS gets `location`,
/// `place` and `camera` in `/v1/assets` and `/v1/dates`; the config switch `location: false`
/// (serve `--no-location`) leaves location and place out (null), and a date offset taken from
/// the place's zone with them, while `camera` stays. Loopback only, two servers, eight requests.
@Suite(.serialized) struct ServerLocationTests {
    /// Zurich, with an iPhone's camera tags (Tests/SampleMaker/make-location-samples.sh).
    static let photo = "location/full.jpg"
    /// A local time without an offset at the iPhone SE photo's position in Scotland.
    static let zoned = "location/zone/london-summer.jpg"

    static func post(_ base: URL, _ route: String, _ sample: String) async throws -> [String: Any] {
        let reply = try await ServerTests.request(base.appendingPathComponent(route), method: "POST",
                                                  body: try ServerTests.sample(sample),
                                                  headers: ["X-Filename": (sample as NSString).lastPathComponent])
        #expect(reply.status == 200, "\(route): \(reply.text)")
        return reply.json
    }

    @Test func answersCarryLocationPlaceAndCamera() async throws {
        try await ServerTests.withServer(ServeConfiguration()) { base, _ in
            let asset = try #require(try await Self.post(base, "v1/assets", Self.photo)["asset"] as? [String: Any])
            let location = try #require(asset["location"] as? [String: Any])
            #expect(location["latitude"] as? Double == 47.3769 && location["longitude"] as? Double == 8.5417)
            #expect(location["source"] as? String == "exif.GPS")
            let place = try #require(asset["place"] as? [String: Any])
            #expect(place["admin1"] as? String == "Zurich" && place["countryCode"] as? String == "CH")
            #expect(place["timeZone"] as? String == "Europe/Zurich")
            let camera = try #require(asset["camera"] as? [String: Any])
            #expect(camera["make"] as? String == "Apple" && camera["model"] as? String == "iPhone 15 Pro")

            let line = try await Self.post(base, "v1/dates", Self.photo)
            #expect((line["location"] as? [String: Any])?["source"] as? String == "exif.GPS")
            #expect((line["place"] as? [String: Any])?["admin1"] as? String == "Zurich")
            #expect((line["camera"] as? [String: Any])?["model"] as? String == "iPhone 15 Pro")

            let date = try #require(try await Self.post(base, "v1/dates", Self.zoned)["captureDate"] as? [String: Any])
            #expect(date["offset"] as? String == "+01:00" && date["confidence"] as? String == "offsetFromPlace")
            #expect(date["timeZone"] as? String == "Europe/London")
        }
    }

    @Test func theLocationSwitchStripsThem() async throws {
        var configuration = ServeConfiguration()
        configuration.includeLocation = false
        try await ServerTests.withServer(configuration) { base, _ in
            let asset = try #require(try await Self.post(base, "v1/assets", Self.photo)["asset"] as? [String: Any])
            #expect(asset["location"] is NSNull && asset["place"] is NSNull, "\(asset)")
            #expect((asset["camera"] as? [String: Any])?["make"] as? String == "Apple")

            let line = try await Self.post(base, "v1/dates", Self.photo)
            #expect(line["location"] is NSNull && line["place"] is NSNull)

            let zonedAsset = try #require(try await Self.post(base, "v1/assets", Self.zoned)["asset"] as? [String: Any])
            let date = try #require(zonedAsset["captureDate"] as? [String: Any])
            #expect(date["offset"] is NSNull && date["confidence"] as? String == "localOnly" && date["timeZone"] == nil)
            let zonedLine = try await Self.post(base, "v1/dates", Self.zoned)
            #expect((zonedLine["captureDate"] as? [String: Any])?["confidence"] as? String == "localOnly")
        }
    }
}
