import Foundation
import JournalMediaCore

/// Reads an asset's position (`Location`) from what the header walk already parsed: the
/// EXIF GPS directory, the XMP packet's `exif:GPS*` properties, or a movie's container tags.
/// The sanity rules are `Location.checked`'s; this adds the format-specific ones: a
/// latitude or longitude without its hemisphere reference, a zero denominator, and an EXIF
/// `GPSStatus` of `V` are refused. Runs once per asset, microseconds.
package enum LocationReader {
    /// libav's names for QuickTime's and MP4's location tags.
    package static let quickTimeISO6709Key = "com.apple.quicktime.location.ISO6709"
    package static let quickTimeAccuracyKey = "com.apple.quicktime.location.accuracy.horizontal"
    package static let mp4LocationKey = "location"

    /// EXIF GPS: `GPSLatitude`/`GPSLongitude` (one to three rationals: degrees, minutes,
    /// seconds) with their `Ref`s, `GPSAltitude` + `GPSAltitudeRef` (1: below sea level),
    /// `GPSHPositioningError`, `GPSImgDirection`, `GPSSpeed` in its `GPSSpeedRef` unit
    /// (K km/h, the default; M mph; N knots).
    package static func read(_ exif: ExifBlock, warnings: inout [String]) -> Location.Reading {
        let source = "exif.GPS"
        let hasLatitude = exif.has(.gps, ExifTagNumber.gpsLatitude), hasLongitude = exif.has(.gps, ExifTagNumber.gpsLongitude)
        guard hasLatitude || hasLongitude else { return .absent }
        if exif.text(.gps, ExifTagNumber.gpsStatus)?.uppercased().hasPrefix("V") == true {
            return .refused("\(source): GPSStatus V (measurement void)")
        }
        guard let latitude = exif.numbers(.gps, ExifTagNumber.gpsLatitude).flatMap(sexagesimal),
              let longitude = exif.numbers(.gps, ExifTagNumber.gpsLongitude).flatMap(sexagesimal) else {
            return .refused("\(source): latitude or longitude missing or malformed")
        }
        guard let north = hemisphere(exif.text(.gps, ExifTagNumber.gpsLatitudeRef), positive: "N", negative: "S"),
              let east = hemisphere(exif.text(.gps, ExifTagNumber.gpsLongitudeRef), positive: "E", negative: "W") else {
            return .refused("\(source): latitude or longitude reference missing or not N/S/E/W")
        }
        var altitude = exif.numbers(.gps, ExifTagNumber.gpsAltitude)?.first
        if altitude != nil, exif.numbers(.gps, ExifTagNumber.gpsAltitudeRef)?.first == 1 { altitude = altitude.map(-) }
        let speedRef = exif.text(.gps, ExifTagNumber.gpsSpeedRef)
        let speed = exif.numbers(.gps, ExifTagNumber.gpsSpeed)?.first.map { $0 * metresPerSecond(speedRef) }
        return Location.checked(latitude: north * latitude, longitude: east * longitude, altitude: altitude,
                                horizontalAccuracy: exif.numbers(.gps, ExifTagNumber.gpsHPositioningError)?.first,
                                direction: exif.numbers(.gps, ExifTagNumber.gpsImgDirection)?.first,
                                speed: speed, source: source, warnings: &warnings)
    }

    /// XMP `exif:GPSLatitude`/`exif:GPSLongitude` (`DDD,MM,SSk` or `DDD,MM.mmk`, k one of
    /// N/S/E/W), `exif:GPSAltitude` (a rational) + `exif:GPSAltitudeRef`, and the optional
    /// values as rationals. `source` names the packet: the file's own (`xmp.exif:GPS`) or an
    /// XMP sidecar beside it (`xmp-sidecar.exif:GPS`).
    package static func read(_ xmp: XMPPacket, source: String = "xmp.exif:GPS", warnings: inout [String]) -> Location.Reading {
        func value(_ local: String) -> String? { xmp[XMPName(XMPName.exifNamespace, local)] }
        let latitudeText = value("GPSLatitude"), longitudeText = value("GPSLongitude")
        guard latitudeText != nil || longitudeText != nil else { return .absent }
        if value("GPSStatus")?.uppercased().hasPrefix("V") == true {
            return .refused("\(source): GPSStatus V (measurement void)")
        }
        guard let latitude = latitudeText.flatMap({ xmpCoordinate($0, positive: "N", negative: "S") }),
              let longitude = longitudeText.flatMap({ xmpCoordinate($0, positive: "E", negative: "W") }) else {
            return .refused("\(source): latitude or longitude missing or malformed")
        }
        var altitude = value("GPSAltitude").flatMap(rational)
        if altitude != nil, value("GPSAltitudeRef")?.trimmingCharacters(in: .whitespaces) == "1" { altitude = altitude.map(-) }
        let speed = value("GPSSpeed").flatMap(rational).map { $0 * metresPerSecond(value("GPSSpeedRef")) }
        return Location.checked(latitude: latitude, longitude: longitude, altitude: altitude,
                                horizontalAccuracy: value("GPSHPositioningError").flatMap(rational),
                                direction: value("GPSImgDirection").flatMap(rational), speed: speed,
                                source: source, warnings: &warnings)
    }

    /// A movie's tags: QuickTime's ISO 6709 key (with Apple's horizontal accuracy), else
    /// MP4's `©xyz`. `matroska`: the tags of a Matroska/WebM file, keys spelt as the readers
    /// know them (`matroskaTags`): the same two keys, as ffmpeg keeps them when it remuxes a
    /// phone's movie (`LOCATION`, `COM.APPLE.QUICKTIME.LOCATION.ISO6709`); Matroska itself
    /// defines no coordinates tag (its `RECORDING_LOCATION` is a country code). There a
    /// `LOCATION` that does not start like an ISO 6709 point (`+`/`-`) is a free-text place
    /// and is ignored rather than refused.
    package static func read(containerTags tags: [String: String], matroska: Bool = false,
                             warnings: inout [String]) -> Location.Reading {
        let keys = matroska ? [(quickTimeISO6709Key, "matroska.location.ISO6709"), (mp4LocationKey, "matroska.LOCATION")]
            : [(quickTimeISO6709Key, "quicktime.location.ISO6709"), (mp4LocationKey, "quicktime.©xyz")]
        for (key, source) in keys {
            guard let text = tags[key] else { continue }
            if matroska, key == mp4LocationKey, !(text.first == "+" || text.first == "-") { continue }
            guard let point = ISO6709.parse(text) else { return .refused("\(source): not an ISO 6709 point") }
            let accuracy = tags[quickTimeAccuracyKey].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            return Location.checked(latitude: point.latitude, longitude: point.longitude, altitude: point.altitude,
                                    horizontalAccuracy: accuracy, source: source, warnings: &warnings)
        }
        return .absent
    }

    /// A Matroska file's tags with the keys the location and camera readers know spelt as
    /// they know them: libav reports Matroska tags as written, which ffmpeg writes upper-case.
    package static func matroskaTags(_ tags: [String: String]) -> [String: String] {
        var known: [String: String] = [:]
        for key in [quickTimeISO6709Key, quickTimeAccuracyKey, mp4LocationKey] + CameraReader.containerKeys {
            known[key.lowercased()] = key
        }
        var out = tags
        for (key, value) in tags {
            if let canonical = known[key.lowercased()], out[canonical] == nil { out[canonical] = value }
        }
        return out
    }

    /// Degrees + minutes / 60 + seconds / 3600; nil for more than three values, or a NaN
    /// (zero denominator) or negative one.
    static func sexagesimal(_ values: [Double]) -> Double? {
        guard (1...3).contains(values.count), values.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
        return values.enumerated().reduce(0) { $0 + $1.element / [1, 60, 3_600][$1.offset] }
    }

    /// +1 or −1 from a reference's first letter; nil when absent or another letter.
    private static func hemisphere(_ text: String?, positive: Character, negative: Character) -> Double? {
        switch text?.trimmingCharacters(in: .whitespaces).uppercased().first {
        case positive: 1
        case negative: -1
        default: nil
        }
    }

    /// `DDD,MM,SSk` or `DDD,MM.mmk` (XMP's GPSCoordinate); nil when malformed.
    package static func xmpCoordinate(_ text: String, positive: Character, negative: Character) -> Double? {
        guard text.utf8.count <= ISO6709.maximumLength else { return nil }
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        guard let last = body.last?.uppercased().first else { return nil }
        let sign: Double
        switch last {
        case positive: sign = 1
        case negative: sign = -1
        default: return nil
        }
        body = body.dropLast()
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        var values: [Double] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(part) else { return nil }
            values.append(value)
        }
        guard values.dropFirst().allSatisfy({ $0 < 60 }), let degrees = sexagesimal(values) else { return nil }
        return sign * degrees
    }

    /// `n/d` or a decimal; NaN for a zero denominator (refused later), nil when malformed.
    package static func rational(_ text: String) -> Double? {
        guard text.utf8.count <= ISO6709.maximumLength else { return nil }
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard let numerator = parts.first.flatMap({ Double($0) }) else { return nil }
        guard parts.count == 2 else { return parts.count == 1 ? numerator : nil }
        guard let denominator = Double(parts[1]) else { return nil }
        return denominator == 0 ? .nan : numerator / denominator
    }

    /// The factor from a GPSSpeedRef unit to metres per second (K when absent).
    private static func metresPerSecond(_ ref: String?) -> Double {
        switch ref?.trimmingCharacters(in: .whitespaces).uppercased() {
        case "M": 0.44704
        case "N": 1_852.0 / 3_600
        default: 1 / 3.6
        }
    }
}
