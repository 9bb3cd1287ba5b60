import Foundation

/// Where an asset was captured, as its file states it: WGS 84 degrees (north and east
/// positive), metres above sea level, the receiver's horizontal accuracy in metres, the
/// direction the camera faced in degrees (0–360, as recorded: true or magnetic north), and
/// the speed in metres per second.
///
/// Read from the file's headers by the metadata walk (`CaptureDateReader`), in this order:
/// EXIF GPS (`GPSLatitude` + `GPSLatitudeRef`, …), XMP `exif:GPS*`, then for movies
/// QuickTime's `com.apple.quicktime.location.ISO6709` and MP4's `©xyz` (ISO 6709 strings;
/// `com.apple.quicktime.location.accuracy.horizontal` for the accuracy). A Live Photo has
/// the still's location, else the movie's.
///
/// Sanity rules (`Location.checked`): a position is refused — the field is `null` and the
/// result gets a warning, never a made-up place — when a coordinate is missing its
/// hemisphere reference, is not finite (NaN, infinity, a zero denominator), is out of range
/// (|latitude| > 90, |longitude| > 180), when both are exactly 0 (what receivers write
/// without a fix), or when EXIF `GPSStatus` is `V` (measurement void). An optional value
/// (altitude, accuracy, direction, speed) that is malformed is left out with a warning;
/// the position is kept. Coordinates are rounded to 1e-8° and other values to 1e-6 (see
/// `rounded`). Costs nothing measurable: a few numbers per asset.
public struct Location: Codable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above (negative: below) sea level.
    @ExplicitNull public var altitude: Double?
    /// Horizontal positioning error in metres (EXIF `GPSHPositioningError`, Apple's accuracy key).
    @ExplicitNull public var horizontalAccuracy: Double?
    /// Degrees clockwise from north the camera faced (EXIF `GPSImgDirection`).
    @ExplicitNull public var direction: Double?
    /// Metres per second (EXIF `GPSSpeed` converted from its `GPSSpeedRef` unit).
    @ExplicitNull public var speed: Double?
    /// Where it came from: `exif.GPS`, `xmp.exif:GPS`, `quicktime.location.ISO6709` or
    /// `quicktime.©xyz`.
    public var source: String

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
                direction: Double? = nil, speed: Double? = nil, source: String) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.direction = direction
        self.speed = speed
        self.source = source
    }

    /// A location or why there is none: what a reader found, before it is trusted.
    public enum Reading: Sendable, Equatable {
        /// The file states no position.
        case absent
        case found(Location)
        /// The file states a position the sanity rules refuse; the text says why.
        case refused(String)
    }

    /// Applies the sanity rules above to a position and its optional values; `warnings`
    /// receives one line per value left out.
    public static func checked(latitude: Double, longitude: Double, altitude: Double? = nil,
                               horizontalAccuracy: Double? = nil, direction: Double? = nil, speed: Double? = nil,
                               source: String, warnings: inout [String]) -> Reading {
        guard latitude.isFinite, longitude.isFinite else { return .refused("\(source): coordinate is not a number") }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else {
            return .refused("\(source): coordinate out of range (\(latitude), \(longitude))")
        }
        guard latitude != 0 || longitude != 0 else { return .refused("\(source): 0/0 (no fix)") }
        func kept(_ value: Double?, _ name: String, _ valid: (Double) -> Bool) -> Double? {
            guard let value else { return nil }
            if value.isFinite && valid(value) { return rounded(value, 1e6) }
            warnings.append("\(source): \(name) \(value) ignored")
            return nil
        }
        return .found(Location(latitude: rounded(latitude, 1e8), longitude: rounded(longitude, 1e8),
                               altitude: kept(altitude, "altitude") { abs($0) < 100_000_000 },
                               horizontalAccuracy: kept(horizontalAccuracy, "horizontal accuracy") { $0 >= 0 },
                               direction: kept(direction, "direction") { $0 >= 0 && $0 <= 360 },
                               speed: kept(speed, "speed") { $0 >= 0 }, source: source))
    }

    /// Coordinates are kept to 1e-8° (about a millimetre), other values to 1e-6 of their
    /// unit: the binary fractions of rationals (`2.2944999999999998`) print as written (`2.2945`).
    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale }

    /// One JSON object, keys in the documented order, unknown values as `null` (the
    /// `inspect` line; the manifest uses `Codable`, same keys and order).
    public var json: String {
        "{\"latitude\":\(JSONText.number(latitude)),\"longitude\":\(JSONText.number(longitude)),"
            + "\"altitude\":\(JSONText.number(altitude)),\"horizontalAccuracy\":\(JSONText.number(horizontalAccuracy)),"
            + "\"direction\":\(JSONText.number(direction)),\"speed\":\(JSONText.number(speed)),"
            + "\"source\":\"\(JSONText.escape(source))\"}"
    }
}
