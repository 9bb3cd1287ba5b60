import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaMetadata

/// Where and with what: `location` and `camera` read from the samples in Samples/location
/// (two real phone photos, and stills and movies whose GPS and camera tags exiftool and
/// ffmpeg wrote; Tests/SampleMaker/make-location-samples.sh), compared with ExifTool's
/// reading (`exiftool -n -G1 -a -gps:all -keys:all -userdata:all`).
@Suite struct LocationTests {
    static func inspect(_ name: String) -> Inspection {
        CaptureDateReader.inspect(fileAt: TestSupport.samples.appendingPathComponent("location/\(name)"))
    }

    /// (file, latitude, longitude, altitude, accuracy, direction, speed m/s, source) as ExifTool prints them.
    static let expected: [(String, Double, Double, Double?, Double?, Double?, Double?, String)] = [
        ("pixel6-ultrahdr.jpg", 30.62765, 119.738766666667, 98.9, nil, 99, nil, "exif.GPS"),
        ("iphone-se-live.heic", 55.4562722222222, -2.64233611111111, 103.064041, 10.25311769, 286.9781799,
         0.3362137975 / 3.6, "exif.GPS"),
        ("full.jpg", 47.3769, 8.5417, 408, 4.7, 123.5, 10, "exif.GPS"),
        ("south-west-below.jpg", -34.6037, -58.3816, -12.5, nil, nil, 10 * 1_852.0 / 3_600, "exif.GPS"),
        ("xmp-only.jpg", 48.8584, 2.2945, 35, nil, nil, nil, "xmp.exif:GPS"),
        ("apple-keys.mov", 35.6586, 139.7454, 40, 14.5, nil, nil, "quicktime.location.ISO6709"),
        ("android-xyz.mp4", -33.8568, 151.2153, nil, nil, nil, nil, "quicktime.©xyz"),
        ("matroska-location.mkv", -33.8568, 151.2153, nil, nil, nil, nil, "matroska.LOCATION"),
        ("matroska-apple-keys.mkv", 35.6586, 139.7454, 40, 14.5, nil, nil, "matroska.location.ISO6709"),
    ]

