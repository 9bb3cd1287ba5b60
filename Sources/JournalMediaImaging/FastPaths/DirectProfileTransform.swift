import Foundation
import CLCMS2
import CVips
import JournalMediaResampling

/// Colour management of small images through LittleCMS directly, with the transform left
/// unoptimised (`cmsFLAGS_NOOPTIMIZE`).
///
/// Why: libvips' `icc_transform` (docs/library-versions.md) always lets lcms optimise, which for a lookup-table
/// profile means sampling the whole pipeline into a device-link table (tens of thousands of
/// grid points) before the first pixel, twice per `icc_transform`: on a small JPEG with a
/// v4 "preference" profile that table was most of the decode; an unoptimised transform evaluates the pipeline per pixel instead,
/// which is cheaper below `maxPixels`. Larger images keep
/// `icc_transform`, whose table pays off.
///
/// Both entry points run on the calling thread and allocate nothing but lcms' objects and
/// the output image; they answer nil when they do not apply, and the caller keeps its libvips
/// path.
enum DirectProfileTransform {
    /// Largest image (in pixels) converted here: 128 Ki pixels, about 418×313.
    static let maxPixels = 128 * 1024

    /// libvips' built-in sRGB profile (`profile_load("srgb")`), the output profile its
    /// `icc_transform` uses for `srgb`, so both paths aim at the same profile. Loaded once;
    /// nil when libvips cannot give it.
    private static let srgbProfile: [UInt8]? = builtInProfile("srgb")

    /// libvips' built-in CMYK profile (`profile_load("cmyk")`), what its decode assumes for a
    /// CMYK JPEG without one of its own. Loaded once; nil when libvips cannot give it.
    static let cmykProfile: [UInt8]? = builtInProfile("cmyk")

    private static func builtInProfile(_ name: String) -> [UInt8]? {
        do throws(VipsError) {
            let load = try VipsOperationCall("profile_load")
            try load.set("name", .string(name))
            try load.build()
            return try load.outputBytes("profile")
        } catch {
            return nil
        }
    }

