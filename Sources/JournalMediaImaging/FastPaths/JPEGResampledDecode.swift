import CVips
import JournalMediaCore

/// The decode of RGB and untagged grey JPEGs, and of colour-managed CMYK JPEGs (all sizes,
/// see `ImageDecoder.convertsCMYKThroughICC`): libjpeg-turbo at the smallest DCT scale (1/1,
/// 1/2, 1/4, 1/8) that still covers the target box, on this thread (`DirectJPEGDecode`,
/// libvips' samples without its sink's thread hand-offs), the remaining 0.5–1× reduction by
/// `InMemoryResize` (not libvips' `thumbnail`, whose scalar `reduce` cost more than the
/// decode on 2–8 MP photos), then, on the small image, the ICC conversion to sRGB (CMYK
/// through its own profile or libvips' CMYK one; RGB skipped
/// for sRGB-equivalent profiles, `SRGBProfileMatch`; straight through lcms for images of at
/// most `DirectProfileTransform.maxPixels`; larger ones with a matrix-shaper profile such as
/// Display P3 through `MatrixShaperConversion`, turned upright in the same pass) and the EXIF
/// orientation (one pass in memory, `PixelOrientation`, for all but the large images with a
/// lookup-table profile, which `icc_transform` converts).
///
/// Runs on the calling thread inside `ImageDecoder.decode`; costs one decode at the DCT
/// scale (held in memory, at most 4× the target's pixels), one resample, and the transform
/// and rotation of the target-sized image.
enum JPEGResampledDecode {
    static func decode(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, colourManaged: Bool,
        failOn: ImageDecoder.DecodeFailure, stop: DecodeGuard? = nil
    ) throws(VipsError) -> DecodedImage {
        let shrink = ImageDecoder.jpegShrink(header, width: width, height: height) ?? 1
        // CMYK always converts: through its own profile, or libvips' CMYK one without.
        let cmyk = header.colourSpace == .cmyk
        let transform = colourManaged && (cmyk || header.hasProfile && !header.profileIsSRGB && header.colourSpace == .rgb)
        // The caller's level: `warning` first, so a damaged file is retried leniently and its
        // complaint recorded (see the photo source), `truncated` for that retry.
        var image: VipsImageHandle
        let profile: [UInt8]?
        if let direct = try DirectJPEGDecode.decode(bytes, shrink: shrink, failOn: failOn, resolution: header.resolution,
                                                     stop: stop) {
            (image, profile) = (direct.image, direct.profile)
        } else {
            image = try libvipsLoad(bytes, shrink: shrink, failOn: failOn, stop: stop)
            profile = embeddedProfile(of: image)
        }
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
        let resized = try InMemoryResize.resized(image, width: stored.0, height: stored.1, extent: extent, stop: stop)
        if let resized { image = resized }
        var upright = header.orientation == 1
        if transform, !cmyk, let profile, image.width * image.height > DirectProfileTransform.maxPixels,
           FastPaths.allows(.profileTransform),
           let converted = try DirectProfileTransform.matrixShaperToSRGB(image, profile: profile, orientation: header.orientation) {
            // A matrix-shaper profile (Display P3, Adobe RGB): converted and turned in one pass.
            image = converted
            upright = true
        } else if transform, let direct = try directlyConverted(image, profile: profile, cmyk: cmyk) {
            image = direct
        } else if transform {
            // icc_transform reads the embedded profile from the image, which this code made
            // (the decode or the resample) without metadata.
            if let profile {
                profile.withUnsafeBytes { vips_image_set_blob_copy(image.pointer, VIPS_META_ICC_NAME, $0.baseAddress, $0.count) }
            }
            image = try ImageDecoder.iccTransformToSRGB(image, fallbackProfile: cmyk ? "cmyk" : "srgb")
        }
        if !upright { image = try ImageDecoder.oriented(image, header.orientation) }
        let memory = image.isInMemory ? image : try image.materialised(stop: stop)
        for field in memory.fieldNames where !ImageDecoder.coreFields.contains(field) {
            memory.removeField(field)
        }
        return DecodedImage(image: memory, hasRealTransparency: false)
    }

    /// libvips' `jpegload_buffer` into memory, for a JPEG `DirectJPEGDecode` does not take
    /// (a colour space other than grey, RGB or CMYK): the decode on a libvips worker thread.
    private static func libvipsLoad(_ bytes: UnsafeRawBufferPointer, shrink: Int,
                                    failOn: ImageDecoder.DecodeFailure, stop: DecodeGuard?) throws(VipsError) -> VipsImageHandle {
        let load = try VipsOperationCall("jpegload_buffer")
        try load.set("buffer", .borrowedBlob(bytes))
        try load.set("shrink", .int(shrink))
        try load.set("fail_on", .nick(failOn.rawValue))
        try load.build()
        return try load.outputImage().materialised(stop: stop)
    }

    /// A copy of the ICC profile libvips attached to `image`, nil when there is none.
    private static func embeddedProfile(of image: VipsImageHandle) -> [UInt8]? {
        guard image.hasField(VIPS_META_ICC_NAME) else { return nil }
        var data: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(image.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: length))
    }

    /// `image` converted to sRGB by `DirectProfileTransform` from the file's embedded
    /// `profile` (for CMYK without one, libvips' CMYK profile), when the image is small enough
    /// for that (nil otherwise: `icc_transform` converts it).
    private static func directlyConverted(_ image: VipsImageHandle, profile: [UInt8]?,
                                          cmyk: Bool) throws(VipsError) -> VipsImageHandle? {
        guard image.width * image.height <= DirectProfileTransform.maxPixels else { return nil }
        guard let bytes = profile ?? (cmyk ? DirectProfileTransform.cmykProfile : nil) else { return nil }
        let converted = bytes.withUnsafeBytes { profile in
            Result { () throws(VipsError) in try DirectProfileTransform.toSRGB(image, profile: profile) }
        }
        return try converted.get()
    }
}
