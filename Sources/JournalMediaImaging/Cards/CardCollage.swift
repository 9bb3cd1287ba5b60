import CVips
import Foundation
import JournalMediaCore

/// Composes up to four items (a suggestion's photos and cards) into one cover of a given
/// size: the layout is chosen among a few (one picture; two side by side or stacked; one
/// large beside or above two; a two-by-two grid or one large beside three) as the one that
/// crops the pictures least for their aspect ratios, the item whose shape suits the large
/// cell best going there. An item may offer several pictures (a card in its tile, portrait
/// and landscape layouts): the one closest to its cell's shape is used, so a card's text is
/// not cut off. Cells are filled (centre crop) and separated by a gap of the background.
///
/// Runs once per size class after a bundle's items are done. Costs one resize per picture
/// to its cell and one canvas fill.
public enum CardCollage {
    /// A cell of the layout in unit coordinates (0…1 both ways).
    struct Cell: Equatable {
        var x: Double, y: Double, width: Double, height: Double
    }

    /// The candidate layouts for `count` pictures, each a list of cells in reading order.
    static func layouts(count: Int) -> [[Cell]] {
        switch count {
        case 1: return [[Cell(x: 0, y: 0, width: 1, height: 1)]]
        case 2: return [[Cell(x: 0, y: 0, width: 0.5, height: 1), Cell(x: 0.5, y: 0, width: 0.5, height: 1)],
                        [Cell(x: 0, y: 0, width: 1, height: 0.5), Cell(x: 0, y: 0.5, width: 1, height: 0.5)]]
        case 3: return [[Cell(x: 0, y: 0, width: 0.6, height: 1), Cell(x: 0.6, y: 0, width: 0.4, height: 0.5),
                         Cell(x: 0.6, y: 0.5, width: 0.4, height: 0.5)],
                        [Cell(x: 0, y: 0, width: 1, height: 0.6), Cell(x: 0, y: 0.6, width: 0.5, height: 0.4),
                         Cell(x: 0.5, y: 0.6, width: 0.5, height: 0.4)]]
        default: return [[Cell(x: 0, y: 0, width: 0.5, height: 0.5), Cell(x: 0.5, y: 0, width: 0.5, height: 0.5),
                          Cell(x: 0, y: 0.5, width: 0.5, height: 0.5), Cell(x: 0.5, y: 0.5, width: 0.5, height: 0.5)],
                         [Cell(x: 0, y: 0, width: 0.62, height: 1), Cell(x: 0.62, y: 0, width: 0.38, height: 1.0 / 3),
                          Cell(x: 0.62, y: 1.0 / 3, width: 0.38, height: 1.0 / 3),
                          Cell(x: 0.62, y: 2.0 / 3, width: 0.38, height: 1.0 / 3)]]
        }
    }

    /// How much a picture of `aspect` is cropped to fill a cell of `cellAspect`.
    static func cost(_ cellAspect: Double, _ aspect: Double) -> Double { abs(log(cellAspect / max(1e-3, aspect))) }

    /// The layout (and which item goes in which cell) that crops least: the sum over the
    /// cells of |log(cell aspect / picture aspect)| for each item's best picture, trying
    /// every order of the items.
    static func plan(aspects: [[Double]], width: Int, height: Int) -> (cells: [Cell], order: [Int]) {
        let count = min(4, aspects.count)
        var best: (cost: Double, cells: [Cell], order: [Int]) = (.infinity, [], [])
        for cells in layouts(count: count) {
            for order in permutations(Array(0..<count)) {
                var cost = 0.0
                for (cell, index) in zip(cells, order) {
                    let cellAspect = cell.width * Double(width) / max(1e-9, cell.height * Double(height))
                    cost += aspects[index].map { Self.cost(cellAspect, $0) }.min() ?? 0
                }
                if cost < best.cost - 1e-9 { best = (cost, cells, order) }
            }
        }
        return (best.cells, best.order)
    }

    static func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        var out: [[Int]] = []
        for (index, item) in items.enumerated() {
            var rest = items
            rest.remove(at: index)
            for tail in permutations(rest) { out.append([item] + tail) }
        }
        return out
    }

    /// The collage of `items` (the first four; each one or more pictures of it) at
    /// `width`×`height` on `background` (`#RRGGBB`), cells `gap` pixels apart. Returns the
    /// image and, in reading order, the index of the item each cell shows with the cell's box.
    public static func compose(_ items: [[DecodedImage]], width: Int, height: Int, background: String,
                               gap: Int, stop: DecodeGuard? = nil) throws(CardRenderError) -> (image: DecodedImage, cells: [(index: Int, box: CardRect)]) {
        let shown = Array(items.filter { !$0.isEmpty }.prefix(4))
        guard !shown.isEmpty else { throw .invalidSpec("a collage needs at least one picture") }
        guard (16...CardRenderer.maxSide).contains(width), (16...CardRenderer.maxSide).contains(height) else {
            throw .invalidSpec("collage \(width)×\(height) is outside 16…\(CardRenderer.maxSide) pixels a side")
        }
        do throws(VipsError) { try VipsRuntime.ensure() } catch {
            throw .drawing(stage: "start", message: error.message)
        }
        let canvas = try CardCanvas(width: width, height: height, background: .solid(background), stop: stop)
        func aspect(_ picture: DecodedImage) -> Double { Double(max(1, picture.image.width)) / Double(max(1, picture.image.height)) }
        let aspects = shown.map { $0.map(aspect) }
        let plan = plan(aspects: aspects, width: width, height: height)
        var placed: [(Int, CardRect)] = []
        for (cell, index) in zip(plan.cells, plan.order) {
            // Cell edges on whole pixels; the gap only between cells.
            let left = Int((cell.x * Double(width)).rounded()), top = Int((cell.y * Double(height)).rounded())
            let right = Int(((cell.x + cell.width) * Double(width)).rounded())
            let bottom = Int(((cell.y + cell.height) * Double(height)).rounded())
            let x = left + (left > 0 ? gap / 2 : 0), y = top + (top > 0 ? gap / 2 : 0)
            let w = right - x - (right < width ? gap - gap / 2 : 0), h = bottom - y - (bottom < height ? gap - gap / 2 : 0)
            guard w > 0, h > 0 else { continue }
            let cellAspect = Double(w) / Double(h)
            guard let picture = shown[index].min(by: { cost(cellAspect, aspect($0)) < cost(cellAspect, aspect($1)) })
            else { continue }
            do throws(VipsError) {
                let thumbnail = try VipsOperationCall("thumbnail_image")
                try thumbnail.set("in", .image(try CardHeroPainter.srgb(picture.image)))
                try thumbnail.set("width", .int(w))
                try thumbnail.set("height", .int(h))
                try thumbnail.set("size", .nick("both"))
                try thumbnail.set("crop", .nick("centre"))
                try thumbnail.build()
                try canvas.place(try thumbnail.outputImage(), x: x, y: y)
            } catch {
                throw .drawing(stage: "collage", message: error.message)
            }
            placed.append((index, CardRect(x: x, y: y, width: w, height: h)))
        }
        return (DecodedImage(image: canvas.finished(), hasRealTransparency: false), placed)
    }
}
