import Foundation

extension SuggestionLinkFormat {
    /// `????????-????-????-????-????????????`: exactly a UUID's 36 characters, in either case.
    public static let uuidPattern = "????????-????-????-????-????????????"

    /// The `applinks.details` entry that sends exactly this format's links to the apps:
    /// one component for a moment's link (the id as 36 single-character wildcards in its
    /// `8-4-4-4-12` shape) and one for the general-reminder link (the id empty), each with
    /// the format's fixed path (`/`) and fixed query items (`?`). With
    /// `excludingFragment`, a first component keeps links ending in `#NAME` in the browser
    /// (Apple's convention for a web page that must not open the app).
    ///
    /// Patterns are the format's text as written (percent-encoded path, decoded query
    /// items), matched with the AASA defaults (case-sensitive, percent-encoded). Throws for
    /// an invalid app identifier, and for a format whose fixed text contains `*` or `?`,
    /// which a pattern cannot match literally.
    public func appLinksDetail(appIDs: [String], excludingFragment: String? = nil) throws(SuggestionLinkError) -> AppLinksDetail {
        for appID in appIDs where !Self.isApplicationIdentifier(appID) {
            throw .invalidAppID(appID)
        }
        if appIDs.isEmpty { throw .invalidAppID("") }
        for text in pathComponents.compactMap({ $0 }) + fixedQueryItems.flatMap({ [$0.name, $0.value] })
        where text.contains("*") || text.contains("?") {
            throw .wildcardInFormat(format: self.text, text: text)
        }

        func component(id: String, comment: String) -> AppLinksComponent {
            let pathPattern = "/" + pathComponents.map { $0 ?? id }.joined(separator: "/")
            var items: [String: String] = [:]
            for item in fixedQueryItems { items[item.name] = item.value }
            if case .queryValue(let name) = placement { items[name] = id }
            return AppLinksComponent(path: pathPattern, query: items.isEmpty ? nil : .items(items), comment: comment)
        }

        var components: [AppLinksComponent] = []
        if let fragment = excludingFragment {
            components.append(AppLinksComponent(
                fragment: fragment, exclude: true,
                comment: "Links ending in #\(fragment) stay in the browser."))
        }
        components.append(component(id: Self.uuidPattern,
                                    comment: "Journaling Suggestions reminder about one moment (JSNotificationURLFormat \(text))."))
        components.append(component(id: "",
                                    comment: "Journaling Suggestions general reminder (the suggestion id left empty)."))
        return AppLinksDetail(appIDs: appIDs, components: components)
    }

    /// A whole `apple-app-site-association` file with only this format's entry; merge its
    /// `details` entry into an existing file, before broader components of the same apps.
    public func appSiteAssociation(appIDs: [String], excludingFragment: String? = nil) throws(SuggestionLinkError) -> AppSiteAssociation {
        AppSiteAssociation(applinks: AppLinks(details: [try appLinksDetail(appIDs: appIDs, excludingFragment: excludingFragment)]))
    }

    /// `TEAMID.bundle.id`: a 10-character team (or app-ID prefix) of upper-case letters and
    /// digits, a dot, and a bundle identifier of letters, digits, `-` and `.`.
    public static func isApplicationIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let team = parts[0].unicodeScalars, bundle = parts[1].unicodeScalars
        let upperOrDigit = team.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        let bundleChars = bundle.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "."
        }
        return team.count == 10 && upperOrDigit && !bundle.isEmpty && bundleChars
            && bundle.first != "." && bundle.last != "." && !parts[1].contains("..")
    }
}
