import Foundation

/// What an incoming link means under one `SuggestionLinkFormat`: the result of
/// `SuggestionLinkFormat.match(_:)`, run once per incoming link. Pure data.
public enum SuggestionLinkMatch: Sendable, Equatable {
    /// A reminder about one moment: open the suggestions picker on it
    /// (`JournalingSuggestionPresentationToken(suggestionIdentifier:)`).
    case suggestion(UUID)
    /// A reminder about no moment in particular (the placeholder was replaced by nothing).
    case generalReminder
    /// Not a link of this format; `reason` names the first part that differs.
    case notThisFormat(reason: String)
}

extension SuggestionLinkFormat {
    /// Reads an incoming link the way a browser would before handing it to the app: scheme
    /// and host compared without regard to case, the default port equal to no port, `.` and
    /// `..` path components resolved, components and query items compared percent-decoded,
    /// trailing slashes ignored, query items the format does not name ignored, the
    /// `#fragment` ignored. The id is accepted in either case and percent-encoded. Fixed
    /// path text is compared case-sensitively, as web servers and AASA patterns do.
    ///
    /// Cost: one URL parse and a pass over its path and query.
    public func match(_ link: String) -> SuggestionLinkMatch {
        let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URLComponents(string: trimmed), let rawScheme = url.scheme else {
            return .notThisFormat(reason: "not an absolute URL")
        }
        let scheme = rawScheme.lowercased()
        guard scheme == self.scheme else {
            return .notThisFormat(reason: "scheme is \(scheme), the format's is \(self.scheme)")
        }
        let host = (url.percentEncodedHost ?? "").lowercased()
        guard host == self.host else {
            return .notThisFormat(reason: "host is \(host.isEmpty ? "missing" : host), the format's is \(self.host)")
        }
        guard effectivePort(url.port) == effectivePort(port) else {
            return .notThisFormat(reason: "port \(url.port.map(String.init) ?? "default") differs from the format's \(port.map(String.init) ?? "default")")
        }

        var template = pathComponents
        while let last = template.last, last == "" { template.removeLast() }
        let incoming = URLPath.trimmed(URLPath.components(url.percentEncodedPath))
        let query = URLQuery.items(url.percentEncodedQuery)

        // The path: fixed components equal after decoding; the placeholder takes one
        // component, or none when it is the last and the link ends before it.
        var id: String?
        let placeholderIsLast = template.last.map { $0 == nil } ?? false
        let pathFits = incoming.count == template.count
            || (placeholderIsLast && incoming.count == template.count - 1)
        guard pathFits else { return .notThisFormat(reason: pathReason(incoming)) }
        for (i, part) in template.enumerated() {
            guard let part else {
                id = i < incoming.count ? URLPath.decoded(incoming[i]) : ""
                continue
            }
            guard URLPath.decoded(part) == URLPath.decoded(incoming[i]) else {
                return .notThisFormat(reason: pathReason(incoming))
            }
        }

        for item in fixedQueryItems where !query.contains(where: { $0.name == item.name && $0.value == item.value }) {
            return .notThisFormat(reason: "query item \(item.name)=\(item.value) is missing")
        }
        if case .queryValue(let name) = placement {
            let values = query.filter { $0.name == name }.map(\.value)
            guard let first = values.first else {
                return .notThisFormat(reason: "no query item \"\(name)\"")
            }
            guard values.allSatisfy({ $0 == first }) else {
                return .notThisFormat(reason: "query item \"\(name)\" appears \(values.count) times with different values")
            }
            id = first
        }

        guard let id, !id.isEmpty else { return .generalReminder }
        guard let uuid = Self.uuid(id) else {
            return .notThisFormat(reason: "\"\(id)\" where the suggestion id stands is not a UUID")
        }
        return .suggestion(uuid)
    }

    private func effectivePort(_ port: Int?) -> Int {
        port ?? (scheme == "https" ? 443 : 80)
    }

    private func pathReason(_ incoming: [String]) -> String {
        let shown = "/" + incoming.joined(separator: "/")
        let expected = "/" + pathComponents.map { $0 ?? placeholder.text }.joined(separator: "/")
        return "path \(shown) does not fit \(expected)"
    }
}
