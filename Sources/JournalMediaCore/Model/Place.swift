import Foundation

/// The named place nearest to an asset's `location`: a GeoNames populated place (more than
/// 1,000 people) with its first- and second-level administrative areas, its country and the
/// great-circle distance to it. Found offline by `PlaceIndex` (no network, ever); nil when
/// there is no location, no place table, or locations are switched off (`--no-location`).
///
/// Place data: GeoNames (https://www.geonames.org), CC BY 4.0.
public struct Place: Codable, Sendable, Equatable {
    public var name: String
    @ExplicitNull public var admin1: String?
    @ExplicitNull public var admin2: String?
    /// The country's English name (from the system's ICU data), else its code.
    public var country: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    /// The place's IANA time zone (`Europe/Zurich`), from GeoNames; nil when the table has none.
    /// It gives a capture date that states a local time without an offset its zone
    /// (`CaptureDate.Confidence.offsetFromPlace`).
    @ExplicitNull public var timeZone: String?
    /// Great-circle distance from the location to the place, kilometres (3 decimals).
    public var distanceKm: Double

    public init(name: String, admin1: String?, admin2: String?, country: String, countryCode: String,
                timeZone: String? = nil, distanceKm: Double) {
        self.name = name
        self.admin1 = admin1
        self.admin2 = admin2
        self.country = country
        self.countryCode = countryCode
        self.timeZone = timeZone
        self.distanceKm = distanceKm
    }

    /// One JSON object, keys in the documented order.
    public var json: String {
        "{\"name\":\(JSONText.quoted(name)),\"admin1\":\(JSONText.quoted(admin1)),\"admin2\":\(JSONText.quoted(admin2)),"
            + "\"country\":\(JSONText.quoted(country)),\"countryCode\":\(JSONText.quoted(countryCode)),"
            + "\"timeZone\":\(JSONText.quoted(timeZone)),"
            + "\"distanceKm\":\(JSONText.number(distanceKm))}"
    }
}

extension Place {
    /// The nearest place to `location` in `PlaceIndex.shared`; nil without a place table.
    public static func nearest(to location: Location) -> Place? {
        PlaceIndex.shared?.nearest(latitude: location.latitude, longitude: location.longitude)
    }
}
