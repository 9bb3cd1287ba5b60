/// A HEIC or AVIF decoded in-process by a fast path: packed 8-bit RGB already fitted to the
/// box and upright (HEIF `clap`, `irot`, `imir` applied), with the colour space it is in.
/// Made by the video layer's `HEIFHEVCDecoder` or `AVIFAV1Decoder`, turned into a libvips
/// image by the imaging layer.
package struct HEIFDecodedRGB {
    package var rgb: [UInt8]
    package var width: Int
    package var height: Int
    /// The image's ICC profile (`colr` prof/rICC): convert from it to sRGB.
    package var iccProfile: [UInt8]?
    /// A libvips built-in profile name to convert from (`p3` for nclx Display P3), when there
    /// is no ICC profile; nil when the pixels are already sRGB.
    package var builtInProfile: String?

    package init(rgb: [UInt8], width: Int, height: Int, iccProfile: [UInt8]?, builtInProfile: String?) {
        self.rgb = rgb
        self.width = width
        self.height = height
        self.iccProfile = iccProfile
        self.builtInProfile = builtInProfile
    }
}
