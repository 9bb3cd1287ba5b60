import JournalMediaCore
import JournalMediaResampling

/// Turns packed 8-bit RGB pixels clockwise by a quarter-turn multiple, so a poster shows the
/// way the video's display matrix says (and a HEIF `irot` is applied). The pass itself is
/// `PixelOrientation`'s, shared with the JPEG decode; runs once per poster after the frame
/// is chosen, only for rotated videos; costs one pass over the poster's pixels and one
/// output buffer of the same size.
enum RGBRotation {
    /// `rgb` (`width` × `height`, rows `width * 3` bytes) turned `degrees` clockwise (0, 90,
    /// 180, 270; other values leave it unchanged). Returns the new pixels and size.
    static func rotate(_ rgb: [UInt8], width: Int, height: Int, clockwise degrees: Int) -> (rgb: [UInt8], width: Int, height: Int) {
        // EXIF orientations 6, 3 and 8 are these turns clockwise.
        let orientation = switch degrees { case 90: 6; case 180: 3; case 270: 8; default: 1 }
        let turned = PixelOrientation.upright(rgb, width: width, height: height, bands: 3, orientation: orientation)
        return (turned.pixels, turned.width, turned.height)
    }
}
