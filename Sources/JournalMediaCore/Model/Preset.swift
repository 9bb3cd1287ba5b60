import Foundation

/// A preset file: `{"renditions": [ {spec}, … ], "cardClasses": "tile,portrait"}`, the
/// rendition list that replaces the defaults and, optionally, the card size classes a
/// suggestion draws (the syntax of `--card-classes`, or a list of such entries; `convert`
/// ignores it). Parsed strictly, so a typo is an error rather than a silently ignored key:
/// unknown keys, wrong types and out-of-range values are refused with the JSON path and the
/// accepted values (`renditions[1].qualty: unknown key; accepted: role, format, …`).
///
/// Read once per run (CLI `--preset`, a service's named presets); costs a JSON parse.
public enum Preset {
    /// Keys a rendition spec accepts.
    public static let specKeys = ["role", "format", "formatWhenTransparent", "width", "height", "fit", "quality",
                                  "effort", "chromaSubsampling", "progressive", "compression", "maxBytes"]

    /// The specs in `data`, validated as a whole (`RenditionSpec.validate(_:)`).
    public static func parse(_ data: Data) throws(PresetError) -> [RenditionSpec] {
        try parseContents(data).renditions
    }

    /// The specs and, when the preset names them, the card size classes in `data`.
    public static func parseContents(_ data: Data) throws(PresetError) -> PresetContents {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw PresetError(path: "", message: "not JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any] else {
            throw PresetError(path: "", message: "expected an object with a \"renditions\" list")
        }
        for key in object.keys.sorted() where key != "renditions" && key != "cardClasses" {
            throw PresetError(path: key, message: "unknown key; accepted: renditions, cardClasses")
        }
        guard let list = object["renditions"] else { throw PresetError(path: "renditions", message: "missing") }
        guard let items = list as? [Any] else { throw PresetError(path: "renditions", message: "expected a list") }
        var specs: [RenditionSpec] = []
        for (index, item) in items.enumerated() {
            specs.append(try spec(item, path: "renditions[\(index)]"))
        }
        do throws(RenditionSpecError) { try RenditionSpec.validate(specs) } catch {
            throw PresetError(path: error.path, message: error.message)
        }
        return PresetContents(renditions: specs, cardSizes: try cardSizes(object["cardClasses"]))
    }

    /// `cardClasses`: `"tile,portrait=1080x1350"` or `["tile", "portrait=1080x1350"]`.
    private static func cardSizes(_ value: Any?) throws(PresetError) -> [CardSize]? {
        guard let value else { return nil }
        let text: String
        if let string = value as? String {
            text = string
        } else if let list = value as? [Any], list.allSatisfy({ $0 is String }) {
            text = list.compactMap { $0 as? String }.joined(separator: ",")
        } else {
            throw PresetError(path: "cardClasses", message: "expected a string such as \"tile,portrait\" or a list of strings")
        }
        do { return try CardSize.parseList(text) } catch {
            throw PresetError(path: "cardClasses", message: error.message)
        }
    }

    /// Reads and parses the preset file at `url`.
    public static func load(contentsOf url: URL) throws(PresetError) -> [RenditionSpec] {
        try loadContents(contentsOf: url).renditions
    }

    /// Reads the preset file at `url`: its specs and card size classes.
    public static func loadContents(contentsOf url: URL) throws(PresetError) -> PresetContents {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PresetError(path: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try parseContents(data)
    }

    /// JSON `true`/`false` (Foundation gives booleans and numbers as `NSNumber`; a boolean's
    /// Objective-C type is `c`).
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    private static func spec(_ item: Any, path: String) throws(PresetError) -> RenditionSpec {
        guard let fields = item as? [String: Any] else { throw PresetError(path: path, message: "expected an object") }
        for key in fields.keys.sorted() where !specKeys.contains(key) {
            throw PresetError(path: "\(path).\(key)", message: "unknown key; accepted: \(specKeys.joined(separator: ", "))")
        }
        func string(_ key: String) throws(PresetError) -> String? {
            guard let value = fields[key] else { return nil }
            guard let text = value as? String else { throw PresetError(path: "\(path).\(key)", message: "expected a string") }
            return text
        }
        // Types here; ranges, roles and formats in `RenditionSpec.validate(_:)` once all are read.
        func integer(_ key: String) throws(PresetError) -> Int? {
            guard let value = fields[key] else { return nil }
            guard let number = value as? NSNumber, !isBoolean(number),
                  number.doubleValue == number.doubleValue.rounded(), let integer = Int(exactly: number.doubleValue) else {
                throw PresetError(path: "\(path).\(key)", message: "expected an integer")
            }
            return integer
        }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type,
                                                        among accepted: [T]? = nil) throws(PresetError) -> T?
            where T.RawValue == String {
            guard let text = try string(key) else { return nil }
            let cases = accepted ?? Array(T.allCases)
            guard let value = T(rawValue: text), cases.contains(where: { $0.rawValue == value.rawValue }) else {
                throw PresetError(path: "\(path).\(key)", message: "\"\(text)\" is not accepted; accepted: "
                                    + cases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
        guard let role = try string("role") else { throw PresetError(path: "\(path).role", message: "missing") }
        let stills = RenditionFormat.stillFormats
        guard let format = try choice("format", RenditionFormat.self, among: stills) else {
            throw PresetError(path: "\(path).format", message: "missing; accepted: "
                                + stills.map(\.rawValue).joined(separator: ", "))
        }
        guard let width = try integer("width") else {
            throw PresetError(path: "\(path).width", message: "missing")
        }
        var progressive: Bool?
        if let value = fields["progressive"] {
            guard let number = value as? NSNumber, isBoolean(number) else {
                throw PresetError(path: "\(path).progressive", message: "expected true or false")
            }
            progressive = number.boolValue
        }
        var spec = RenditionSpec(
            role: role, format: format, formatWhenTransparent: try choice("formatWhenTransparent", RenditionFormat.self, among: stills),
            width: width, height: try integer("height"),
            fit: try choice("fit", RenditionFit.self) ?? .inside, quality: try integer("quality"))
        spec.effort = try integer("effort")
        spec.chromaSubsampling = try choice("chromaSubsampling", ChromaSubsampling.self)
        spec.progressive = progressive
        spec.compression = try integer("compression")
        spec.maxBytes = try integer("maxBytes")
        return spec
    }
}

/// What a preset file holds: its renditions and, when it names them, the card size classes
/// (nil: the caller's default, every class).
public struct PresetContents: Sendable, Equatable {
    public var renditions: [RenditionSpec]
    public var cardSizes: [CardSize]?

    public init(renditions: [RenditionSpec], cardSizes: [CardSize]? = nil) {
        self.renditions = renditions
        self.cardSizes = cardSizes
    }
}

/// A preset that cannot be used: the JSON path of the problem and what is wrong with it.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    /// `renditions[1].quality`, or "" for the file as a whole.
    public var path: String
    public var message: String

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
