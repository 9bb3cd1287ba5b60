import CVips
import JournalMediaCore

/// What an image's header says, read before any pixel is decoded.
package struct ImageHeader {
    package var format: SourceFormat
    /// Stored size, before orientation.
    package var storedWidth: Int
    package var storedHeight: Int
    /// EXIF orientation 1–8 (1 when absent). libheif applies HEIF transforms itself and
    /// libvips then reports 1, so HEIC rotation is never applied twice.
    package var orientation: Int
    var bands: Int
    var hasAlpha: Bool
    var colourSpace: ColourSpace
    /// The file embeds an ICC profile.
    var hasProfile: Bool

    /// The family of the stored pixels, which decides how colour management starts.
    enum ColourSpace { case rgb, cmyk, grey, other }

    /// Size after orientation: 5–8 swap width and height.
    package var displayWidth: Int { orientation >= 5 ? storedHeight : storedWidth }
    package var displayHeight: Int { orientation >= 5 ? storedWidth : storedHeight }
    package var pixelCount: Int { storedWidth.multipliedReportingOverflow(by: storedHeight).partialValue }
}

/// Reads an image header from memory through the loader for its sniffed format.
///
/// Runs once per asset before decoding; costs the header parse only (for JPEG the markers,
/// for HEIC the box structure), not the pixels.
package enum ImageHeaderReader {
    /// The libvips loader for an image format; nil for video and audio formats.
    static func loaderName(for format: SourceFormat) -> String? {
        switch format {
        case .jpeg: "jpegload_buffer"
        case .png: "pngload_buffer"
        case .webp: "webpload_buffer"
        case .gif: "gifload_buffer"
        case .tiff: "tiffload_buffer"
        case .heic, .avif: "heifload_buffer"
        case .svg: "svgload_buffer"
        case .pdf: "pdfload_buffer"
        case .mov, .mp4, .m4v, .threeGP, .m4a, .mp3, .flac, .ogg: nil
        }
    }

    package static func read(_ bytes: UnsafeRawBufferPointer, format: SourceFormat) throws(VipsError) -> ImageHeader {
        guard let loader = loaderName(for: format) else { throw VipsError(message: "not an image format") }
        let load = try VipsOperationCall(loader)
        try load.set("buffer", .borrowedBlob(bytes))
        try load.build()
        let image = try load.outputImage()
        let space: ImageHeader.ColourSpace = switch image.interpretation {
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_RGB, VIPS_INTERPRETATION_RGB16, VIPS_INTERPRETATION_scRGB:
            image.bands >= 3 ? .rgb : .other
        case VIPS_INTERPRETATION_CMYK: .cmyk
        case VIPS_INTERPRETATION_B_W, VIPS_INTERPRETATION_GREY16: .grey
        default: .other
        }
        return ImageHeader(
            format: format, storedWidth: image.width, storedHeight: image.height,
            orientation: image.orientation, bands: image.bands, hasAlpha: image.hasAlpha,
            colourSpace: space, hasProfile: image.hasField(VIPS_META_ICC_NAME))
    }
}
