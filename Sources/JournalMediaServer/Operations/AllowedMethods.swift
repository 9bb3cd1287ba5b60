import Hummingbird

/// Which methods the server answers on a path, from the router's own route list: what a
/// `405 Method Not Allowed` names in `Allow` when a path exists but not for the request's
/// method (Hummingbird's router answers 404 then). Built once after the routes are added;
/// a look-up costs a walk over the routes' components (a dozen routes).
struct AllowedMethods: Sendable {
    private let routes: [(components: [RouterPath.Element], method: HTTPRequest.Method)]

    init(_ routes: [Router<BasicRequestContext>.RouteDescription]) {
        self.routes = routes.map { ($0.path.components, $0.method) }
    }

    /// The methods some route answers on `path`, sorted; empty when no route matches the path.
    func methods(for path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        var methods = Set<String>()
        for route in routes where Self.matches(route.components, parts) {
            methods.insert(route.method.rawValue)
        }
        return methods.sorted()
    }

    /// Whether the route's components match the path's: element by element, a trailing `**`
    /// taking the rest.
    static func matches(_ components: [RouterPath.Element], _ parts: [Substring]) -> Bool {
        var index = 0
        for component in components {
            if component.description == "**" { return index < parts.count }
            guard index < parts.count, component ~= parts[index] else { return false }
            index += 1
        }
        return index == parts.count
    }
}
