import FuzzSupport
import JournalMediaCore
import JournalMediaMetadata

/// libFuzzer entry: the input as the location parsers see it — an ISO 6709 string (QuickTime
/// `©xyz` / Apple's location key, with an accuracy), XMP GPS coordinate and rational texts,
/// and a TIFF block whose GPS IFD (and IFD0/EXIF camera tags) libexif parses and
/// `LocationReader`/`CameraReader` read. A trap is a finding; so is a location that breaks
/// the sanity rules (out of range or not finite).
@_cdecl("fuzz_location_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzSupport.runDriver(argc, argv) { data, count in fuzz(data, count) }
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
    _ = CameraReader.read(containerTags: ["make": text, "com.apple.quicktime.model": text])
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
    if let exif = ExifBlock(tiff: bytes) {
        check(LocationReader.read(exif, warnings: &warnings))
        _ = CameraReader.read(exif)
    }
    return 0
}

/// A found location must satisfy the sanity rules.
private func check(_ reading: Location.Reading) {
    guard case .found(let location) = reading else { return }
    precondition(location.latitude.isFinite && abs(location.latitude) <= 90, "latitude \(location.latitude)")
    precondition(location.longitude.isFinite && abs(location.longitude) <= 180, "longitude \(location.longitude)")
    precondition(location.latitude != 0 || location.longitude != 0, "0/0 kept")
    for value in [location.altitude, location.horizontalAccuracy, location.direction, location.speed] {
        precondition(value?.isFinite ?? true, "optional value not finite")
    }
}
