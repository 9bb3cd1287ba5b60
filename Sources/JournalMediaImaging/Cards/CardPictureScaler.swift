import CVips
import JournalMediaCore

/// Resizes an opaque 8-bit RGB picture (an artwork, a contact's photo, a map, a poster) to
/// its size in a card's hero, up or down, fitted inside the box or filling it and cropped
/// at the centre: by area averaging when it shrinks and linear interpolation when it grows
/// (`CardThumbnailScaler.Axis`), in two separable passes over the picture's memory.
///
/// Runs while the hero is drawn. A card's picture is shown once at one size, so the
/// textbook filters are enough; done here it costs a few instructions per pixel written,
/// where libvips' `resize` (an affine transform through its interpolator) and
/// `thumbnail_image` pipelines cost several times that (a large share of a card's time
/// with a 600 px artwork). Pictures with alpha or other formats return nil and go to libvips.
enum CardPictureScaler {
    static func fitted(_ image: VipsImageHandle, width: Int, height: Int, crop: Bool,
                       stop: DecodeGuard? = nil) throws(VipsError) -> VipsImageHandle? {
        guard image.format == VIPS_FORMAT_UCHAR, image.bands == 3, image.width > 0, image.height > 0 else { return nil }
        let boxWidth = max(1, width), boxHeight = max(1, height)
        let sx = Double(boxWidth) / Double(image.width), sy = Double(boxHeight) / Double(image.height)
        let scale = crop ? max(sx, sy) : min(sx, sy)
        let toWidth = crop ? boxWidth : max(1, min(boxWidth, Int((Double(image.width) * scale).rounded())))
        let toHeight = crop ? boxHeight : max(1, min(boxHeight, Int((Double(image.height) * scale).rounded())))
        // The source stretch shown: all of it, or its centre when cropped.
        let spanX = crop ? 1 / scale : Double(image.width) / Double(toWidth)
        let spanY = crop ? 1 / scale : Double(image.height) / Double(toHeight)
        let horizontal = CardThumbnailScaler.Axis(source: image.width, target: toWidth, span: spanX,
                                                  offset: (Double(image.width) - spanX * Double(toWidth)) / 2)
        let vertical = CardThumbnailScaler.Axis(source: image.height, target: toHeight, span: spanY,
                                                offset: (Double(image.height) - spanY * Double(toHeight)) / 2)
        let memory = try image.materialised(stop: stop)
        guard let data = vips_image_get_data(memory.pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("reading the hero's picture"))
        }
        let rgb = withExtendedLifetime(memory) {
            CardThumbnailScaler.resampled(data.assumingMemoryBound(to: UInt8.self), width: image.width,
                                          height: image.height, horizontal: horizontal, vertical: vertical)
        }
        return try VipsImageHandle.copyingPackedRGB(rgb, width: toWidth, height: toHeight)
    }
}
