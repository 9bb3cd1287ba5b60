import CPango

/// The Pango the cards are laid out with, for `--version`. Costs nothing measurable.
package enum PangoVersion {
    package static var text: String {
        guard let version = pango_version_string() else { return "pango" }
        return "pango \(String(cString: version))"
    }
}
