import CVips
import JournalMediaCore

/// An animated GIF or WebP as an animated GIF notification attachment (`UNNotificationAttachment`
/// plays GIFs, not WebP): every frame decoded and fitted into the spec's box by libvips'
/// `thumbnail` (which resizes each page of an animation), written by libvips' `gifsave`
/// (cgif: `vips -l` lists `gifsave_buffer`), metadata stripped. When the GIF
/// is over the limit it is made smaller (by the square root of limit / size, 0.3–0.75×) and
/// written again, at most 8 times and not below 16 px; then the caller falls back to the
/// first frame as a still.
///
/// Runs for GIF and WebP sources when the `notification` role is on. Costs a decode of every
/// frame at the box size and one GIF encode (palette search per frame) per attempt.
package enum AnimationAttachment {
    static let attempts = 8
    static let shrinkFactor = 0.75

    /// The GIF attachment, or nil when the image has a single frame or no size under
    /// `limit` was found.
    package static func render(_ bytes: UnsafeRawBufferPointer, spec: RenditionSpec,
                               limit: Int) throws(VipsError) -> Rendition? {
        var width = Double(spec.width), height = Double(spec.height)
        for _ in 0..<attempts {
            let thumbnail = try VipsOperationCall("thumbnail_buffer")
            try thumbnail.set("buffer", .borrowedBlob(bytes))
            try thumbnail.set("option_string", .string("n=-1"))
            try thumbnail.set("width", .int(max(1, Int(width))))
            try thumbnail.set("height", .int(max(1, Int(height))))
            try thumbnail.set("size", .nick("down"))
            try thumbnail.build()
            let image = try thumbnail.outputImage()
            guard let pageHeight = image.intField("page-height"), pageHeight > 0, pageHeight < image.height,
                  image.height % pageHeight == 0 else { return nil }
            let save = try VipsOperationCall("gifsave_buffer")
            try save.set("in", .image(image))
            try save.set("strip", .bool(true))
            try save.build()
            let data = try save.outputBytes()
            if data.count <= limit {
                let first = try VipsOperationCall("extract_area")
                try first.set("input", .image(image))
                try first.set("left", .int(0))
                try first.set("top", .int(0))
                try first.set("width", .int(image.width))
                try first.set("height", .int(pageHeight))
                try first.build()
                var rendition = Rendition(role: spec.role, format: .gif, width: image.width, height: pageHeight, data: data)
                rendition.attachment = NotificationAttachment(
                    uti: RenditionFormat.gif.uniformTypeIdentifier, limitBytes: NotificationLimits.imageBytes,
                    thumbnailClippingRect: try AttentionSquare.clippingRect(of: try first.outputImage()))
                return rendition
            }
            // GIF bytes grow about with the pixel count: aim straight for the limit (a tenth
            // under), shrinking by at least 0.75 and at most 0.3 per attempt.
            let factor = min(shrinkFactor, max(0.3, (Double(limit) / Double(data.count)).squareRoot() * 0.9))
            width *= factor
            height *= factor
            if min(width, height) < 16 { return nil }
        }
        return nil
    }
}
