/// Xiaolin Wu's colour quantiser (Graphics Gems II, 1991), run in OKLab: pixels are
/// binned into a 32×32×32 grid, cumulative moments make any box's count, sum and sum of
/// squares an O(1) lookup, and the box with the largest variance is split, at the cut that
/// maximises the between-part variance, until `maxColors` boxes exist.
///
/// Runs once per asset on the ~100 px analysis image; costs one pass over the pixels plus
/// a fixed ~36 k-cell moment table (well under a millisecond).
package struct WuQuantizer {
    struct Cluster {
        var color: OKLab
        var weight: Double
    }

    private static let side = 33                     // 32 bins + the zero row for cumulative sums
    private static let lRange = (0.0, 1.0)
    private static let abRange = (-0.35, 0.35)

    private var weight: [Double]
    private var momentL: [Double]
    private var momentA: [Double]
    private var momentB: [Double]
    private var moment2: [Double]

    private static func index(_ l: Int, _ a: Int, _ b: Int) -> Int { (l * side + a) * side + b }

    private static func bin(_ value: Double, _ range: (Double, Double)) -> Int {
        let t = (value - range.0) / (range.1 - range.0)
        return min(32, max(1, Int(t * 32) + 1))
    }

    /// Builds the moment table from weighted colours (weight = pixel opacity).
    package init(colors: [(OKLab, Double)]) {
        let count = Self.side * Self.side * Self.side
        weight = [Double](repeating: 0, count: count)
        momentL = weight; momentA = weight; momentB = weight; moment2 = weight
        for (c, w) in colors where w > 0 {
            let i = Self.index(Self.bin(c.l, Self.lRange), Self.bin(c.a, Self.abRange), Self.bin(c.b, Self.abRange))
            weight[i] += w
            momentL[i] += w * c.l
            momentA[i] += w * c.a
            momentB[i] += w * c.b
            moment2[i] += w * (c.l * c.l + c.a * c.a + c.b * c.b)
        }
        accumulate()
    }

    /// Turns per-cell sums into cumulative sums over [1…l]×[1…a]×[1…b], the five tables in
    /// one pass: each table's additions are the same, in the same order, as one table at a
    /// time, but the five running sums along `b` (a dependent chain per table) overlap.
    private mutating func accumulate() {
        let s = Self.side
        weight.withUnsafeMutableBufferPointer { w in
            momentL.withUnsafeMutableBufferPointer { ml in
                momentA.withUnsafeMutableBufferPointer { ma in
                    momentB.withUnsafeMutableBufferPointer { mb in
                        moment2.withUnsafeMutableBufferPointer { m2 in
                            @inline(__always) func add(_ to: Int, _ from: Int) {
                                w[to] += w[from]; ml[to] += ml[from]; ma[to] += ma[from]
                                mb[to] += mb[from]; m2[to] += m2[from]
                            }
                            for l in 1..<s {
                                for a in 1..<s {
                                    for b in 1..<s { add(Self.index(l, a, b), Self.index(l, a, b - 1)) }
                                }
                                for a in 1..<s {
                                    for b in 1..<s { add(Self.index(l, a, b), Self.index(l, a - 1, b)) }
                                }
                                for a in 1..<s {
                                    for b in 1..<s { add(Self.index(l, a, b), Self.index(l - 1, a, b)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// A box of grid cells, lower bounds exclusive, upper inclusive.
    private struct Box {
        var l0 = 0, l1 = 32, a0 = 0, a1 = 32, b0 = 0, b1 = 32
    }

    private func sum(_ table: [Double], _ box: Box) -> Double {
        table[Self.index(box.l1, box.a1, box.b1)] - table[Self.index(box.l1, box.a1, box.b0)]
            - table[Self.index(box.l1, box.a0, box.b1)] + table[Self.index(box.l1, box.a0, box.b0)]
            - table[Self.index(box.l0, box.a1, box.b1)] + table[Self.index(box.l0, box.a1, box.b0)]
            + table[Self.index(box.l0, box.a0, box.b1)] - table[Self.index(box.l0, box.a0, box.b0)]
    }

    private func variance(_ box: Box) -> Double {
        let w = sum(weight, box)
        guard w > 0 else { return 0 }
        let l = sum(momentL, box), a = sum(momentA, box), b = sum(momentB, box)
        return sum(moment2, box) - (l * l + a * a + b * b) / w
    }

    /// The best cut of `box` along one axis: position and the between-part score.
    private func bestCut(_ box: Box, axis: Int) -> (position: Int, score: Double)? {
        let whole = (w: sum(weight, box), l: sum(momentL, box), a: sum(momentA, box), b: sum(momentB, box))
        let (low, high): (Int, Int) = axis == 0 ? (box.l0, box.l1) : axis == 1 ? (box.a0, box.a1) : (box.b0, box.b1)
        var best: (Int, Double)?
        for cut in (low + 1)..<high {
            var lower = box
            switch axis {
            case 0: lower.l1 = cut
            case 1: lower.a1 = cut
            default: lower.b1 = cut
            }
            let w = sum(weight, lower)
            let rest = whole.w - w
            guard w > 0, rest > 0 else { continue }
            let l = sum(momentL, lower), a = sum(momentA, lower), b = sum(momentB, lower)
            let rl = whole.l - l, ra = whole.a - a, rb = whole.b - b
            let score = (l * l + a * a + b * b) / w + (rl * rl + ra * ra + rb * rb) / rest
            if best.map({ score > $0.1 }) ?? true { best = (cut, score) }
        }
        return best
    }

    private func split(_ box: Box) -> (Box, Box)? {
        var choice: (axis: Int, position: Int, score: Double)?
        for axis in 0..<3 {
            if let cut = bestCut(box, axis: axis), choice.map({ cut.score > $0.score }) ?? true {
                choice = (axis, cut.position, cut.score)
            }
        }
        guard let choice else { return nil }
        var first = box, second = box
        switch choice.axis {
        case 0: first.l1 = choice.position; second.l0 = choice.position
        case 1: first.a1 = choice.position; second.a0 = choice.position
        default: first.b1 = choice.position; second.b0 = choice.position
        }
        return (first, second)
    }

    /// Up to `maxColors` clusters, each the weighted mean of its box, heaviest first.
    func clusters(maxColors: Int) -> [Cluster] {
        var boxes = [Box()]
        var variances = [variance(boxes[0])]
        while boxes.count < maxColors {
            guard let worst = variances.indices.max(by: { variances[$0] < variances[$1] }),
                  variances[worst] > 1e-9, let (first, second) = split(boxes[worst])
            else { break }
            boxes[worst] = first
            variances[worst] = variance(first)
            boxes.append(second)
            variances.append(variance(second))
        }
        return boxes.compactMap { box -> Cluster? in
            let w = sum(weight, box)
            guard w > 0 else { return nil }
            return Cluster(color: OKLab(l: sum(momentL, box) / w, a: sum(momentA, box) / w, b: sum(momentB, box) / w),
                           weight: w)
        }.sorted { $0.weight > $1.weight }
    }
}
