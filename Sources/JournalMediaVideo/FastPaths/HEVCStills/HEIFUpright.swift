import JournalMediaCore
import JournalMediaHEIF

/// The rotations and mirrors of a HEIF/AVIF image (`irot`, `imir`) for packed RGB that was
/// already scaled: which size to scale the coded pixels to so the upright result fits the
/// box, and the one EXIF orientation (1–8) their sequence amounts to, which the imaging
/// layer applies in its colour pass (`HEIFDecodedRGB.orientation`). Shared by the HEVC and
/// AV1 still paths.
///
/// Runs once per in-process HEIC/AVIF decode; costs nothing per pixel.
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

    /// Each EXIF orientation (index 0 is orientation 1) as three steps on the stored picture,
    /// in order: transpose, mirror left↔right, mirror top↔bottom (`PixelOrientation`'s
    /// meaning: 6 turns a quarter clockwise, 8 anticlockwise, 2 mirrors left↔right, 4 top↔bottom).
    private static let steps: [(transpose: Bool, mirrorX: Bool, mirrorY: Bool)] = [
        (false, false, false), (false, true, false), (false, true, true), (false, false, true),
        (true, false, false), (true, true, false), (true, true, true), (true, false, true),
    ]

    /// The EXIF orientation that applies `transforms` in order (crops, applied before
    /// scaling, are skipped): `irot` turns anticlockwise, `imir` mirrors.
    static func orientation(_ transforms: [HEIFCodedImage.Transform]) -> Int {
        var state = steps[0]
        for transform in transforms {
            let next: Int
            switch transform {
            case .crop: continue
            case .rotate(let turns): next = [1, 8, 3, 6][(turns % 4 + 4) % 4]
            case .mirror(let horizontal): next = horizontal ? 2 : 4
            }
            // Doing `state` then `step`: a transpose in `step` exchanges the axes `state` mirrored.
            let step = steps[next - 1]
            let mirrors = step.transpose ? (state.mirrorY, state.mirrorX) : (state.mirrorX, state.mirrorY)
            state = (state.transpose != step.transpose, mirrors.0 != step.mirrorX, mirrors.1 != step.mirrorY)
        }
        return (steps.firstIndex { $0 == state } ?? 0) + 1
    }
}
