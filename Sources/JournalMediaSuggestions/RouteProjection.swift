import Foundation
import JournalMediaCore

/// Puts routes and places into a card's unit frame (`CardHero.route`/`.pins`): an
/// equirectangular projection with longitudes scaled by the cosine of the frame's middle
/// latitude (so a kilometre east is as long as a kilometre north), fitted so the larger
/// extent spans 0…1 and the other is centred; then Douglas–Peucker simplification to at
/// most `maxPoints` points in all, so the renderer's work is bounded.
///
/// Runs once per workout card. Linear in the number of points for the projection; a route
/// longer than `presampleLimit` is first thinned evenly, so a million points cost a few
/// tens of milliseconds.
public enum RouteProjection {
    /// Points drawn per card, all routes together.
    public static let maxPoints = 1_000
    /// Points a route is thinned to (evenly, ends kept) before simplification.
    public static let presampleLimit = 50_000

    /// Projects `routes` (latitude, longitude in degrees) together into one unit frame.
    /// Routes crossing the antimeridian are unwrapped. Empty routes stay empty.
    public static func unitFrame(_ routes: [[(latitude: Double, longitude: Double)]]) -> [[CardPoint]] {
        let all = routes.joined()
        guard let first = all.first else { return routes.map { _ in [] } }
        var minLon = first.longitude, maxLon = first.longitude
        for point in all {
            minLon = min(minLon, point.longitude)
            maxLon = max(maxLon, point.longitude)
        }
        let unwrap = maxLon - minLon > 180
        func lon(_ value: Double) -> Double { unwrap && value < 0 ? value + 360 : value }
        var minLat = Double.infinity, maxLat = -Double.infinity
        minLon = .infinity
        maxLon = -.infinity
        for point in all {
            minLat = min(minLat, point.latitude)
            maxLat = max(maxLat, point.latitude)
            minLon = min(minLon, lon(point.longitude))
            maxLon = max(maxLon, lon(point.longitude))
        }
        let scale = cos((minLat + maxLat) / 2 * .pi / 180)
        let width = (maxLon - minLon) * scale, height = maxLat - minLat
        let extent = max(width, height)
        guard extent > 0 else {
            return routes.map { route in route.map { _ in CardPoint(x: 0.5, y: 0.5) } }
        }
        let offsetX = (1 - width / extent) / 2, offsetY = (1 - height / extent) / 2
        return routes.map { route in
            route.map { point in
                CardPoint(x: (lon(point.longitude) - minLon) * scale / extent + offsetX,
                          y: (maxLat - point.latitude) / extent + offsetY)
            }
        }
    }

    /// Projects and simplifies: each route gets a share of `maxPoints` by its length in
    /// points (at least 2).
    public static func drawable(_ routes: [[RoutePoint]], maxPoints: Int = maxPoints) -> [[CardPoint]] {
        let thinned = routes.map { presample($0.map { (latitude: $0.latitude, longitude: $0.longitude) }) }
        let projected = unitFrame(thinned)
        let total = max(1, projected.reduce(0) { $0 + $1.count })
        return projected.map { route in
            let budget = max(2, maxPoints * route.count / total)
            return simplify(route, maxPoints: budget)
        }
    }

    static func presample<T>(_ points: [T]) -> [T] {
        guard points.count > presampleLimit, let last = points.last else { return points }
        let step = Double(points.count - 1) / Double(presampleLimit - 1)
        var result = (0..<(presampleLimit - 1)).map { points[Int(Double($0) * step)] }
        result.append(last)
        return result
    }

    /// Douglas–Peucker with a tolerance that starts below a pixel of a 1200 px card and
    /// doubles until the result has at most `maxPoints` points. Ends are always kept.
    public static func simplify(_ points: [CardPoint], maxPoints: Int) -> [CardPoint] {
        guard points.count > max(2, maxPoints) else { return points }
        var tolerance = 0.0004
        while true {
            let kept = douglasPeucker(points, tolerance: tolerance)
            if kept.count <= max(2, maxPoints) { return kept }
            tolerance *= 2
        }
    }

    /// One Douglas–Peucker pass (iterative, so a long route cannot overflow the stack).
    static func douglasPeucker(_ points: [CardPoint], tolerance: Double) -> [CardPoint] {
        guard points.count > 2 else { return points }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first], b = points[last]
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            var worst = -1.0, worstIndex = first
            for index in (first + 1)..<last {
                let p = points[index]
                let distance = length > 0
                    ? abs(dy * (p.x - a.x) - dx * (p.y - a.y)) / length
                    : ((p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)).squareRoot()
                if distance > worst {
                    worst = distance
                    worstIndex = index
                }
            }
            if worst > tolerance {
                keep[worstIndex] = true
                stack.append((first, worstIndex))
                stack.append((worstIndex, last))
            }
        }
        return points.indices.compactMap { keep[$0] ? points[$0] : nil }
    }
}
