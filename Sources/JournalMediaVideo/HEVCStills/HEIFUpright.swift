import JournalMediaCore

/// The rotations and mirrors of a HEIF/AVIF image (`irot`, `imir`), applied to packed RGB
/// that was already scaled: which size to scale the coded pixels to so the upright result
/// fits the box, and the turns and flips afterwards. Shared by the HEVC and AV1 still paths.
///
/// Runs once per in-process HEIC/AVIF decode; costs one pass over the scaled pixels per
/// rotation or mirror (none for most files).
enum HEIFUpright {
    /// The size to scale the (cropped) coded pixels to: the display size fitted to the box,
    /// with width and height swapped back when the transforms turn the image a quarter.
    static func codedTarget(_ coded: HEIFCodedImage, boxWidth: Int, boxHeight: Int) -> (width: Int, height: Int) {
        let display = coded.displaySize
        let target = HEIFHEVCDecoder.fitted(width: display.width, height: display.height, boxWidth: boxWidth, boxHeight: boxHeight)
        var turned = false
        for case .rotate(let turns) in coded.transforms where turns % 2 == 1 { turned.toggle() }
        return turned ? (target.height, target.width) : target
    }

    /// `rgb` (`width`×`height`, scaled coded pixels) with the rotations and mirrors of
    /// `transforms` applied in order (crops were applied before scaling).
    static func apply(_ transforms: [HEIFCodedImage.Transform], to rgb: [UInt8], width: Int, height: Int)
        -> (rgb: [UInt8], width: Int, height: Int) {
        var (rgb, width, height) = (rgb, width, height)
        for transform in transforms {
            switch transform {
            case .crop: break
            case .rotate(let turns):
                (rgb, width, height) = RGBRotation.rotate(rgb, width: width, height: height, clockwise: (4 - turns) % 4 * 90)
            case .mirror(let horizontal):
                rgb = RGBMirror.mirror(rgb, width: width, height: height, horizontal: horizontal)
            }
        }
        return (rgb, width, height)
    }
}
