import Foundation

/// A state of mind drawn as a flower-like form straight into the card's pixels: petals
/// (ellipses) around a centre, each filled at 72 % with the mood's colours from its tip to
/// its base and outlined in the accent colour at 55 %, then a solid centre disc filled top
/// to bottom and outlined. The more pleasant the mood, the more and the wider the petals.
///
/// Painted here rather than rasterised as an SVG (librsvg costs many times more per form):
/// each petal costs its own pixels (per row the span the ellipse covers, found by solving
/// its quadratic; an ellipse test per pixel, a square root only near its edge), a few
/// milliseconds for a portrait. Edges are antialiased from the
/// distance to the ellipse (its implicit function over its gradient).
struct CardMoodForm {
    /// The colour stops, evenly spaced (at least two).
    let stops: [[UInt8]]
    let accent: [UInt8]
    let valence: Double

    /// Petals: 6 for the most unpleasant mood, 12 for the most pleasant.
    var petals: Int { 6 + Int(((valence + 1) / 2 * 6).rounded()) }

    func paint(into canvas: CardCanvas, x: Int, y: Int, side: Int) {
        let c = Double(side) / 2, r = c * 0.96
        let petalWidth = r * (0.22 + 0.10 * (valence + 1) / 2), petalLength = r * 0.5
        let stroke = Double(max(2, side / 160))
        let ox = Double(x) + c, oy = Double(y) + c
        let ramp = Self.ramp(stops.count >= 2 ? stops : [accent, accent])
        for index in 0..<petals {
            let angle = Double(index) * 2 * Double.pi / Double(petals)
            // The petal's axis points from the centre outwards at `angle` clockwise from up.
            let ellipse = Ellipse(centerX: ox + sin(angle) * petalLength, centerY: oy - cos(angle) * petalLength,
                                  across: petalWidth, along: petalLength, angle: angle)
            paint(ellipse, in: canvas, ramp: ramp, fillAlpha: 0.72, stroke: stroke, strokeAlpha: 0.55)
        }
        let disc = Ellipse(centerX: ox, centerY: oy, across: r * 0.3, along: r * 0.3, angle: 0)
        paint(disc, in: canvas, ramp: ramp, fillAlpha: 1, stroke: stroke * 1.5, strokeAlpha: 1)
    }

    /// An ellipse: its centre, half-axes across and along its axis, the axis turned `angle`
    /// radians clockwise from pointing up.
    struct Ellipse {
        var centerX: Double, centerY: Double
        var across: Double, along: Double
        var angle: Double
    }

    /// The gradient sampled at 257 points from the first stop (0) to the last (256).
    static func ramp(_ stops: [[UInt8]]) -> [(Double, Double, Double)] {
        (0...256).map { index in
            let position = Double(index) / 256 * Double(stops.count - 1)
            let lower = min(stops.count - 2, Int(position))
            let f = position - Double(lower)
            let a = stops[lower], b = stops[lower + 1]
            return (Double(a[0]) + (Double(b[0]) - Double(a[0])) * f,
                    Double(a[1]) + (Double(b[1]) - Double(a[1])) * f,
                    Double(a[2]) + (Double(b[2]) - Double(a[2])) * f)
        }
    }

