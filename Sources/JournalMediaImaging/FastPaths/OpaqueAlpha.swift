import CResampleKernel
import CVips
import JournalMediaCore

/// The test every decode ends with: does the alpha channel of an 8-bit image in memory hold
/// anything below 255, and if not, the image without it. One pass over the alpha bytes
/// (`jm_alpha_and`) and, for an opaque image, one copy of the colour bands into a new memory
/// image, on the calling thread. Stands in for libvips' `extract_band` + `min` and a lazy
/// `flatten` (whose output each rendition then computed again). `PNGDirectDecode` does the
/// same test row by row while it decodes, and needs none of this.
enum OpaqueAlpha {
    /// `image` (with an alpha band) resolved: `transparent` when some pixel is below 255, else
    /// the colour bands alone. Nil when the pixels are not 8-bit in memory (the caller asks libvips).
    static func resolved(_ image: VipsImageHandle) throws(VipsError) -> (image: VipsImageHandle, transparent: Bool)? {
        let bands = image.bands
        guard image.hasAlpha, bands == 2 || bands == 4, let pixels = image.memoryPixels else { return nil }
        let count = image.width * image.height
        guard jm_alpha_and(pixels, count, bands) == 255 else { return (image, true) }
        let (colour, target) = try VipsImageHandle.memoryImage(
            width: image.width, height: image.height, bands: bands - 1, interpretation: image.interpretation,
            resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
        let kept = bands - 1
        for index in 0..<count {
            for band in 0..<kept { target[index * kept + band] = pixels[index * bands + band] }
        }
        return (colour, false)
    }
}