    /// `image` (8-bit RGB, or CMYK with 4 bands, pixels in memory, at most `maxPixels`)
    /// converted from the RGB or CMYK `profile` to 8-bit sRGB, relative colorimetric intent (as
    /// the decode's `icc_transform`), as a new 3-band memory image tagged sRGB. Nil when it does
    /// not apply: a larger image, another layout, a profile lcms cannot open or whose colour
    /// space is not the image's, or a transform lcms cannot build (the caller's
    /// `icc_transform` then decides, as before).
    /// Costs the transform's set-up (unoptimised: well under a millisecond for matrix and
    /// lookup-table profiles alike) and one pipeline evaluation per pixel.
    static func toSRGB(_ image: VipsImageHandle, profile: UnsafeRawBufferPointer) throws(VipsError) -> VipsImageHandle? {
        let pixels = image.width * image.height
        let cmyk = image.bands == 4 && image.interpretation == VIPS_INTERPRETATION_CMYK
        guard image.bands == 3 || cmyk, image.format == VIPS_FORMAT_UCHAR, pixels <= maxPixels,
              image.pointer.pointee.Coding == VIPS_CODING_NONE,
              let source = image.pointer.pointee.data, let srgb = srgbProfile,
              let base = profile.baseAddress, profile.count > 0 else { return nil }
        guard let input = cmsOpenProfileFromMem(base, cmsUInt32Number(profile.count)) else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == (cmyk ? cmsSigCmykData : cmsSigRgbData) else { return nil }
        let output = srgb.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let output else { return nil }
        defer { cmsCloseProfile(output) }
        guard let transform = cmsCreateTransform(input, cmyk ? JM_TYPE_CMYK_8 : JM_TYPE_RGB_8, output, JM_TYPE_RGB_8,
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE)) else {
            // lcms reported why through libvips' error handler; the caller's path decides.
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        defer { cmsDeleteTransform(transform) }
        let (converted, target) = try VipsImageHandle.memoryImage(
            width: image.width, height: image.height, bands: 3, interpretation: VIPS_INTERPRETATION_sRGB,
            resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
        cmsDoTransform(transform, source, target, cmsUInt32Number(pixels))
        return converted
    }

    /// Packed 8-bit RGB (a decoded HEIC's, `width`×`height` as stored) converted from the RGB
    /// `profile` to libvips' sRGB, relative colorimetric intent, and turned upright for EXIF
    /// `orientation` (1–8), into a new 3-band memory image tagged sRGB. The conversion is made
    /// once per distinct profile and kept (`cachedConversion`: one phone's photos carry the
    /// same profile bytes; two iPhones' differ): for a matrix-shaper profile (an iPhone's
    /// Display P3, libvips' built-in P3, Adobe RGB, sRGB) a `MatrixShaperConversion`, which
    /// also does the turn in the same pass; otherwise an lcms transform, 8 bits in and out,
    /// optimised by lcms, after a separate turn (`PixelOrientation`). Nil when neither applies
    /// (a profile lcms cannot open or that is not RGB, a transform it cannot build): the
    /// caller's `icc_transform` then decides, as before.
    ///
    /// Why: libvips' `icc_transform` builds its lcms transform on every call (64.5 M
    /// instructions for an iPhone's Display P3 profile, `cmsReverseToneCurve` of the sRGB
    /// output curve most of it) and copies the pixels into a libvips pipeline first; and lcms'
    /// own per-pixel cost for a matrix-shaper is ~117 instructions (its formatters and
    /// pipeline calls around the same fixed-point arithmetic), 225 M for a 1600 px rendition,
    /// where `MatrixShaperConversion` takes about a fifth of that.
    /// Runs on the decode's thread; costs a lock round trip and one pass over the pixels (the
    /// first file with a profile also builds its conversion).
    package static func packedRGBToSRGB(_ rgb: [UInt8], width: Int, height: Int, orientation: Int = 1,
                                        profile: [UInt8]) throws(VipsError) -> VipsImageHandle? {
        guard width > 0, height > 0, rgb.count == width * height * 3, !profile.isEmpty,
              let conversion = cachedConversion(profile) else { return nil }
        let size = PixelOrientation.uprightSize(width: width, height: height, orientation: orientation)
        let (converted, target) = try VipsImageHandle.memoryImage(width: size.width, height: size.height, bands: 3,
                                                                  interpretation: VIPS_INTERPRETATION_sRGB)
        if let matrixShaper = conversion.matrixShaper {
            rgb.withUnsafeBufferPointer { source in
                if let base = source.baseAddress {
                    matrixShaper.convert(base, width: width, height: height, orientation: orientation, into: target)
                }
            }
        } else if let transform = conversion.transform {
            let upright = PixelOrientation.upright(rgb, width: width, height: height, bands: 3, orientation: orientation)
            upright.pixels.withUnsafeBytes { source in
                cmsDoTransform(transform.handle, source.baseAddress, target, cmsUInt32Number(width * height))
            }
        }
        return converted
    }

    /// `image` (8-bit RGB with its pixels in memory, as stored) converted from the RGB
    /// `profile` to libvips' sRGB and turned upright for EXIF `orientation` (1–8) in one pass,
    /// into a new 3-band memory image tagged sRGB, when `profile` is a matrix-shaper (Display
    /// P3 as iPhones and many cameras embed it, Adobe RGB): the HEIC path's
    /// `MatrixShaperConversion`, kept per distinct profile. Nil otherwise (another layout, a
    /// lookup-table profile, one lcms cannot open): the caller converts as before.
    ///
    /// For the decode of a large profiled JPEG, whose `icc_transform` builds lcms' transform
    /// on every call and then spends lcms' per-pixel overhead on the same fixed-point
    /// arithmetic; within one 8-bit level of it (`MatrixShaperConversionTests`). Runs on the
    /// decode's thread; costs a lock round trip and one pass over the pixels.
    package static func matrixShaperToSRGB(_ image: VipsImageHandle, profile: [UInt8],
                                           orientation: Int) throws(VipsError) -> VipsImageHandle? {
        guard image.bands == 3, image.width > 0, image.height > 0, let source = image.memoryPixels,
              !profile.isEmpty, let matrixShaper = cachedConversion(profile)?.matrixShaper else { return nil }
        let size = PixelOrientation.uprightSize(width: image.width, height: image.height, orientation: orientation)
        // The resolution as the separate turn (`ImageDecoder.oriented`) keeps it.
        let (converted, target) = try VipsImageHandle.memoryImage(
            width: size.width, height: size.height, bands: 3, interpretation: VIPS_INTERPRETATION_sRGB,
            resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
        withExtendedLifetime(image) {
            matrixShaper.convert(source, width: image.width, height: image.height, orientation: orientation, into: target)
        }
        return converted
    }

    /// An lcms transform kept for the life of the process (never deleted; at most
    /// `maxCachedTransforms`), used from any thread (`cmsFLAGS_NOCACHE`: no shared one-pixel cache).
    final class KeptTransform: @unchecked Sendable {
        let handle: cmsHTRANSFORM
        init(_ handle: cmsHTRANSFORM) { self.handle = handle }
        deinit { cmsDeleteTransform(handle) }
    }

    /// A profile's conversion to sRGB as kept: the matrix-shaper one when the profile is a
    /// matrix-shaper, else the lcms transform.
    struct KeptConversion: Sendable {
        var matrixShaper: MatrixShaperConversion?
        var transform: KeptTransform?
    }

    /// libvips' built-in Display P3 profile (`profile_load("p3")`), what an nclx-tagged P3
    /// HEIC is converted from. Loaded once.
    package static let displayP3Profile: [UInt8]? = builtInProfile("p3")

    /// libvips' sRGB as the output of matrix-shaper conversions, made once (nil when lcms
    /// cannot open it or it is not a matrix-shaper).
    private static let srgbMatrixShaper: MatrixShaperProfiles.Output? = srgbProfile.flatMap { bytes in
        guard let output = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            return nil
        }
        defer { cmsCloseProfile(output) }
        return MatrixShaperProfiles.output(output)
    }

    private static let maxCachedTransforms = 8
    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var conversions: [[UInt8]: KeptConversion] = [:]

    /// The RGB 8 → sRGB 8 conversion for `profile`, built once per profile: the matrix-shaper
    /// tables when both profiles are matrix-shapers (`MatrixShaperProfiles`), else an
    /// optimised lcms transform. `allowMatrixShaper` false: the lcms transform only (tests
    /// compare the two).
    static func cachedConversion(_ profile: [UInt8], allowMatrixShaper: Bool = true) -> KeptConversion? {
        if allowMatrixShaper, let kept = cacheLock.withLock({ conversions[profile] }) { return kept }
        guard let srgb = srgbProfile else { return nil }
        let input = profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let input else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        defer { cmsCloseProfile(input) }
        // Device-link, abstract and named-colour profiles are not a picture's colour space
        // (libvips' icc_transform refuses them, and the decode then ignores the profile).
        let usableClasses = [cmsSigDisplayClass, cmsSigInputClass, cmsSigOutputClass, cmsSigColorSpaceClass]
        guard cmsGetColorSpace(input) == cmsSigRgbData, usableClasses.contains(cmsGetDeviceClass(input)) else { return nil }
        let output = srgb.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }
        guard let output else { return nil }
        defer { cmsCloseProfile(output) }
        var kept = KeptConversion()
        if allowMatrixShaper, let srgbPart = srgbMatrixShaper {
            kept.matrixShaper = MatrixShaperProfiles.conversion(from: input, to: srgbPart)
        }
        if kept.matrixShaper == nil {
            guard let handle = cmsCreateTransform(input, JM_TYPE_RGB_8, output, JM_TYPE_RGB_8,
                                                  cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                  cmsUInt32Number(cmsFLAGS_NOCACHE)) else {
                _ = VipsRuntime.takeErrorBuffer()
                return nil
            }
            kept.transform = KeptTransform(handle)
        }
        guard allowMatrixShaper else { return kept }
        return cacheLock.withLock {
            if let other = conversions[profile] { return other }
            if conversions.count < maxCachedTransforms { conversions[profile] = kept }
            return kept
        }
    }

