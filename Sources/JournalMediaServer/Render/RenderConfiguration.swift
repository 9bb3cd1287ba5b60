import Foundation
import JournalMedia

/// The settings of the on-demand route (`GET /v1/render/…`, `RenderRoutes`), read from the
/// config file's `"render"` object (and a preset's own `cacheControl` / `format: "auto"`).
/// Off by default: with no key and unsigned URLs not enabled, every render request is 403;
/// with no `storageRoot` every file source is 404; with no `allowedHosts` every URL source is
/// 403. Read once at start-up; costs nothing per request.
public struct RenderConfiguration: Sendable, Equatable {
    /// One signing key: HMAC-SHA256 with `key` over `salt` followed by the signed path.
    public struct SigningKey: Sendable, Equatable {
        public var key: [UInt8]
        public var salt: [UInt8]
        public init(key: [UInt8], salt: [UInt8]) {
            self.key = key
            self.salt = salt
        }
    }

    /// Keys accepted at once (rotation: add the new key, move signers over, drop the old one).
    public var keys: [SigningKey] = []
    /// Accept `unsafe` in place of a signature. Off by default; for development only.
    public var allowUnsigned = false
    /// The folder file sources are read from (a mounted volume); nil: no file sources.
    public var storageRoot: URL?
    /// Hosts URL sources may name: `example.com` (exactly), `*.example.com` (any subdomain, not
    /// the domain itself), `*` (any public host). An address in a private, loopback, link-local,
    /// multicast or reserved range is refused unless its host is listed exactly, by name.
    public var allowedHosts: [String] = []
    /// Accept `http://` sources too (only `https://` by default).
    public var allowHTTP = false
    /// Redirects followed per fetch, each one checked as the first URL was.
    public var maxRedirects = 3
    /// Seconds to connect to a source's host (TLS included).
    public var connectTimeoutSeconds = 5.0
    /// Seconds a source may stay silent while its body is read.
    public var readTimeoutSeconds = 10.0
    /// Seconds a whole fetch may take, redirects included (504 beyond).
    public var fetchTimeoutSeconds = 20.0
    /// `Cache-Control` of a rendition whose preset does not set `cacheControl`.
    public var defaultCacheControl = "public, max-age=86400"
    /// Per preset name: its `cacheControl`, when the preset set one.
    public var cacheControl: [String: String] = [:]
    /// Per preset name: the roles whose `format` is `auto` (chosen from `Accept`: AVIF, WebP,
    /// then JPEG; the preset's specs hold `jpeg` for them, what uploads make).
    public var autoFormatRoles: [String: Set<String>] = [:]

    public init() {}

