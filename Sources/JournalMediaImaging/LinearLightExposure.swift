import CVips
import Foundation
import JournalMediaCore

/// Turns a scene-referred, linear-light float image (OpenEXR, Radiance HDR, PFM) into one a
/// display can show: values in 0…1, scRGB, ready for the usual conversion to 8-bit sRGB.
/// Without it a Radiance file in absolute units (values in the hundreds) comes out white, a
/// dim render black, and every highlight above 1.0 is cut flat.
///
/// The step, on the colour bands (alpha passes through untouched):
/// 1. **Exposure.** The key is the log-average luminance, exp(mean(ln(ε + |Y|))), with
///    Y = 0.2126 R + 0.7152 G + 0.0722 B (Rec. 709 / sRGB primaries) and ε = 10⁻⁴. A key inside
///    `keyRange` (mid-grey 0.18 within a stop either way) means the file is already exposed
///    for display and is left alone; a key outside it is scaled to the nearer end of the
///    range, so a file in absolute units or a dark one comes out with its mid-tones in the
///    middle, and the mapping stays continuous.
/// 2. **Highlight roll-off.** Values up to `knee` are kept as they are (mid-grey stays
///    mid-grey); above it, v = 1 − (1 − k)·e^(−(x − k)/(1 − k)): slope 1 at the knee, reaching
///    1.0 only asymptotically, so highlights keep their gradation instead of clipping.
///
/// Runs in the decode of those three formats, before the shrink. Costs one extra pass over
/// the decoded pixels for the key (the loaders have no shrink-on-load, so the file is read
/// twice: once for the key, once for the shrink) and a few per-pixel operations, all lazy.
package enum LinearLightExposure {
    /// Keys (log-average luminance) taken as already exposed for display: 0.18 ÷ 2 … 0.18 × 2.
    package static let keyRange = 0.09...0.36
    /// Where the highlight roll-off starts (linear value).
    package static let knee = 0.6
    /// ε in the log-average, so a black pixel does not make the key 0.
    static let epsilon = 1e-4

    /// The exposure factor for a key: 1 inside `keyRange`, else the factor that moves the
    /// key to the nearer end of it; 1 for a key that is not a positive finite number.
    package static func exposure(forKey key: Double) -> Double {
        guard key.isFinite, key > 0 else { return 1 }
        return min(max(key, keyRange.lowerBound), keyRange.upperBound) / key
    }

    /// The display value of a linear value after exposure (the roll-off of step 2).
    package static func rolledOff(_ value: Double) -> Double {
        value <= knee ? value : 1 - (1 - knee) * exp(-(value - knee) / (1 - knee))
    }

    /// `image` as loaded from a `format` file (rows already upright, `StoredRowOrder`), exposed
    /// and rolled off, tagged scRGB: Radiance's packed RGBE unpacked to floats; a PFM tagged
    /// linear (8.14 tags it sRGB); grey made three bands.
    package static func displayReferred(_ image: VipsImageHandle, format: SourceFormat) throws(VipsError) -> VipsImageHandle {
        var image = image
        if vips_image_get_coding(image.pointer) == VIPS_CODING_RAD {
            image = try call("rad2float", [("in", .image(image))])
        }
        let colourBands = image.bands >= 3 ? 3 : 1
        var colour = try bands(of: image, from: 0, count: colourBands)
        let alpha = image.bands > colourBands && (image.bands == 4 || image.bands == 2)
            ? try bands(of: image, from: colourBands, count: 1) : nil
        if colourBands == 1 {
            // One band becomes three equal ones (libvips' linear with three constants).
            colour = try linear(colour, [1, 1, 1], [0, 0, 0])
        }
        colour = try call("cast", [("in", .image(colour)), ("format", .nick("float"))])
        let exposed = try linear(colour, [exposure(forKey: try key(of: colour))], [0])
        let toned = try rollOff(exposed)
        var result = try call("copy", [("in", .image(toned)), ("interpretation", .nick("scrgb"))])
        if let alpha {
            result = try call("bandjoin", [("in", .images([result, alpha]))])
        }
        return result
    }

    /// The log-average luminance of a three-band float image (one pass over its pixels).
    static func key(of colour: VipsImageHandle) throws(VipsError) -> Double {
        // bandmean of (0.2126 R, 0.7152 G, 0.0722 B) is Y / 3.
        let weighted = try linear(colour, [0.2126, 0.7152, 0.0722], [0, 0, 0])
        let mean = try call("bandmean", [("in", .image(weighted))])
        let magnitude = try call("abs", [("in", .image(mean))])
        let shifted = try linear(magnitude, [3], [epsilon])
        let logarithm = try call("math", [("in", .image(shifted)), ("math", .nick("log"))])
        let average = try VipsOperationCall("avg")
        try average.set("in", .image(logarithm))
        try average.build()
        return exp(try average.outputDouble())
    }

    /// Step 2 on every band: x where x ≤ knee, else 1 − (1 − k)·e^(−(x − k)/(1 − k)).
    static func rollOff(_ image: VipsImageHandle) throws(VipsError) -> VipsImageHandle {
        let above = try call("relational_const", [("in", .image(image)), ("relational", .nick("more")),
                                                  ("c", .doubles([knee]))])
        let scaled = try linear(image, [-1 / (1 - knee)], [knee / (1 - knee)])
        let decay = try call("math", [("in", .image(scaled)), ("math", .nick("exp"))])
        let shoulder = try linear(decay, [-(1 - knee)], [1])
        return try call("ifthenelse", [("cond", .image(above)), ("in1", .image(shoulder)), ("in2", .image(image))])
    }

    private static func bands(of image: VipsImageHandle, from first: Int, count: Int) throws(VipsError) -> VipsImageHandle {
        try call("extract_band", [("in", .image(image)), ("band", .int(first)), ("n", .int(count))])
    }

    private static func linear(_ image: VipsImageHandle, _ a: [Double], _ b: [Double]) throws(VipsError) -> VipsImageHandle {
        try call("linear", [("in", .image(image)), ("a", .doubles(a)), ("b", .doubles(b))])
    }

    /// Builds operation `name` with `arguments` set; its `out` image.
    private static func call(_ name: String, _ arguments: [(String, VipsArgument)]) throws(VipsError) -> VipsImageHandle {
        let operation = try VipsOperationCall(name)
        for (argument, value) in arguments { try operation.set(argument, value) }
        try operation.build()
        return try operation.outputImage()
    }
}
