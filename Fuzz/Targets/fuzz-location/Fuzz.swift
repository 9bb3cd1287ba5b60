import FuzzSupport
import JournalMediaCore
import JournalMediaMetadata

/// libFuzzer entry: the input as the location parsers see it — an ISO 6709 string (QuickTime
/// `©xyz` / Apple's location key, with an accuracy), XMP GPS coordinate and rational texts,
/// and a TIFF block whose GPS IFD (and IFD0/EXIF camera tags) libexif parses and
/// `LocationReader`/`CameraReader` read; Matroska tags; the place lookup and the zone offset
/// for every location found. A trap is a finding; so is a location that breaks the sanity
/// rules (out of range or not finite) or one for which no place is found.
@_cdecl("fuzz_location_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    // One-time state made before the first input, so libFuzzer's per-input leak check does not
    // take it for a leak: the mapped place table, ICU's English names, the zone data.
    if let index = PlaceIndex.shared, let zone = index.nearest(latitude: 47.37, longitude: 8.54)?.timeZone,
       let local = LocalDateTime(year: 2024, month: 1, day: 1) {
        _ = TimeZoneOffset.minutes(zone: zone, local: local)
    }
    return FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
}

/// One input (libFuzzer calls it by this C name).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafeRawPointer?, _ count: Int) -> Int32 {
    guard let data = pointer else { return 0 }  // libFuzzer passes a valid pointer, also for empty input
    let text = FuzzSupport.text(data, count)
    var warnings: [String] = []
    _ = ISO6709.parse(text)
    _ = LocationReader.xmpCoordinate(text, positive: "N", negative: "S")
    _ = LocationReader.rational(text)
    check(LocationReader.read(containerTags: [LocationReader.mp4LocationKey: text,
                                              LocationReader.quickTimeAccuracyKey: text], warnings: &warnings))
    // Matroska: upper-case keys as ffmpeg writes them, spelt back by `matroskaTags`.
    check(LocationReader.read(containerTags: LocationReader.matroskaTags(["LOCATION": text,
                                                                           "COM.APPLE.QUICKTIME.LOCATION.ISO6709": text]),
                              matroska: true, warnings: &warnings))
    _ = CameraReader.read(containerTags: ["make": text, "com.apple.quicktime.model": text])
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    if let exif = ExifBlock(tiff: bytes) {
        check(LocationReader.read(exif, warnings: &warnings))
        _ = CameraReader.read(exif)
    }
    return 0
}

/// A found location must satisfy the sanity rules, and its nearest place (Fuzz/run.sh points
/// `JOURNAL_MEDIA_PLACES` at Data/places.bin) be found at a finite distance, with an offset
/// for its zone at a fixed local time.
private func check(_ reading: Location.Reading) {
    guard case .found(let location) = reading else { return }
    if let index = PlaceIndex.shared {
        let place = index.nearest(latitude: location.latitude, longitude: location.longitude)
        precondition(place.map { $0.distanceKm.isFinite && $0.distanceKm >= 0 && $0.distanceKm <= 20_100 } ?? false,
                     "no place or a bad distance for \(location.latitude), \(location.longitude)")
        if let zone = place?.timeZone, let local = LocalDateTime(year: 2024, month: 3, day: 31, hour: 2, minute: 30) {
            _ = TimeZoneOffset.minutes(zone: zone, local: local)
        }
    }
    precondition(location.latitude.isFinite && abs(location.latitude) <= 90, "latitude \(location.latitude)")
    precondition(location.longitude.isFinite && abs(location.longitude) <= 180, "longitude \(location.longitude)")
    precondition(location.latitude != 0 || location.longitude != 0, "0/0 kept")
    for value in [location.altitude, location.horizontalAccuracy, location.direction, location.speed] {
        precondition(value?.isFinite ?? true, "optional value not finite")
    }
}
