import Foundation

/// The device that made an asset, as its metadata names it.
///
/// Stills: EXIF `Make`, `Model` (IFD0), `LensModel`, `Software`, `FocalLength` (mm),
/// `FocalLengthIn35mmFormat` (mm), `FNumber`, `ExposureTime` (seconds) and `ISO`
/// (`PhotographicSensitivity`). Movies: QuickTime's `com.apple.quicktime.make`, `.model`,
/// `.software` (or MP4's `©mak`, `©mod`). Texts are as ExifTool prints them: up to the
/// first NUL, blanks at both ends trimmed; nothing else is changed, so a model that repeats
/// the make (`Canon EOS 5D` from `Canon`) is kept as the file spells it. Absent when the
/// file names neither make nor model. Read by the header walk: no cost beyond a few lookups.
public struct CameraInfo: Codable, Sendable, Equatable {
    @ExplicitNull public var make: String?
    @ExplicitNull public var model: String?
    @ExplicitNull public var lens: String?
    @ExplicitNull public var software: String?
    /// Millimetres.
    @ExplicitNull public var focalLength: Double?
    /// Millimetres, 35 mm equivalent.
    @ExplicitNull public var focalLength35: Double?
    @ExplicitNull public var fNumber: Double?
    /// Seconds.
    @ExplicitNull public var exposureTime: Double?
    @ExplicitNull public var iso: Int?

    public init(make: String? = nil, model: String? = nil, software: String? = nil) {
        self.make = make
        self.model = model
        self.software = software
    }

    /// A text as reported: blanks trimmed at both ends; nil when nothing is left.
    public static func normalized(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// One JSON object, keys in the documented order, unknown values as `null`.
    public var json: String {
        "{\"make\":\(JSONText.quoted(make)),\"model\":\(JSONText.quoted(model)),\"lens\":\(JSONText.quoted(lens)),"
            + "\"software\":\(JSONText.quoted(software)),\"focalLength\":\(JSONText.number(focalLength)),"
            + "\"focalLength35\":\(JSONText.number(focalLength35)),\"fNumber\":\(JSONText.number(fNumber)),"
            + "\"exposureTime\":\(JSONText.number(exposureTime)),\"iso\":\(iso.map(String.init) ?? "null")}"
    }
}
