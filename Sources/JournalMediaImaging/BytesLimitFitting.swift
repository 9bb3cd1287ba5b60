import JournalMediaCore

/// Brings an encoded image under a byte limit: first the quality is lowered in steps (for
/// JPEG and WebP: the spec's quality, then 75, 65, 55, 45 and 35, those below it), then the
/// image is made 0.75× smaller each way (lanczos3, from the original, at the lowest quality
/// tried) until the file fits. PNG has no quality, so it goes straight to shrinking.
///
/// Runs only for specs with a limit (`RenditionSpec.byteLimit`). Costs one encode when the
/// first one fits; each further step one encode (and one resize once shrinking starts). The
/// size shrinks geometrically, so even a limit a hundred times too small takes about 20
/// steps. Gives up (throws) only when a 16-pixel side would still be over the limit.
package enum BytesLimitFitting {
    /// The qualities tried in turn after the spec's own.
    static let qualitySteps = [75, 65, 55, 45, 35]
    /// The factor each side is multiplied by per shrinking step.
    static let shrinkFactor = 0.75
    /// Smallest side shrinking may reach.
    static let smallestSide = 16

    package struct Fitted {
        package let image: VipsImageHandle
        package let data: [UInt8]
        /// The quality of the encode that fits.
        package let quality: Int
    }

    package static func fit(_ image: VipsImageHandle, limit: Int, format: RenditionFormat, quality: Int,
                            encode: (VipsImageHandle, Int) throws(VipsError) -> [UInt8]) throws(VipsError) -> Fitted {
        let qualities = format == .png ? [quality] : [quality] + qualitySteps.filter { $0 < quality }
        for step in qualities {
            let data = try encode(image, step)
            if data.count <= limit { return Fitted(image: image, data: data, quality: step) }
        }
        let lowest = qualities.last ?? quality
        var scale = 1.0
        while true {
            scale *= shrinkFactor
            let width = Int((Double(image.width) * scale).rounded()), height = Int((Double(image.height) * scale).rounded())
            guard min(width, height) >= smallestSide else {
                throw VipsError(message: "cannot make the image fit in \(limit) bytes (still over at \(smallestSide) px)")
            }
            let resize = try VipsOperationCall("resize")
            try resize.set("in", .image(image))
            try resize.set("scale", .double(Double(width) / Double(image.width)))
            try resize.set("vscale", .double(Double(height) / Double(image.height)))
            try resize.set("kernel", .nick("lanczos3"))
            try resize.build()
            let smaller = try resize.outputImage()
            let data = try encode(smaller, lowest)
            if data.count <= limit { return Fitted(image: smaller, data: data, quality: lowest) }
        }
    }
}