    /// Reads the config file's `"render"` object. Keys: `keys` (a list of `{"key": HEX,
    /// "salt": HEX}`), `allowUnsigned`, `storageRoot`, `allowedHosts`, `allowHTTP`,
    /// `maxRedirects`, `connectTimeoutSeconds`, `readTimeoutSeconds`, `fetchTimeoutSeconds`,
    /// `cacheControl` (the default for presets without their own).
    mutating func apply(_ value: Any, from origin: String) throws(ServeConfiguration.Problem) {
        func problem(_ text: String) -> ServeConfiguration.Problem {
            ServeConfiguration.Problem(description: "\(origin): render.\(text)")
        }
        guard let object = value as? [String: Any] else { throw problem("render must be an object") }
        for key in object.keys.sorted() {
            let value = object[key] ?? NSNull()
            func seconds() throws(ServeConfiguration.Problem) -> Double {
                guard let number = (value as? NSNumber)?.doubleValue, number.isFinite, number > 0, number <= 3600 else {
                    throw problem("\(key) must be a number of seconds, 0–3600")
                }
                return number
            }
            func flag() throws(ServeConfiguration.Problem) -> Bool {
                guard let number = value as? NSNumber, String(cString: number.objCType) == "c" else {
                    throw problem("\(key) must be true or false")
                }
                return number.boolValue
            }
            switch key {
            case "keys":
                guard let list = value as? [[String: Any]], !list.isEmpty else {
                    throw problem("keys must be a list of {\"key\": hex, \"salt\": hex}")
                }
                keys = []
                for (index, entry) in list.enumerated() {
                    guard let key = (entry["key"] as? String).flatMap(Self.hexBytes), key.count >= 16,
                          let salt = (entry["salt"] as? String).flatMap(Self.hexBytes),
                          Set(entry.keys).isSubset(of: ["key", "salt"]) else {
                        throw problem("keys[\(index)] needs \"key\" (hex, at least 16 bytes) and \"salt\" (hex)")
                    }
                    keys.append(SigningKey(key: key, salt: salt))
                }
            case "allowUnsigned": allowUnsigned = try flag()
            case "allowHTTP": allowHTTP = try flag()
            case "storageRoot":
                guard let path = value as? String, path.hasPrefix("/") else { throw problem("storageRoot must be an absolute path") }
                storageRoot = URL(fileURLWithPath: path)
            case "allowedHosts":
                guard let hosts = value as? [String], hosts.allSatisfy(SourceAddressPolicy.isValidPattern) else {
                    throw problem("allowedHosts must list host names, *.domain patterns or *")
                }
                allowedHosts = hosts.map { $0.lowercased() }
            case "maxRedirects":
                guard let number = value as? NSNumber, let count = Int(exactly: number.doubleValue), (0...10).contains(count) else {
                    throw problem("maxRedirects must be 0–10")
                }
                maxRedirects = count
            case "connectTimeoutSeconds": connectTimeoutSeconds = try seconds()
            case "readTimeoutSeconds": readTimeoutSeconds = try seconds()
            case "fetchTimeoutSeconds": fetchTimeoutSeconds = try seconds()
            case "cacheControl":
                guard let text = value as? String, Self.isHeaderSafe(text) else { throw problem("cacheControl must be header text") }
                defaultCacheControl = text
            default:
                throw problem("\(key): unknown key; accepted: keys, allowUnsigned, storageRoot, allowedHosts, allowHTTP, "
                              + "maxRedirects, connectTimeoutSeconds, readTimeoutSeconds, fetchTimeoutSeconds, cacheControl")
            }
        }
    }

    /// Takes a preset's render-only settings out of its JSON object before `Preset.parse`
    /// sees it: `cacheControl` at the top, and `"format": "auto"` in a rendition (replaced by
    /// `jpeg`, with `formatWhenTransparent` `png` unless set).
    mutating func takeRenderSettings(ofPreset name: String, from preset: Any,
                                     origin: String) throws(ServeConfiguration.Problem) -> Any {
        guard var object = preset as? [String: Any] else { return preset }
        if let value = object.removeValue(forKey: "cacheControl") {
            guard let text = value as? String, Self.isHeaderSafe(text) else {
                throw ServeConfiguration.Problem(description: "\(origin): presets.\(name).cacheControl must be header text")
            }
            cacheControl[name] = text
        }
        guard var renditions = object["renditions"] as? [Any] else { return object }
        for (index, item) in renditions.enumerated() {
            guard var spec = item as? [String: Any], spec["format"] as? String == "auto" else { continue }
            spec["format"] = "jpeg"
            if spec["formatWhenTransparent"] == nil { spec["formatWhenTransparent"] = "png" }
            if let role = spec["role"] as? String { autoFormatRoles[name, default: []].insert(role) }
            renditions[index] = spec
        }
        object["renditions"] = renditions
        return object
    }

    /// The `Cache-Control` of `preset`'s renditions.
    func cacheControl(ofPreset preset: String) -> String { cacheControl[preset] ?? defaultCacheControl }

    /// Printable ASCII only: nothing that could end or split a header line.
    static func isHeaderSafe(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 256 && text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// `00ff…` → bytes; nil when not an even number of hex digits.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension ServeConfiguration {
    /// The processing options of a preset's processor: its renditions under the server's
    /// pixel and byte limits and location setting (uploads and on-demand renders alike).
    func processingOptions(renditions: [RenditionSpec]) -> ProcessingOptions {
        var options = ProcessingOptions(renditions: renditions, maxPixels: maxPixels, maxBytes: maxBodyBytes)
        options.includeLocation = includeLocation
        return options
    }
}
