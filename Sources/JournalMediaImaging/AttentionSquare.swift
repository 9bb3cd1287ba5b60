import CVips
import JournalMediaCore

/// The square a notification should show as its thumbnail: libvips' `smartcrop` with the
/// attention strategy (skin tones, saturated colour and edges, weighted towards the centre),
/// cropping to the image's shorter side; the crop's position is read back from the output's
/// offsets and normalised to the image (`ClippingRect`).
///
/// Runs once per notification attachment; costs libvips' attention analysis, which works on
/// an eighth-size copy (a few milliseconds at 1024 px).
package enum AttentionSquare {
    package static func clippingRect(of image: VipsImageHandle) throws(VipsError) -> ClippingRect {
        let side = min(image.width, image.height)
        guard image.width != image.height else {
            return ClippingRect(left: 0, top: 0, width: side, height: side, imageWidth: side, imageHeight: side)
        }
        let crop = try VipsOperationCall("smartcrop")
        try crop.set("input", .image(image))
        try crop.set("width", .int(side))
        try crop.set("height", .int(side))
        try crop.set("interesting", .nick("attention"))
        try crop.build()
        let square = try crop.outputImage()
        // extract_area, which smartcrop ends with, records the crop's origin as negative offsets.
        let left = -Int(vips_image_get_xoffset(square.pointer)), top = -Int(vips_image_get_yoffset(square.pointer))
        let clampedLeft = min(max(0, left), image.width - side), clampedTop = min(max(0, top), image.height - side)
        return ClippingRect(left: clampedLeft, top: clampedTop, width: side, height: side,
                            imageWidth: image.width, imageHeight: image.height)
    }
}
