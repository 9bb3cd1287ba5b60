import JournalMediaCore

/// Judges a poster candidate from its RGB pixels: BT.709 luma mean and standard deviation
/// (0–255) over an evenly strided sample of at most 65,536 pixels.
///
/// A candidate is acceptable when its mean luma is at least `minimumMeanLuma` (24: fade-ins,
/// lens-cap and black leaders measure 0–10, a dim indoor scene 40+) and its deviation at
/// least `minimumDeviation` (8: a flat title card or blank frame measures under 3, any scene
/// with detail 20+). When no candidate is acceptable the one with the highest `score` is kept.
/// Runs once per decoded candidate; costs well under a millisecond.
package struct PosterQuality: Equatable {
    var meanLuma: Double
    var deviation: Double

    static let minimumMeanLuma = 24.0
    static let minimumDeviation = 8.0

    var isAcceptable: Bool { meanLuma >= Self.minimumMeanLuma && deviation >= Self.minimumDeviation }

    /// Brightness up to mid-grey and contrast up to a normal scene's, weighted equally.
    var score: Double { min(meanLuma, 96) / 96 + min(deviation, 40) / 40 }

    package init(meanLuma: Double, deviation: Double) {
        self.meanLuma = meanLuma
        self.deviation = deviation
    }

    package init(rgb: [UInt8], width: Int, height: Int) {
        let pixels = width * height
        guard pixels > 0, rgb.count >= pixels * 3 else {
            self.init(meanLuma: 0, deviation: 0)
            return
        }
        let step = max(1, pixels / 65_536)
        var sum = 0.0, squares = 0.0, count = 0.0
        var index = 0
        while index < pixels {
            let o = index * 3
            let y = 0.2126 * Double(rgb[o]) + 0.7152 * Double(rgb[o + 1]) + 0.0722 * Double(rgb[o + 2])
            sum += y
            squares += y * y
            count += 1
            index += step
        }
        let mean = sum / count
        self.init(meanLuma: mean, deviation: max(0, squares / count - mean * mean).squareRoot())
    }
}
