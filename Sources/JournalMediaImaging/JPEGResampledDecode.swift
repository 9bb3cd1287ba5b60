import CVips
import JournalMediaCore

/// The decode of RGB and untagged grey JPEGs, and of CMYK JPEGs whose decode is at most
/// `DirectProfileTransform.maxPixels`: libjpeg-turbo at the smallest DCT scale (1/1,
/// 1/2, 1/4, 1/8) that still covers the target box, the remaining 0.5–1× reduction by
/// `InMemoryResize` (not libvips' `thumbnail`, whose scalar `reduce` cost more than the
/// decode on 2–8 MP photos), then, on the small image, the ICC conversion to sRGB (CMYK
/// through its own profile or libvips' CMYK one; RGB skipped
/// for sRGB-equivalent profiles, `SRGBProfileMatch`; straight through lcms for images of at
/// most `DirectProfileTransform.maxPixels`) and the EXIF orientation.
///
/// Runs on the calling thread inside `ImageDecoder.decode`; costs one decode at the DCT
/// scale (held in memory, at most 4× the target's pixels), one resample, and the transform
/// and rotation of the target-sized image.
enum JPEGResampledDecode {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, colourManaged: Bool,
        failOn: ImageDecoder.DecodeFailure
    ) throws(VipsError) -> DecodedImage {
        let shrink = ImageDecoder.jpegShrink(header, width: width, height: height) ?? 1
        let load = try VipsOperationCall("jpegload_buffer")
        try load.set("buffer", .borrowedBlob(bytes))
        try load.set("shrink", .int(shrink))
        // The caller's level: `warning` first, so a damaged file is retried leniently and its
        // complaint recorded (see the photo source), `truncated` for that retry.
        try load.set("fail_on", .nick(failOn.rawValue))
        try load.build()
        let loaded = try load.outputImage()
        // CMYK always converts: through its own profile, or libvips' CMYK one without.
        let cmyk = header.colourSpace == .cmyk
        let transform = colourManaged && (cmyk || header.hasProfile && !header.profileIsSRGB && header.colourSpace == .rgb)
        var image = try loaded.materialised()
        // The target in display orientation, as the renditions size it (`scaledSize`), then
        // in the stored orientation the pixels have.
        let swapped = header.orientation >= 5
        let shownWidth = swapped ? image.height : image.width, shownHeight = swapped ? image.width : image.height
        let fitted = header.fittedDisplaySize(width: width, height: height)
        let targetWidth = min(shownWidth, fitted.width), targetHeight = min(shownHeight, fitted.height)
        let stored = swapped ? (targetHeight, targetWidth) : (targetWidth, targetHeight)
        // The decoded samples show the whole stored picture at 1/shrink: a fraction of a
        // sample more than the decode holds when a side is not a multiple of the shrink.
        let extent = (Double(header.storedWidth) / Double(shrink), Double(header.storedHeight) / Double(shrink))
        let resized = try InMemoryResize.resized(image, width: stored.0, height: stored.1, extent: extent)
        if let resized { image = resized }
        if transform, let direct = try directlyConverted(image, profileOf: loaded, cmyk: cmyk) {
            image = direct
        } else if transform {
            // The resample made a new image without metadata: icc_transform reads the
            // embedded profile from it.
            if resized != nil, header.hasProfile { try copyProfile(from: loaded, to: image) }
            let icc = try VipsOperationCall("icc_transform")
            try icc.set("in", .image(image))
            try icc.set("embedded", .bool(true))
            try icc.set("input_profile", .string(cmyk ? "cmyk" : "srgb"))
            try icc.set("output_profile", .string("srgb"))
            try icc.set("intent", .nick("relative"))
            try icc.build()
            image = try ImageDecoder.eightBitDisplayColour(try icc.outputImage())
        }
        if header.orientation != 1 { image = try ImageDecoder.oriented(image, header.orientation) }
        let memory = image.pointer.pointee.data != nil && image.pointer.pointee.dtype == VIPS_IMAGE_SETBUF
            ? image : try image.materialised()
        for field in memory.fieldNames where !ImageDecoder.coreFields.contains(field) {
            memory.removeField(field)
        }
        return DecodedImage(image: memory, hasRealTransparency: false)
    }

    /// `image` converted to sRGB by `DirectProfileTransform` from `source`'s embedded profile
    /// (for CMYK without one, libvips' CMYK profile), when the image is small enough for that
    /// (nil otherwise: `icc_transform` converts it).
    private static func directlyConverted(_ image: VipsImageHandle, profileOf source: VipsImageHandle,
                                          cmyk: Bool) throws(VipsError) -> VipsImageHandle? {
        guard image.width * image.height <= DirectProfileTransform.maxPixels else { return nil }
        if vips_image_get_typeof(source.pointer, VIPS_META_ICC_NAME) != 0 {
            var data: UnsafeRawPointer?
            var length = 0
            guard vips_image_get_blob(source.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data else {
                _ = VipsRuntime.takeErrorBuffer()
                return nil
            }
            return try DirectProfileTransform.toSRGB(image, profile: UnsafeRawBufferPointer(start: data, count: length))
        }
        guard cmyk, let builtIn = DirectProfileTransform.cmykProfile else { return nil }
        let converted = builtIn.withUnsafeBytes { profile in
            Result { () throws(VipsError) in try DirectProfileTransform.toSRGB(image, profile: profile) }
        }
        return try converted.get()
    }

    /// Attaches a copy of `source`'s embedded ICC profile to `image` (an image this code made).
    private static func copyProfile(from source: VipsImageHandle, to image: VipsImageHandle) throws(VipsError) {
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(source.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data else {
            throw VipsError(message: VipsRuntime.failureMessage("reading the embedded ICC profile"))
        }
        vips_image_set_blob_copy(image.pointer, VIPS_META_ICC_NAME, data, length)
    }
}
