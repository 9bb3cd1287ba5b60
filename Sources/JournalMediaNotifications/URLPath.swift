import Foundation

/// Path handling as a browser does it before a link reaches an app (RFC 3986 §5.2.4 and the
/// WHATWG URL standard): `.` and `..` components (also written `%2E`) are resolved, and
/// components are compared after percent-decoding. Linear in the path's length.
enum URLPath {
    static func isDot(_ component: String) -> Bool {
        component == "." || component.lowercased() == "%2e"
    }

    static func isDoubleDot(_ component: String) -> Bool {
        ["..", ".%2e", "%2e.", "%2e%2e"].contains(component.lowercased())
    }

    /// The components of a percent-encoded path (`""` and `"/"` have none but a trailing
    /// empty one), with dot components resolved: `/a/./b/../c/` → `["a", "c", ""]`.
    static func components(_ percentEncodedPath: String) -> [String] {
        let path = percentEncodedPath.hasPrefix("/") ? String(percentEncodedPath.dropFirst()) : percentEncodedPath
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var output: [String] = []
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            if isDot(part) {
                if last { output.append("") }
            } else if isDoubleDot(part) {
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            } else {
                output.append(part)
            }
        }
        return output
    }

    /// `components` without trailing empty components: a trailing slash changes nothing.
    static func trimmed(_ components: [String]) -> [String] {
        var result = components
        while result.last == "" { result.removeLast() }
        return result
    }

    /// Percent-decoded text, or the text itself when it is not valid percent-encoded UTF-8.
    static func decoded(_ component: String) -> String {
        component.removingPercentEncoding ?? component
    }
}
