import Foundation

/// A URL's query read as `application/x-www-form-urlencoded`, the way browsers'
/// `URLSearchParams` and web servers read it: items split at `&`, name and value at the
/// first `=`, `+` read as a space, then percent-decoded. An item without `=` has an empty
/// value; empty pieces (`a=1&&b=2`) are skipped. Linear in the query's length.
enum URLQuery {
    struct Item: Equatable {
        var name: String
        var value: String
    }

    static func items(_ percentEncodedQuery: String?) -> [Item] {
        guard let query = percentEncodedQuery, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(pair[0])
            let value = pair.count > 1 ? decode(pair[1]) : ""
            return Item(name: name, value: value)
        }
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
