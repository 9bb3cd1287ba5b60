import Foundation

/// The one grammar of `/v1/color`'s `background` and `base`, shared with openapi.yaml's
/// `ColorText` pattern (a test checks they are the same text): `#RGB`, `#RRGGBB`,
/// `#RRGGBBAA` (the `#` optional) or `R,G,B` with 0–255 each, no spaces (a `+` in a query is
/// not decoded to a space, so a client's form-encoded space would be refused). The colour
/// parser itself is more lenient (spaces, tabs, `+5`); the route refuses what the contract
/// does not allow, so the two agree. Costs one small regular-expression match per value.
extension UtilityRoutes {
    static let colorPattern = "^(#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|"
        + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]),(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]),"
        + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))$"

    static func isColorText(_ text: String) -> Bool {
        text.range(of: colorPattern, options: .regularExpression) != nil
    }
}
