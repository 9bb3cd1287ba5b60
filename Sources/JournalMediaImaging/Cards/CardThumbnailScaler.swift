import CVips
import JournalMediaCore

/// Scales a finished card down for its thumbnail by area averaging: each thumbnail pixel is
/// the mean of the card pixels it covers (fractional at the edges), the exact size asked for.
///
/// A card is flat colour, text and a few pictures, drawn at 1200×1500 and shown at about a
/// third of that; averaging the covered area is the textbook filter for such a reduction
/// (no ringing around text, no lost hairlines), and done here in two separable passes over
/// the card's memory it costs a fraction of libvips' lanczos3 resize.
/// Runs on the card's thread right after it is drawn; costs one pass over the
/// card's pixels and holds one row of sums besides the thumbnail.
package enum CardThumbnailScaler {
    package static func scaled(_ card: DecodedImage, width: Int, height: Int,
                               stop: DecodeGuard? = nil) throws(VipsError) -> DecodedImage {
        let image = card.image
        guard width < image.width || height < image.height, width > 0, height > 0 else { return card }
        guard image.format == VIPS_FORMAT_UCHAR, image.bands == 3 else {
            throw VipsError(message: "a card thumbnail needs 8-bit RGB pixels")
        }
        let memory = try image.materialised(stop: stop)
        guard let data = vips_image_get_data(memory.pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("reading the card's pixels"))
        }
        let rgb = withExtendedLifetime(memory) {
            averaged(data.assumingMemoryBound(to: UInt8.self), width: image.width, height: image.height,
                     toWidth: min(width, image.width), toHeight: min(height, image.height))
        }
        return DecodedImage(image: try VipsImageHandle.copyingPackedRGB(rgb, width: min(width, image.width),
                                                                       height: min(height, image.height)),
                            hasRealTransparency: false)
    }

    /// For each target index along one axis: the first source index it covers and the
    /// weights (out of 4096, summing to exactly 4096) of `taps` source indices from there.
    struct Axis {
        let taps: Int
        var starts: [Int]
        var weights: [Int32]

        /// The whole source onto the target by area averaging (a reduction).
        init(source: Int, target: Int) {
            self.init(source: source, target: target, span: Double(source) / Double(target), offset: 0)
        }

        /// Target index i shows the source from `offset + i × span` to `offset + (i + 1) ×
        /// span`: the mean of the pixels that stretch covers when it is a pixel or more (a
        /// reduction), else the linear interpolation between the two pixels nearest its
        /// centre (an enlargement), the edge pixels held beyond the edges.
        init(source: Int, target: Int, span: Double, offset: Double) {
            let enlarging = span < 1
            // A span of `span` pixels touches at most ⌈span⌉ + 1 of them; never more than exist.
            taps = min(source, enlarging ? 2 : Int(span.rounded(.up)) + 1)
            starts = []
            weights = []
            starts.reserveCapacity(target)
            weights.reserveCapacity(target * taps)
            for index in 0..<target {
                let from = offset + Double(index) * span, to = from + span
                var row = [Int32](repeating: 0, count: taps)
                let start: Int
                if enlarging {
                    let centre = (from + to) / 2 - 0.5
                    let left = Int(centre.rounded(.down)), fraction = centre - Double(left)
                    start = max(0, min(source - taps, left))
                    for (pixel, weight) in [(left, 1 - fraction), (left + 1, fraction)] {
                        row[max(0, min(source - 1, pixel)) - start] += Int32((weight * 4096).rounded())
                    }
                } else {
                    start = max(0, min(source - taps, Int(from.rounded(.down))))
                    for tap in 0..<taps {
                        let pixel = Double(start + tap)
                        let overlap = max(0, min(to, pixel + 1) - max(from, pixel))
                        row[tap] = Int32((overlap / span * 4096).rounded())
                    }
                }
                // Rounding leftovers go to the largest weight, so flat colour stays exact.
                let largest = row.indices.max { row[$0] < row[$1] } ?? 0
                row[largest] += 4096 - row.reduce(0, +)
                starts.append(start)
                weights += row
            }
        }
    }

    /// Vertical pass into one row of sums per thumbnail row, then the horizontal pass.
    static func averaged(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, toWidth: Int,
                         toHeight: Int) -> [UInt8] {
        resampled(pixels, width: width, height: height, horizontal: Axis(source: width, target: toWidth),
                  vertical: Axis(source: height, target: toHeight))
    }

    /// Packed RGB of `horizontal`'s × `vertical`'s target size from `width`×`height` packed RGB.
    static func resampled(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, horizontal: Axis,
                          vertical: Axis) -> [UInt8] {
        let toWidth = horizontal.starts.count, toHeight = vertical.starts.count
        let rowBytes = width * 3
        var out = [UInt8](repeating: 0, count: toWidth * toHeight * 3)
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
        defer { sums.deallocate() }
        horizontal.weights.withUnsafeBufferPointer { hWeights in
            horizontal.starts.withUnsafeBufferPointer { hStarts in
                out.withUnsafeMutableBufferPointer { out in
                    let hTaps = horizontal.taps
                    for y in 0..<toHeight {
                        sums.update(repeating: 0, count: rowBytes)
                        for tap in 0..<vertical.taps {
                            let weight = vertical.weights[y * vertical.taps + tap]
                            guard weight != 0 else { continue }
                            let row = pixels + (vertical.starts[y] + tap) * rowBytes
                            for i in 0..<rowBytes { sums[i] &+= weight &* Int32(truncatingIfNeeded: row[i]) }
                        }
                        let target = y * toWidth * 3
                        for x in 0..<toWidth {
                            var r: Int64 = 0, g: Int64 = 0, b: Int64 = 0
                            let first = hStarts[x] * 3, weights = x * hTaps
                            for tap in 0..<hTaps {
                                let weight = Int64(hWeights[weights + tap])
                                let i = first + tap * 3
                                r &+= weight &* Int64(sums[i])
                                g &+= weight &* Int64(sums[i + 1])
                                b &+= weight &* Int64(sums[i + 2])
                            }
                            // Weights are 4096ths on both axes: divide by 2^24, rounding.
                            out[target + x * 3] = UInt8(clamping: (r + (1 << 23)) >> 24)
                            out[target + x * 3 + 1] = UInt8(clamping: (g + (1 << 23)) >> 24)
                            out[target + x * 3 + 2] = UInt8(clamping: (b + (1 << 23)) >> 24)
                        }
                    }
                }
            }
        }
        return out
    }
}
