import Foundation

/// A preset file: `{"renditions": [ {spec}, … ]}`, the rendition list that replaces the
/// defaults. Parsed strictly, so a typo is an error rather than a silently ignored key:
/// unknown keys, wrong types and out-of-range values are refused with the JSON path and the
/// accepted values (`renditions[1].qualty: unknown key; accepted: role, format, …`).
///
/// Read once per run (CLI `--preset`, a service's named presets); costs a JSON parse.
public enum Preset {
    /// Keys a rendition spec accepts.
    public static let specKeys = ["role", "format", "formatWhenTransparent", "width", "height", "fit", "quality",
                                  "effort", "chromaSubsampling", "progressive", "compression", "maxBytes"]

    /// The specs in `data`, validated as a whole (`RenditionSpec.problem(in:)`).
    public static func parse(_ data: Data) throws(PresetError) -> [RenditionSpec] {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw PresetError(path: "", message: "not JSON (\(error.localizedDescription))")
        }
        guard let object = root as? [String: Any] else {
            throw PresetError(path: "", message: "expected an object with a \"renditions\" list")
        }
        for key in object.keys.sorted() where key != "renditions" {
            throw PresetError(path: key, message: "unknown key; accepted: renditions")
        }
        guard let list = object["renditions"] else { throw PresetError(path: "renditions", message: "missing") }
        guard let items = list as? [Any] else { throw PresetError(path: "renditions", message: "expected a list") }
        var specs: [RenditionSpec] = []
        for (index, item) in items.enumerated() {
            specs.append(try spec(item, path: "renditions[\(index)]"))
        }
        if let problem = RenditionSpec.problem(in: specs) {
            throw PresetError(path: "renditions", message: problem)
        }
        return specs
    }

    /// Reads and parses the preset file at `url`.
    public static func load(contentsOf url: URL) throws(PresetError) -> [RenditionSpec] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw PresetError(path: "", message: "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try parse(data)
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
        func integer(_ key: String, _ range: ClosedRange<Int>) throws(PresetError) -> Int? {
            guard let value = fields[key] else { return nil }
            guard let number = value as? NSNumber, !isBoolean(number),
                  number.doubleValue == number.doubleValue.rounded(), let integer = Int(exactly: number.doubleValue) else {
                throw PresetError(path: "\(path).\(key)", message: "expected an integer")
            }
            guard range.contains(integer) else {
                throw PresetError(path: "\(path).\(key)", message: "\(integer) is out of range \(range.lowerBound)–\(range.upperBound)")
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
        guard let width = try integer("width", 1...Defaults.maxRenditionSide) else {
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
            width: width, height: try integer("height", 1...Defaults.maxRenditionSide),
            fit: try choice("fit", RenditionFit.self) ?? .inside, quality: try integer("quality", 1...100))
        spec.effort = try integer("effort", format == .avif ? 0...9 : format == .jxl ? 1...9 : 0...6)
        spec.chromaSubsampling = try choice("chromaSubsampling", ChromaSubsampling.self)
        spec.progressive = progressive
        spec.compression = try integer("compression", 0...9)
        spec.maxBytes = try integer("maxBytes", 1024...(1 << 30))
        return spec
    }
}

/// A preset that cannot be used: the JSON path of the problem and what is wrong with it.
public struct PresetError: Error, Equatable, CustomStringConvertible {
    /// `renditions[1].quality`, or "" for the file as a whole.
    public var path: String
    public var message: String

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