    /// Fills the ellipse (the gradient from its far end along the axis, the first stop, to
    /// its near end, at `fillAlpha`) and strokes its outline (`stroke` pixels wide, centred on
    /// the edge, in the accent colour at `strokeAlpha`), pixel by pixel over its bounding box.
    private func paint(_ e: Ellipse, in canvas: CardCanvas, ramp: [(Double, Double, Double)], fillAlpha: Double,
                       stroke: Double, strokeAlpha: Double) {
        let cosA = cos(e.angle), sinA = sin(e.angle)
        // Axis-aligned half-extents of the turned ellipse, plus the outer half of the stroke.
        let reach = stroke / 2 + 1.5
        let halfX = (e.across * e.across * cosA * cosA + e.along * e.along * sinA * sinA).squareRoot() + reach
        let halfY = (e.across * e.across * sinA * sinA + e.along * e.along * cosA * cosA).squareRoot() + reach
        let left = max(0, Int((e.centerX - halfX).rounded(.down))), right = min(canvas.width, Int((e.centerX + halfX).rounded(.up)))
        let top = max(0, Int((e.centerY - halfY).rounded(.down))), bottom = min(canvas.height, Int((e.centerY + halfY).rounded(.up)))
        guard right > left, bottom > top else { return }
        let a2 = e.across * e.across, b2 = e.along * e.along
        // Beyond this value of the implicit function no pixel is within `reach` of the edge;
        // below `inner` every pixel is more than `reach` inside.
        let minor = min(e.across, e.along)
        let outer = (1 + reach / minor) * (1 + reach / minor) - 1
        let inner = minor > reach ? (1 - reach / minor) * (1 - reach / minor) - 1 : -2
        let halfStroke = stroke / 2
        let accentR = Double(accent[0]), accentG = Double(accent[1]), accentB = Double(accent[2])
        // Per row, f ≤ outer is a quadratic in dx (A·dx² + B·dx + C ≤ 0): only its span, a
        // pixel wider each side, is visited, not the whole bounding box.
        let quadratic = cosA * cosA / a2 + sinA * sinA / b2
        canvas.withPixels { base, rowBytes in
            for py in top..<bottom {
                let dy = Double(py) + 0.5 - e.centerY
                let row = base + py * rowBytes
                let linear = 2 * dy * cosA * sinA * (1 / a2 - 1 / b2)
                let constant = dy * dy * (sinA * sinA / a2 + cosA * cosA / b2) - 1 - outer
                let discriminant = linear * linear - 4 * quadratic * constant
                guard discriminant >= 0 else { continue }
                let root = discriminant.squareRoot()
                let from = (-linear - root) / (2 * quadratic) + e.centerX - 0.5
                let to = (-linear + root) / (2 * quadratic) + e.centerX - 0.5
                let first = max(left, Int(from.rounded(.down)) - 1), last = min(right, Int(to.rounded(.up)) + 2)
                guard last > first else { continue }
                for px in first..<last {
                    let dx = Double(px) + 0.5 - e.centerX
                    // In the ellipse's own frame: u across, v along its axis (v > 0 towards the far end).
                    let u = dx * cosA + dy * sinA
                    let v = dx * sinA - dy * cosA
                    let f = u * u / a2 + v * v / b2 - 1
                    if f > outer { continue }
                    var fill = 1.0, line = 0.0
                    if f >= inner {
                        let gu = u / a2, gv = v / b2
                        let gradientLength = 2 * (gu * gu + gv * gv).squareRoot()
                        let distance = gradientLength > 0 ? f / gradientLength : -minor
                        fill = min(1, max(0, 0.5 - distance))
                        line = min(1, max(0, halfStroke + 0.5 - abs(distance)))
                    }
                    let pixel = row + px * 3
                    if fill > 0 {
                        let t = min(256, max(0, Int(((1 - v / e.along) * 128).rounded())))
                        let (r, g, b) = ramp[t]
                        Self.blend(pixel, r, g, b, alpha: fill * fillAlpha)
                    }
                    if line > 0 { Self.blend(pixel, accentR, accentG, accentB, alpha: line * strokeAlpha) }
                }
            }
        }
    }

    @inline(__always)
    private static func blend(_ pixel: UnsafeMutablePointer<UInt8>, _ r: Double, _ g: Double, _ b: Double, alpha: Double) {
        let keep = 1 - alpha
        pixel[0] = UInt8(min(255, max(0, r * alpha + Double(pixel[0]) * keep + 0.5)))
        pixel[1] = UInt8(min(255, max(0, g * alpha + Double(pixel[1]) * keep + 0.5)))
        pixel[2] = UInt8(min(255, max(0, b * alpha + Double(pixel[2]) * keep + 0.5)))
    }
}
