import Foundation

/// Colours of an image for the manifest's `colors`: the linear-light average, up to five
/// dominant colours (Wu quantiser in OKLab, ranked favouring colourful and frequent hues
/// over greys, the idea behind Material's scorer), and light/dark card colours from the
/// top-ranked hue.
///
/// Runs once per visual asset on the analysis image already in memory (≤ 100 px, no
/// second decode); costs a histogram pass and the quantiser's fixed-size moment tables
/// (measured by `make bench`'s color-bench).
public enum ImageColorAnalyzer {
    /// OKLab chroma from which a colour counts as colourful rather than grey.
    static let colourfulChroma = 0.04
    /// Clusters the quantiser makes before near-duplicates are merged and the top 5 kept.
    static let clusterCount = 8
    /// Clusters closer than this in OKLab are merged.
    static let mergeDistance = 0.05

    private static let linearTable: [Double] = (0..<256).map { Contrast.linear(Double($0) / 255) }

    /// Analyses RGBA pixels (row-major, 8 bits per channel).
    public static func analyze(width: Int, height: Int, rgba: [UInt8]) -> ColorInfo {
        let n = min(width * height, rgba.count / 4)
        var samples: [(OKLab, Double)] = []
        samples.reserveCapacity(n)
        var sumR = 0.0, sumG = 0.0, sumB = 0.0, sumA = 0.0
        for i in 0..<n {
            let alpha = Double(rgba[i * 4 + 3]) / 255
            guard alpha > 0 else { continue }
            let r = linearTable[Int(rgba[i * 4])], g = linearTable[Int(rgba[i * 4 + 1])], b = linearTable[Int(rgba[i * 4 + 2])]
            sumR += r * alpha; sumG += g * alpha; sumB += b * alpha; sumA += alpha
            samples.append((OKLab(linearRed: r, green: g, blue: b), alpha))
        }
        let average = sumA > 0
            ? RGBColor(red: Contrast.encoded(sumR / sumA), green: Contrast.encoded(sumG / sumA), blue: Contrast.encoded(sumB / sumA))
            : RGBColor.white

        let ranked = rank(WuQuantizer(colors: samples).clusters(maxColors: clusterCount), total: sumA)
        let dominant = ranked.prefix(5).map {
            DominantColor(color: $0.color.rgb.hex, share: ($0.share * 1000).rounded() / 1000)
        }
        let seed = ranked.first?.color ?? OKLab(average)
        return ColorInfo(average: average.hex, dominant: Array(dominant), card: cardColors(seed: seed))
    }

    struct RankedColor {
        var color: OKLab
        var share: Double
        var score: Double
    }

    /// Merges near-identical clusters, drops those under 1 % of the pixels, and orders the
    /// rest: colourful before grey, then by share plus a chroma bonus.
    static func rank(_ clusters: [WuQuantizer.Cluster], total: Double) -> [RankedColor] {
        guard total > 0 else { return [] }
        var merged: [WuQuantizer.Cluster] = []
        for cluster in clusters {   // heaviest first
            if let i = merged.firstIndex(where: { $0.color.distanceSquared(to: cluster.color) < mergeDistance * mergeDistance }) {
                merged[i].weight += cluster.weight
            } else {
                merged.append(cluster)
            }
        }
        return merged.compactMap { cluster -> RankedColor? in
            let share = cluster.weight / total
            guard share >= 0.01 else { return nil }
            let chroma = cluster.color.chroma
            // Share counts most; chroma adds up to ~+0.1 (vivid) or subtracts a little (dull).
            var score = share * 0.7 + (chroma - 0.15) * (chroma < 0.15 ? 0.1 : 0.3)
            if chroma >= colourfulChroma { score += 1 }
            return RankedColor(color: cluster.color, share: share, score: score)
        }.sorted { $0.score > $1.score }
    }

    /// Card backgrounds in the seed's hue: a pale tint for light mode, a deep shade for dark
    /// mode, chroma capped so text stays comfortable; each foreground by `ForegroundChooser`.
    public static func cardColors(seed: OKLab) -> CardColors {
        let light = OKLab.fromLCh(l: 0.94, chroma: min(seed.chroma, 0.05), hue: seed.hue).rgb
        let dark = OKLab.fromLCh(l: 0.30, chroma: min(seed.chroma, 0.08), hue: seed.hue).rgb
        return CardColors(
            light: CardColor(background: light.hex, foreground: ForegroundChooser.choose(for: light).foreground),
            dark: CardColor(background: dark.hex, foreground: ForegroundChooser.choose(for: dark).foreground))
    }
}
