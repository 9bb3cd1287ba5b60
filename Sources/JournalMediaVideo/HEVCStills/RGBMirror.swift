import JournalMediaCore
import JournalMediaResampling

/// Flips packed 8-bit RGB pixels left↔right or top↔bottom (a HEIF `imir`) with
/// `PixelOrientation`'s pass. Pure Swift; runs
/// once per mirrored HEIC after scaling; costs one pass over the scaled pixels.
enum RGBMirror {
    /// `rgb` (`width` × `height`, rows `width * 3` bytes) mirrored; `horizontal` swaps left and
    /// right, otherwise top and bottom.
    static func mirror(_ rgb: [UInt8], width: Int, height: Int, horizontal: Bool) -> [UInt8] {
        // EXIF orientations 2 and 4 are these mirrors (`PixelOrientation`, shared with the JPEG decode).
        PixelOrientation.upright(rgb, width: width, height: height, bands: 3, orientation: horizontal ? 2 : 4).pixels
    }
}