    /// Whether libvips' `icc_transform` of an image of this layout with this embedded profile
    /// (fallback `srgb`, or `cmyk` for CMYK) builds, answered the way its import step decides:
    /// a profile whose colour space does not fit the image's bands is replaced by the fallback
    /// (so the transform builds: true, except for grey images, which no fallback fits: false);
    /// otherwise it builds when
    /// lcms builds the profile → Lab transform for the pixel format. The transform is made
    /// unoptimised, which finds the same failures (unreadable tags, unsupported classes)
    /// without the optimisation's cost. Nil for what it does not model (float, Lab, XYZ or other
    /// colour-space profiles, a profile lcms cannot open): the caller's one-pixel
    /// `icc_transform` answers those.
    static func transformBuilds(profile: UnsafeRawBufferPointer, bands: Int, format: VipsBandFormat,
                                interpretation: VipsInterpretation) -> Bool? {
        guard format == VIPS_FORMAT_UCHAR || format == VIPS_FORMAT_USHORT,
              let base = profile.baseAddress, profile.count > 0 else { return nil }
        let sixteen = format == VIPS_FORMAT_USHORT
        // libvips' bands expected from the interpretation (vips_image_expected_bands).
        let expected: Int
        switch interpretation {
        case VIPS_INTERPRETATION_B_W, VIPS_INTERPRETATION_GREY16: expected = 1
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_RGB, VIPS_INTERPRETATION_RGB16: expected = 3
        case VIPS_INTERPRETATION_CMYK: expected = 4
        default: return nil
        }
        guard let input = cmsOpenProfileFromMem(base, cmsUInt32Number(profile.count)) else {
            // A profile lcms cannot open: libvips 8.14 does not always fall back to `srgb`
            // then ("unable to load or find any compatible input profile" for Pillow's
            // icc-after-SOF.jpg), so the caller's one-pixel icc_transform decides.
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        defer { cmsCloseProfile(input) }
        let pixelFormat: cmsUInt32Number
        let needs: Int
        switch cmsGetColorSpace(input) {
        case cmsSigRgbData: needs = 3; pixelFormat = sixteen ? JM_TYPE_RGB_16 : JM_TYPE_RGB_8
        case cmsSigCmykData: needs = 4; pixelFormat = sixteen ? JM_TYPE_CMYK_16 : JM_TYPE_CMYK_8
        case cmsSigGrayData: needs = 1; pixelFormat = sixteen ? JM_TYPE_GRAY_16 : JM_TYPE_GRAY_8
        default: return nil
        }
        // Incompatible: libvips uses the fallback (`srgb`, or `cmyk` for CMYK) instead, which
        // builds when it fits the bands. For a grey image none does (libvips 8.14 has no grey
        // fallback): a grey JPEG tagged with an RGB profile fails "unable to load or find any
        // compatible input profile", so the profile is reported unusable and ignored, as
        // viewers do.
        guard min(expected, bands) == needs else { return expected != 1 }
        var white = cmsCIExyY()
        cmsWhitePointFromTemp(&white, 6500)
        guard let lab = cmsCreateLab4Profile(&white) else { return nil }
        defer { cmsCloseProfile(lab) }
        guard let transform = cmsCreateTransform(input, pixelFormat, lab, JM_TYPE_Lab_16,
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_NOOPTIMIZE | cmsFLAGS_NOCACHE)) else {
            _ = VipsRuntime.takeErrorBuffer()
            return false
        }
        cmsDeleteTransform(transform)
        return true
    }
}
