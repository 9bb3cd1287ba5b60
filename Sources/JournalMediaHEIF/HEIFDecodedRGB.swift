import JournalMediaCore

/// A HEIC or AVIF decoded in-process by a fast path: packed 8-bit RGB already fitted to the
/// box (HEIF `clap` applied), with the turn or mirror still to apply (HEIF `irot`, `imir`,
/// as one EXIF orientation, so the imaging layer does it in the same pass as its colour
/// conversion) and the colour space it is in.
/// Made by the video layer's `HEIFHEVCDecoder` or `AVIFAV1Decoder`, turned into a libvips
/// image by the imaging layer.
package struct HEIFDecodedRGB {
    /// The pixels as decoded, `storedSize` (rows `storedSize.width * 3` bytes), not yet
    /// turned for `orientation`.
    package var rgb: [UInt8]
    /// The upright size, once `orientation` is applied.
    package var width: Int
    package var height: Int
    /// The EXIF orientation (1–8) that turns `rgb` upright: 1 when it already is.
    package var orientation: Int
    /// The image's ICC profile (`colr` prof/rICC): convert from it to sRGB.
    package var iccProfile: [UInt8]?
    /// A libvips built-in profile name to convert from (`p3` for nclx Display P3), when there
    /// is no ICC profile; nil when the pixels are already sRGB.
    package var builtInProfile: String?

    /// `rgb` is `storedWidth`×`storedHeight`; `orientation` (1–8; others count as 1) turns it upright.
    package init(rgb: [UInt8], storedWidth: Int, storedHeight: Int, orientation: Int = 1, iccProfile: [UInt8]?,
                 builtInProfile: String?) {
        self.rgb = rgb
        self.orientation = (1...8).contains(orientation) ? orientation : 1
        (width, height) = self.orientation >= 5 ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        self.iccProfile = iccProfile
        self.builtInProfile = builtInProfile
    }

    /// The size of `rgb` as stored (before `orientation`).
    package var storedSize: (width: Int, height: Int) { orientation >= 5 ? (height, width) : (width, height) }
}
