import JournalMedia

/// The input formats `convert --help` lists, made from `FormatRegistry` when the help is
/// printed: every registered format by its handler's `displayName`, grouped by what the pipeline does
/// with it. A format added as a handler shows here with nothing else to change.
enum InputFormatList {
    /// "JPEG, PNG, …; PFM, OpenEXR and Radiance HDR exposed for display; camera raw …".
    static var sentence: String {
        let described = FormatRegistry.described
        func names(_ include: (FormatDescription) -> Bool) -> [String] { described.filter(include).map(\.displayName) }
        let stills = names { ($0.kind == .still || $0.kind == .vector) && $0.still?.linearLight != true }
        let linear = names { $0.kind == .still && $0.still?.linearLight == true }
        let raw = names { $0.kind == .cameraRaw }
        let video = names { $0.kind == .video }
        let audio = names { $0.kind == .audio }
        let metadataOnly = names { $0.kind == .metadataOnly }
        var parts = [stills.joined(separator: ", ")]
        if !linear.isEmpty { parts.append(listed(linear) + " exposed for display") }
        if !raw.isEmpty { parts.append("camera raw " + raw.joined(separator: ", ") + " through their largest embedded JPEG preview") }
        if !video.isEmpty { parts.append("movies: " + video.joined(separator: ", ")) }
        if !audio.isEmpty { parts.append("audio (its cover art): " + audio.joined(separator: ", ")) }
        if !metadataOnly.isEmpty { parts.append(listed(metadataOnly) + " for the capture date only (no renditions)") }
        return parts.joined(separator: "; ")
    }

    /// "A", "A and B", "A, B and C".
    private static func listed(_ names: [String]) -> String {
        guard let last = names.last, names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }
}