    @Test(arguments: expected.indices)
    func sampleLocation(_ index: Int) throws {
        let (file, latitude, longitude, altitude, accuracy, direction, speed, source) = Self.expected[index]
        let inspection = Self.inspect(file)
        let location = try #require(inspection.location, "\(file)")
        func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return abs(a - b) <= tolerance
        }
        #expect(abs(location.latitude - latitude) <= 1e-6, "\(file)")
        #expect(abs(location.longitude - longitude) <= 1e-6, "\(file)")
        #expect(close(location.altitude, altitude, 1e-6), "\(file) altitude \(String(describing: location.altitude))")
        #expect(close(location.horizontalAccuracy, accuracy, 1e-6), "\(file)")
        #expect(close(location.direction, direction, 1e-6), "\(file)")
        #expect(close(location.speed, speed, 1e-6), "\(file)")
        #expect(location.source == source, "\(file)")
        #expect(inspection.warnings.isEmpty, "\(file): \(inspection.warnings)")
    }

    /// Positions the sanity rules refuse: null and a warning, never a made-up place.
    static let refused: [(String, String)] = [
        ("zero-fix.jpg", "0/0 (no fix)"),
        ("status-void.jpg", "GPSStatus V"),
        ("no-ref.jpg", "reference missing"),
        ("out-of-range.jpg", "out of range"),
        ("zero-denominator.jpg", "malformed"),
        ("bad-iso6709.mov", "not an ISO 6709 point"),
    ]

    @Test(arguments: refused.indices)
    func refusedLocation(_ index: Int) {
        let (file, reason) = Self.refused[index]
        let inspection = Self.inspect(file)
        #expect(inspection.location == nil, "\(file)")
        #expect(inspection.warnings.count == 1 && inspection.warnings[0].contains(reason), "\(file): \(inspection.warnings)")
        #expect(inspection.jsonLine(source: file).contains("\"location\":null"), "\(file)")
    }

    @Test func stillCamera() throws {
        let camera = try #require(Self.inspect("iphone-se-live.heic").camera)
        #expect(camera.make == "Apple")
        #expect(camera.model == "iPhone SE (2nd generation)")
        #expect(camera.lens == "iPhone SE (2nd generation) back camera 3.99mm f/1.8")
        #expect(camera.software == "16.5.1")
        #expect(camera.focalLength == 3.99)
        #expect(camera.focalLength35 == 28)
        #expect(camera.fNumber == 1.8)
        #expect(abs((camera.exposureTime ?? 0) - 0.004385964912) < 1e-9)
        #expect(camera.iso == 20)
        let pixel = try #require(Self.inspect("pixel6-ultrahdr.jpg").camera)
        #expect(pixel.make == "Google" && pixel.model == "Pixel 6" && pixel.iso == 89 && pixel.focalLength35 == 24)
    }

    /// Make and model are trimmed at both ends (the file holds "  Canon  " and "Canon EOS 5D  ");
    /// the make repeated in the model is kept as the file spells it.
    @Test func cameraTextsTrimmed() throws {
        let camera = try #require(Self.inspect("south-west-below.jpg").camera)
        #expect(camera.make == "Canon")
        #expect(camera.model == "Canon EOS 5D")
        #expect(camera.lens == nil && camera.iso == nil)
    }

    @Test func movieCamera() throws {
        let camera = try #require(Self.inspect("apple-keys.mov").camera)
        #expect(camera == CameraInfo(make: "Apple", model: "iPhone 15 Pro", software: "17.5"))
        #expect(Self.inspect("android-xyz.mp4").camera == nil)
    }

    /// The inspect line carries both objects, keys in the documented order.
    @Test func inspectLine() {
        let line = Self.inspect("full.jpg").jsonLine(source: "full.jpg")
        #expect(line.contains(#""location":{"latitude":47.3769,"longitude":8.5417,"altitude":408,"horizontalAccuracy":4.7,"direction":123.5,"speed":10,"source":"exif.GPS"}"#))
        #expect(line.contains(#""camera":{"make":"Apple","model":"iPhone 15 Pro","lens":"iPhone 15 Pro back triple camera 6.765mm f/1.78","software":"17.5","focalLength":6.765,"focalLength35":24,"fNumber":1.78,"exposureTime":0.001,"iso":64}"#))
        #expect(!line.contains("warnings"))
    }

    /// A Live Photo whose still has no position takes the movie's, in the processor's result
    /// (the manifest entry and the service's answer).
    @Test func livePhotoTakesTheMoviesLocation() throws {
        let folder = TestSupport.samples.appendingPathComponent("location/live")
        let still = ProbedAsset.open(folder.appendingPathComponent("IMG_0001.JPG"), name: "IMG_0001.JPG")
        let motion = ProbedAsset.open(folder.appendingPathComponent("IMG_0001.MOV"), name: "IMG_0001.MOV")
        #expect(still.location == nil)
        let result = AssetProcessor().process(livePhoto: still, motion: motion, pairedBy: .contentIdentifier)
        #expect(result.error == nil)
        let location = try #require(result.location)
        #expect(location.latitude == 40.6892 && location.longitude == -74.0445 && location.altitude == 10)
        #expect(location.source == "quicktime.location.ISO6709")
        #expect(result.camera?.model == "iPhone 15 Pro")
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        #expect(json.contains(#""location":{"#) && json.contains(#""latitude":40.6892"#))
        let decoded = try JSONDecoder().decode(AssetResult.self, from: Data(json.utf8))
        #expect(decoded.location == location && decoded.camera == result.camera)
    }

    /// `includeLocation = false` (CLI and service `--no-location`) leaves the position and the
    /// warnings about it out of every result.
    @Test func switchedOff() throws {
        var options = ProcessingOptions()
        options.includeLocation = false
        let processor = AssetProcessor(options: options)
        let full = processor.processBlocking(fileAt: TestSupport.samples.appendingPathComponent("location/full.jpg"))
        #expect(full.error == nil)
        #expect(full.location == nil)
        #expect(full.camera?.make == "Apple")
        let json = String(decoding: try JSONEncoder().encode(full), as: UTF8.self)
        #expect(json.contains(#""location":null"#) && !json.contains("47.3769"))
        let void = processor.processBlocking(fileAt: TestSupport.samples.appendingPathComponent("location/out-of-range.jpg"))
        #expect(void.warnings == nil)
        #expect(options.outputSettings.location == false && ProcessingOptions().outputSettings.location == nil)
        let folder = TestSupport.samples.appendingPathComponent("location/live")
        let live = processor.process(livePhoto: ProbedAsset.open(folder.appendingPathComponent("IMG_0001.JPG")),
                                     motion: ProbedAsset.open(folder.appendingPathComponent("IMG_0001.MOV")),
                                     pairedBy: .contentIdentifier)
        #expect(live.location == nil)
    }

    @Test func inspectCommandNoLocation() throws {
        let file = TestSupport.samples.appendingPathComponent("location/full.jpg").path
        let with = try TestSupport.runCLI(["inspect", file])
        #expect(with.status == 0 && with.stdout.contains(#""latitude":47.3769"#))
        let without = try TestSupport.runCLI(["inspect", "--no-location", file])
        #expect(without.status == 0)
        #expect(without.stdout.contains(#""location":null"#) && !without.stdout.contains("47.3769"))
        #expect(without.stdout.contains(#""camera":{"make":"Apple""#))
    }

    @Test func convertCommandNoLocation() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("jm-noloc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.samples.appendingPathComponent("location/full.jpg"),
                                         to: root.appendingPathComponent("full.jpg"))
        let run = try TestSupport.runCLI(["convert", root.appendingPathComponent("full.jpg").path, "-o",
                                          root.appendingPathComponent("out").path, "--no-location", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try String(contentsOf: root.appendingPathComponent("out/manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#""location" : null"#) || manifest.contains(#""location":null"#))
        #expect(!manifest.contains("47.3769"))
    }
}

/// The ISO 6709 and XMP coordinate parsers on their own, including what they must refuse.
@Suite struct LocationParserTests {
    @Test func iso6709Forms() {
        #expect(ISO6709.parse("+48.8584+002.2945+035.000/") == .init(latitude: 48.8584, longitude: 2.2945, altitude: 35))
        #expect(ISO6709.parse("-33.8568+151.2153/") == .init(latitude: -33.8568, longitude: 151.2153, altitude: nil))
        #expect(abs((ISO6709.parse("+4851.504+00217.670/")?.latitude ?? 0) - (48 + 51.504 / 60)) < 1e-12)
        let seconds = ISO6709.parse("+485130-0021740CRSWGS_84/")
        #expect(seconds?.latitude == 48 + 51.0 / 60 + 30.0 / 3_600)
        #expect(seconds?.longitude == -(2 + 17.0 / 60 + 40.0 / 3_600))
        for bad in ["", "/", "somewhere nice", "+48.8584", "48.8584+002.2945/", "+48.8584+002.2945+1+2/",
                    "+4861.0+00217.670/", "+48.85.84+002.2945/", "+nan+inf/", "+1e5+002.2945/", "+.5+002.2945/"] {
            #expect(ISO6709.parse(bad) == nil, "\(bad)")
        }
        // A valid point padded past the length bound (a tag can be as large as its container)
        // is refused unread; the same point within the bound is read.
        let padded = "+48.8584+002.2945/" + String(repeating: " ", count: ISO6709.maximumLength)
        #expect(ISO6709.parse(padded) == nil)
        #expect(ISO6709.parse(String(padded.prefix(ISO6709.maximumLength))) != nil)
        #expect(LocationReader.rational(String(repeating: " ", count: 300) + "35/1") == nil)
    }

    @Test func xmpCoordinates() {
        #expect(LocationReader.xmpCoordinate("48,51.504N", positive: "N", negative: "S") == 48 + 51.504 / 60)
        #expect(LocationReader.xmpCoordinate("2,17,40W", positive: "E", negative: "W") == -(2 + 17.0 / 60 + 40.0 / 3_600))
        for bad in ["48,51.504", "48N", "48,61,0N", "-48,10N", "48,x,1N", "48,51.504E"] {
            #expect(LocationReader.xmpCoordinate(bad, positive: "N", negative: "S") == nil, "\(bad)")
        }
        #expect(LocationReader.rational("35/1") == 35)
        #expect(LocationReader.rational("1/0")?.isNaN == true)
    }

    @Test func sanityRules() {
        var warnings: [String] = []
        #expect(Location.checked(latitude: .nan, longitude: 1, source: "t", warnings: &warnings) != .absent)
        if case .found = Location.checked(latitude: .infinity, longitude: 1, source: "t", warnings: &warnings) { Issue.record("inf kept") }
        if case .found = Location.checked(latitude: 10, longitude: -180.5, source: "t", warnings: &warnings) { Issue.record("lon kept") }
        guard case .found(let kept) = Location.checked(latitude: 10, longitude: 20, altitude: .nan, horizontalAccuracy: -1,
                                                        direction: 400, speed: -2, source: "t", warnings: &warnings) else {
            Issue.record("position refused")
            return
        }
        #expect(kept.altitude == nil && kept.horizontalAccuracy == nil && kept.direction == nil && kept.speed == nil)
        #expect(warnings.count == 4)
    }
}

/// Offline place names from Data/places.bin (GeoNames, CC BY 4.0).
@Suite struct PlaceTests {
    @Test func tableLoadsAndNamesKnownPlaces() throws {
        let index = try #require(PlaceIndex.shared, "Data/places.bin not found")
        let zurich = try #require(index.nearest(latitude: 47.3769, longitude: 8.5417))
        #expect(zurich.countryCode == "CH" && zurich.country == "Switzerland")
        #expect(zurich.admin1 == "Zurich" && zurich.distanceKm < 3)
        #expect(zurich.timeZone == "Europe/Zurich")
        #expect(index.nearest(latitude: 40.7128, longitude: -74.006)?.timeZone == "America/New_York")
        #expect(index.nearest(latitude: -33.8568, longitude: 151.2153)?.timeZone == "Australia/Sydney")
        // Across the antimeridian: Fiji's Taveuni (179.9° W side) from 179.99° E.
        let fiji = try #require(index.nearest(latitude: -16.8, longitude: 179.99))
        #expect(fiji.countryCode == "FJ", "\(fiji)")
        // Near a pole, the nearest place is still found (the search widens to the whole table).
        let north = try #require(index.nearest(latitude: 89.9, longitude: 0))
        #expect(north.distanceKm > 500 && north.distanceKm < 2_000, "\(north)")
    }

    /// The grid search equals a brute-force haversine scan over the whole table.
    @Test func gridEqualsBruteForce() throws {
        let index = try #require(PlaceIndex.shared)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let latitude = Double.random(in: -80...80, using: &generator)
            let longitude = Double.random(in: -180...180, using: &generator)
            let fast = try #require(index.nearestEntry(latitude: latitude, longitude: longitude))
            let slow = try #require(index.bruteForceNearest(latitude: latitude, longitude: longitude))
            #expect(abs(fast.km - slow.km) < 1e-9, "\(latitude), \(longitude)")
        }
    }

    @Test func samplesGetTheirPlace() throws {
        let inspection = LocationTests.inspect("pixel6-ultrahdr.jpg")
        let place = try #require(inspection.place)
        #expect(place.countryCode == "CN" && place.distanceKm < 30, "\(place)")
        #expect(inspection.jsonLine(source: "x").contains(#""place":{"name":"#))
        #expect(LocationTests.inspect("zero-fix.jpg").place == nil)
        #expect(inspection.withoutLocation().place == nil)
    }

    @Test func damagedTablesAreRefused() throws {
        #expect(PlaceIndex(bytes: []) == nil)
        #expect(PlaceIndex(bytes: Array("JMPLACE2".utf8) + [UInt8](repeating: 0xFF, count: 12)) == nil)
        let url = try #require(PlaceIndex.candidates().first { FileManager.default.fileExists(atPath: $0.path) })
        let bytes = [UInt8](try Data(contentsOf: url))
        #expect(PlaceIndex(bytes: bytes) != nil)
        #expect(PlaceIndex(bytes: Array(bytes.dropLast())) == nil)
        var older = bytes
        older[7] = UInt8(ascii: "1")  // the JMPLACE1 layout (places sorted at load) is not read any more
        #expect(PlaceIndex(bytes: older) == nil)
        var unordered = bytes
        unordered[20 + 4 * 30_000 + 3] = 0xFF  // a cell starting past its successor
        #expect(PlaceIndex(bytes: unordered) == nil)
    }
}

/// Not a check: writes the places for the points in $PLACES_CHECK_POINTS ("lat lon" lines) to
/// $PLACES_CHECK_OUTPUT (name, admin1, country code, km; tab-separated) for
/// Benchmarks/places_check.py. Skipped unless those are set.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PLACES_CHECK_POINTS"] != nil))
struct PlaceAgreementDump {
    @Test func dump() throws {
        let environment = ProcessInfo.processInfo.environment
        let index = try #require(PlaceIndex.shared)
        let input = try String(contentsOfFile: try #require(environment["PLACES_CHECK_POINTS"]), encoding: .utf8)
        var out = ""
        for line in input.split(separator: "\n") {
            let parts = line.split(separator: " ").compactMap { Double($0) }
            let place = try #require(index.nearest(latitude: parts[0], longitude: parts[1]))
            out += "\(place.name)\t\(place.admin1 ?? "")\t\(place.countryCode)\t\(place.distanceKm)\n"
        }
        try out.write(toFile: try #require(environment["PLACES_CHECK_OUTPUT"]), atomically: true, encoding: .utf8)
    }
}
