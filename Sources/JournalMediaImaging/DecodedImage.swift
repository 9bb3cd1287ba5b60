import CVips
import JournalMediaCore
import JournalMediaHEIF
import JournalMediaResampling

/// A source decoded once, at the size the largest rendition needs, upright, 8-bit sRGB (or
/// 8-bit grey), with every metadata field removed, held in memory so that each rendition
/// resizes from it without decoding again.
///
/// Made by `ImageDecoder.decode` (or a source such as a movie's poster or a card); its cost
/// is the decode with shrink-on-load (JPEG DCT scaling, WebP/SVG/PDF scale on load, HEIF
/// embedded thumbnails when big enough) plus one copy into memory (about width × height ×
/// bands bytes). Opaque outside the toolkit: sources hand it to `RenditionStep`.
public final class DecodedImage {
    let image: VipsImageHandle
    /// The source has an alpha channel with at least one pixel below fully opaque.
    public let hasRealTransparency: Bool

    package init(image: VipsImageHandle, hasRealTransparency: Bool) {
        self.image = image
        self.hasRealTransparency = hasRealTransparency
    }
}

/// Decodes an image from memory with libvips' `thumbnail_buffer`: shrink-on-load, EXIF
/// orientation applied to the pixels, embedded ICC profiles (CMYK, Adobe RGB, Display P3,
/// …) converted to sRGB, 16-bit reduced to 8-bit.
///
/// Runs on the calling thread (one libvips worker thread); costs one decode at the target size.
package enum ImageDecoder {
    /// Decodes `bytes` so the result fits `width`×`height` (display orientation).
    /// - Parameter allowUpscale: true for vector sources, which are rendered at the size
    ///   asked for; raster sources are never enlarged.
    /// An embedded profile that lcms cannot use (malformed, a device link or named-colour
    /// profile, or for another colour space) does not lose the image: its colours are taken
    /// as they are, without colour management (a HEIC is not decoded twice for that).
    /// HEICs and AVIFs that the in-process paths decode (`HEIFHEVCDecoder`, `AVIFAV1Decoder`,
    /// in the video layer) come in through `decode(heic:)` instead.
    /// The pixel computation stops early when `stop` (the decode's guard) says stop.
    /// Which of the toolkit's own paths run beside libvips' comes from the decoder table
    /// (`LibvipsStillRoute`, by the codec the format's handler declares), never from the format.
    /// Decodes once: whether the embedded profile is used was decided from the header
    /// (`ImageHeader.profileUsable`), so a file that fails to decode is not decoded again.
    /// - Parameter failOn: what stops the decode (libvips' `fail_on`): `.truncated` (missing
    ///   pixels: libjpeg's "premature end", a short read) or `.warning` (any complaint).
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, allowUpscale: Bool,
        failOn: DecodeFailure = .truncated, stop: DecodeGuard? = nil
    ) throws(VipsError) -> DecodedImage {
        let route = LibvipsStillRoute.of(header.format)
        do {
            return try decodeWithLibvips(bytes, header: header, width: width, height: height, allowUpscale: allowUpscale,
                                         colourManaged: header.profileUsable, failOn: failOn, route: route, stop: stop)
        } catch where route.primaryImageRetry && error.message.contains("bad image dimensions on decode")
                        && stop?.shouldStop != true {
            // libvips 8.14's thumbnail takes a HEIF's embedded thumbnail when it is big enough,
            // and refuses it when libheif decodes it to another size than its `ispe` (Sony's
            // HIFs): the primary image, loaded and shrunk, has no such trouble.
            do {
                return try decodeWithLibvips(bytes, header: header, width: width, height: height,
                                             allowUpscale: allowUpscale, colourManaged: header.profileUsable,
                                             failOn: failOn, route: route, stop: stop, primaryImage: true)
            } catch {
                throw MemoryFile.withoutPath(error)
            }
        } catch {
            throw MemoryFile.withoutPath(error)
        }
    }

    /// libvips' `fail_on` levels the pipeline uses.
    package enum DecodeFailure: String, Sendable {
        /// Fail on any decoder warning (libjpeg's "Corrupt JPEG data: …" included).
        case warning
        /// Fail only when pixel data is missing (the file ends early).
        case truncated
    }

    /// Runs `attempt` colour-managed and, if that fails while a colour transform was part of
    /// it (`transforms`), once more without colour management. Only for the HEIC fast path,
    /// where the attempt is the colour conversion of pixels already decoded (the decode is
    /// not repeated). Any failure of the colour-managed attempt is retried, whatever libvips'
    /// text says: lcms and libvips word an unusable profile many ways.
    private static func withoutUnusableProfile(
        transforms: Bool, _ attempt: (_ colourManaged: Bool) throws(VipsError) -> DecodedImage
    ) throws(VipsError) -> DecodedImage {
        do {
            return try attempt(true)
        } catch where transforms {
            return try attempt(false)
        }
    }

    /// libvips' decode: shrink-on-load (JPEG DCT scaling, see `jpegShrink`), orientation,
    /// profile conversion when `colourManaged`, 8-bit sRGB, held in memory without metadata.
    /// `primaryImage`: load a HEIF's primary image and shrink it, never its embedded thumbnail.
    /// `route`: the toolkit's own paths for the format's codec (`LibvipsStillRoute`).
    private static func decodeWithLibvips(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, allowUpscale: Bool,
        colourManaged: Bool, failOn: DecodeFailure, route: LibvipsStillRoute, stop: DecodeGuard?,
        primaryImage: Bool = false
    ) throws(VipsError) -> DecodedImage {
        if !allowUpscale, let decoded = try resampledDecode(bytes, header: header, width: width, height: height,
                                                            colourManaged: colourManaged, failOn: failOn, route: route,
                                                            stop: stop) {
            return decoded
        }
        let thumbnail: VipsOperationCall
        // The load of a format without shrink-on-load, kept until the pixels are in memory
        // (it retains the source or memfd its loader reads).
        var wholeLoad: VipsOperationCall?
        defer { withExtendedLifetime(wholeLoad) {} }
        // CMYK (a TIFF, an enlarged JPEG) is converted whole by `icc_transform` before the
        // thumbnail, as `convertsCMYKThroughICC` says why; libvips' thumbnail converts CMYK
        // before it shrinks as well, so the work is the same.
        let cmykFirst = convertsCMYKThroughICC(header, colourManaged: colourManaged)
        if header.format.loadsWhole || cmykFirst || primaryImage, let loader = ImageHeaderReader.loaderName(for: header.format) {
            // Loaders without shrink-on-load (`StillLoading.loadsWhole`) are called by name
            // (never picked by content): load, turn the rows upright if the loader returns them
            // as stored, then thumbnail the image. Linear-light formats are first exposed for display.
            let load = try ImageHeaderReader.loaderCall(loader, bytes: bytes, format: header.format)
            if header.format.handling.still?.viaImageMagick != true { try load.set("fail_on", .nick(failOn.rawValue)) }
            try load.build()
            wholeLoad = load
            var loaded = try StoredRowOrder.upright(try load.outputImage(), format: header.format)
            if header.format.isLinearLight {
                loaded = try LinearLightExposure.displayReferred(loaded, format: header.format)
            }
            if cmykFirst { loaded = try iccTransformToSRGB(loaded, fallbackProfile: "cmyk") }
            thumbnail = try VipsOperationCall("thumbnail_image")
            try thumbnail.set("in", .image(loaded))
        } else if route.dctShrinkOnLoad, !allowUpscale,
           let shrink = jpegShrink(header, width: width, height: height), shrink > 1 {
            // JPEG: libvips' thumbnail only lets libjpeg scale the DCT while the rest of the
            // reduction is at least 2×, so a 12 MP photo made into a 1600 px image is decoded
            // whole. Like Pillow's draft mode, decode at the smallest 1/2, 1/4 or 1/8 scale
            // that still covers the target, then reduce the rest with lanczos3.
            let load = try VipsOperationCall("jpegload_buffer")
            try load.set("buffer", .borrowedBlob(bytes))
            try load.set("shrink", .int(shrink))
            try load.set("fail_on", .nick(failOn.rawValue))
            try load.build()
            thumbnail = try VipsOperationCall("thumbnail_image")
            try thumbnail.set("in", .image(try load.outputImage()))
        } else {
            thumbnail = try VipsOperationCall("thumbnail_buffer")
            try thumbnail.set("buffer", .borrowedBlob(bytes))
            // A truncated file must fail rather than come out grey at the bottom. libvips 8.14's
            // thumbnail_buffer only passes fail_on to the loader through the option string.
            try thumbnail.set("option_string", .string("fail_on=\(failOn.rawValue)"))
        }
        // An orientation from outside the file is applied after the shrink: the box is
        // fitted in the stored orientation, then the pixels are turned.
        let pending = header.orientationIsExternal ? header.orientation : 1
        try thumbnail.set("width", .int(max(1, pending >= 5 ? height : width)))
        try thumbnail.set("height", .int(max(1, pending >= 5 ? width : height)))
        try thumbnail.set("size", .nick(allowUpscale ? "both" : "down"))
        // libvips 8.14's thumbnail converts an RGB image with an embedded profile (Display
        // P3, Adobe RGB, …) only when an export profile is named, and with an export profile
        // but no import profile it shifts untagged RGB colours; so a tagged image gets both
        // (sRGB as the fallback import) and an untagged one, already taken as sRGB, neither,
        // which also spares it a needless per-pixel transform. CMYK always goes through a
        // profile, libvips' CMYK one when none is embedded; only CMYK that is not a JPEG, or a
        // JPEG being enlarged, comes here (`convertsCMYKThroughICC`), and libvips 8.14's thumbnail
        // converts it with `colourspace`, whose D50→D65 XYZ scaling moves saturated colours.
        // Grey is converted only when it carries its own profile.
        if colourManaged {
            switch header.colourSpace {
            case .rgb where header.hasProfile && !header.profileIsSRGB:
                try thumbnail.set("import_profile", .string("srgb"))
                try thumbnail.set("export_profile", .string("srgb"))
            case .cmyk where !cmykFirst:
                try thumbnail.set("import_profile", .string("cmyk"))
                try thumbnail.set("export_profile", .string("srgb"))
            case .grey where header.hasProfile, .other where header.hasProfile:
                try thumbnail.set("export_profile", .string("srgb"))
            default:
                break
            }
        }
        try thumbnail.build()
        var image = try thumbnail.outputImage()
        if pending != 1 { image = try oriented(image, pending) }
        image = try eightBitDisplayColour(image)
        // The pixels are computed here (every loader is lazy); `materialised` lets the
        // decode's guard stop it between tiles.
        let memory = try image.materialised(stop: stop)
        for field in memory.fieldNames where !coreFields.contains(field) {
            memory.removeField(field)
        }
        var transparent = false
        if FastPaths.allows(.opaqueAlpha), let resolved = try OpaqueAlpha.resolved(memory) {
            return DecodedImage(image: resolved.image, hasRealTransparency: resolved.transparent)
        }
        if memory.hasAlpha {
            transparent = try minimumAlpha(memory) < 255
            if !transparent {
                // An alpha channel that is opaque everywhere carries nothing: drop it once here.
                return DecodedImage(image: try flatten(memory), hasRealTransparency: false)
            }
        }
        return DecodedImage(image: memory, hasRealTransparency: transparent)
    }

    /// The route's decode into memory and the toolkit's resampler (`LibvipsStillRoute.resampled`),
    /// or nil when the route has none, the fast paths are off, or it declines the image.
    private static func resampledDecode(
        _ bytes: UnsafeRawBufferPointer, header: ImageHeader, width: Int, height: Int, colourManaged: Bool,
        failOn: DecodeFailure, route: LibvipsStillRoute, stop: DecodeGuard?
    ) throws(VipsError) -> DecodedImage? {
        switch route.resampled {
        case .jpeg?:
            guard FastPaths.enabled,
                  (header.bands == 3 || header.bands == 1)
                   && (header.colourSpace == .rgb || (header.colourSpace == .grey && !header.hasProfile))
                   || convertsCMYKThroughICC(header, colourManaged: colourManaged) else { return nil }
            return try JPEGResampledDecode.decode(bytes, header: header, width: width, height: height,
                                                  colourManaged: colourManaged, failOn: failOn, stop: stop)
        case .png?:
            guard FastPaths.allows(.pngResampledDecode) else { return nil }
            return try PNGResampledDecode.decode(bytes, header: header, width: width, height: height,
                                                 colourManaged: colourManaged, failOn: failOn, stop: stop)
        case nil:
            return nil
        }
    }

    /// A HEIC or AVIF decoded in-process (`HEIFHEVCDecoder`, `AVIFAV1Decoder`: already fitted,
    /// its turn still to do) as a libvips image, upright and converted to sRGB (see
    /// `decodedHEIC`); the decode is done once, only the colour conversion is retried without
    /// colour management when its profile is unusable. `stop`: the decode's guard, which may
    /// stop libvips' colour conversion between tiles.
    package static func decode(heic fast: HEIFDecodedRGB, stop: DecodeGuard? = nil) throws(VipsError) -> DecodedImage {
        let transforms = fast.iccProfile != nil || fast.builtInProfile != nil
        return try withoutUnusableProfile(transforms: transforms) { colourManaged throws(VipsError) in
            try decodedHEIC(fast, colourManaged: colourManaged, stop: stop)
        }
    }

    /// A HEIC decoded by `HEIFHEVCDecoder` (already fitted) as a libvips image: turned upright
    /// for its orientation and converted to sRGB from its ICC profile (relative intent, as
    /// libvips' thumbnail does) or from libvips' built-in Display P3 profile, then held in
    /// memory with no metadata fields. Turn and conversion are one pass where the profile is
    /// a matrix-shaper, else a turn and one kept lcms transform
    /// (`DirectProfileTransform.packedRGBToSRGB`); libvips' `icc_transform` when lcms cannot
    /// build that. Pixels already sRGB take one pass (the turn, or a copy) into the image.
    private static func decodedHEIC(_ fast: HEIFDecodedRGB, colourManaged: Bool,
                                    stop: DecodeGuard?) throws(VipsError) -> DecodedImage {
        let stored = fast.storedSize
        let managed = colourManaged && (fast.iccProfile != nil || fast.builtInProfile != nil)
        if managed, let profile = fast.iccProfile ?? (fast.builtInProfile == "p3" ? DirectProfileTransform.displayP3Profile : nil),
           let converted = try DirectProfileTransform.packedRGBToSRGB(fast.rgb, width: stored.width, height: stored.height,
                                                                      orientation: fast.orientation, profile: profile) {
            return DecodedImage(image: converted, hasRealTransparency: false)
        }
        guard managed else {
            let (image, target) = try VipsImageHandle.memoryImage(width: fast.width, height: fast.height, bands: 3,
                                                                  interpretation: VIPS_INTERPRETATION_sRGB)
            guard fast.rgb.count == stored.width * stored.height * 3 else {
                throw VipsError(message: "packed RGB of \(fast.rgb.count) bytes is not \(stored.width)×\(stored.height)×3")
            }
            fast.rgb.withUnsafeBufferPointer { source in
                if let base = source.baseAddress {
                    PixelOrientation.upright(base, width: stored.width, height: stored.height, bands: 3,
                                             orientation: fast.orientation, into: target)
                }
            }
            return DecodedImage(image: image, hasRealTransparency: false)
        }
        let upright = PixelOrientation.upright(fast.rgb, width: stored.width, height: stored.height, bands: 3,
                                               orientation: fast.orientation)
        var image = try VipsImageHandle.copyingPackedRGB(upright.pixels, width: fast.width, height: fast.height)
        let transform = try VipsOperationCall("icc_transform")
        if let profile = fast.iccProfile {
            profile.withUnsafeBytes { bytes in
                vips_image_set_blob_copy(image.pointer, VIPS_META_ICC_NAME, bytes.baseAddress, bytes.count)
            }
            try transform.set("embedded", .bool(true))
            try transform.set("input_profile", .string("srgb"))
        } else if let name = fast.builtInProfile {
            try transform.set("input_profile", .string(name))
        }
        try transform.set("in", .image(image))
        try transform.set("output_profile", .string("srgb"))
        try transform.set("intent", .nick("relative"))
        try transform.build()
        image = try eightBitDisplayColour(try transform.outputImage())
        let memory = try image.materialised(stop: stop)
        for field in memory.fieldNames where !coreFields.contains(field) {
            memory.removeField(field)
        }
        return DecodedImage(image: memory, hasRealTransparency: false)
    }

    /// `image` turned upright for EXIF orientation `orientation`: for 8-bit pixels already in
    /// memory (the JPEG decode's), one pass of `PixelOrientation` into a new memory image on
    /// this thread; otherwise libvips' `autorot` of a copy tagged with it (lazy, computed by
    /// the caller's sink). The same pixels, size, interpretation and resolution either way.
    static func oriented(_ image: VipsImageHandle, _ orientation: Int) throws(VipsError) -> VipsImageHandle {
        if (2...8).contains(orientation), let pixels = image.memoryPixels {
            let size = PixelOrientation.uprightSize(width: image.width, height: image.height, orientation: orientation)
            let (upright, target) = try VipsImageHandle.memoryImage(
                width: size.width, height: size.height, bands: image.bands, interpretation: image.interpretation,
                resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
            PixelOrientation.upright(pixels, width: image.width, height: image.height, bands: image.bands,
                                     orientation: orientation, into: target)
            return upright
        }
        return try libvipsOriented(image, orientation)
    }

    /// libvips' `autorot` of a copy of `image` tagged with `orientation` (lazy).
    static func libvipsOriented(_ image: VipsImageHandle, _ orientation: Int) throws(VipsError) -> VipsImageHandle {
        let copy = try VipsOperationCall("copy")
        try copy.set("in", .image(image))
        try copy.build()
        let tagged = try copy.outputImage()
        vips_image_set_int(tagged.pointer, VIPS_META_ORIENTATION, Int32(orientation))
        let autorot = try VipsOperationCall("autorot")
        try autorot.set("in", .image(tagged))
        try autorot.build()
        return try autorot.outputImage()
    }

    /// Whether a CMYK image is converted to sRGB by an ICC transform before any resize (every
    /// colour-managed 4-band one): a JPEG by `JPEGResampledDecode` (lcms unoptimised up to
    /// `DirectProfileTransform.maxPixels`, libvips' `icc_transform` above), any other format
    /// by `icc_transform` ahead of `thumbnail_image`. From its embedded profile, else libvips'
    /// CMYK one; relative colorimetric without black-point compensation, which is what lcms'
    /// own `jpgicc -t 1` and Pillow's ImageCms give (blue marker of cmyk.jpg (45, 71, 144), see
    /// CMYKColourTests). libvips' `thumbnail` is not left to convert them: it uses
    /// `colourspace`, which imports to D50 XYZ and reaches D65 by scaling X, Y and Z (not the
    /// Bradford adaptation ICC profiles use), moving saturated colours (that blue became
    /// (6, 73, 143)). A pure test of the header; costs nothing.
    static func convertsCMYKThroughICC(_ header: ImageHeader, colourManaged: Bool) -> Bool {
        header.colourSpace == .cmyk && header.bands == 4 && colourManaged
    }

    /// The largest libjpeg scale denominator (1, 2, 4 or 8) whose output still covers the
    /// `width`×`height` target box (display orientation), or nil when the target is not
    /// smaller than the image. The output is counted as libvips' loader and `DirectJPEGDecode`
    /// size it, ⌊stored / n⌋ on each side: counted as libjpeg's ⌈stored / n⌉, a 3×8000 JPEG
    /// for a 1600 px box got n = 4, which libvips loads as a 0-pixel-wide image and
    /// aborts the process on (its sanity assertion).
    static func jpegShrink(_ header: ImageHeader, width: Int, height: Int) -> Int? {
        let swapped = header.orientation >= 5
        let targetWidth = swapped ? height : width, targetHeight = swapped ? width : height
        // The box fitted inside the image: whichever side binds decides the scale.
        let scale = min(Double(targetWidth) / Double(max(1, header.storedWidth)),
                        Double(targetHeight) / Double(max(1, header.storedHeight)))
        guard scale < 1 else { return nil }
        let neededWidth = Int((Double(header.storedWidth) * scale).rounded(.up))
        let neededHeight = Int((Double(header.storedHeight) * scale).rounded(.up))
        for shrink in [8, 4, 2] {
            let w = header.storedWidth / shrink, h = header.storedHeight / shrink
            if w >= neededWidth && h >= neededHeight { return shrink }
        }
        return 1
    }

    /// Header fields that are not metadata; everything else (EXIF, XMP, IPTC, ICC, GPS,
    /// orientation, comments, loader extras) is removed so no rendition can carry it.
    static let coreFields: Set<String> = [
        "width", "height", "bands", "format", "coding", "interpretation",
        "xoffset", "yoffset", "xres", "yres", "filename",
    ]

    /// `image` converted to 8-bit sRGB by libvips' `icc_transform` (lazy): from its embedded
    /// profile, else (none, or one that does not fit its bands) the built-in `fallbackProfile`
    /// (`cmyk` or `srgb`); relative colorimetric, no black-point compensation, lcms' optimised
    /// tables (tens of milliseconds of set-up for a lookup-table profile).
    static func iccTransformToSRGB(_ image: VipsImageHandle, fallbackProfile: String) throws(VipsError) -> VipsImageHandle {
        let icc = try VipsOperationCall("icc_transform")
        try icc.set("in", .image(image))
        try icc.set("embedded", .bool(true))
        try icc.set("input_profile", .string(fallbackProfile))
        try icc.set("output_profile", .string("srgb"))
        try icc.set("intent", .nick("relative"))
        try icc.build()
        return try eightBitDisplayColour(try icc.outputImage())
    }

    /// Converts whatever the loader produced (16-bit RGB or grey, CMYK without a profile,
    /// LAB, float) to 8-bit sRGB, or 8-bit grey for grey sources.
    static func eightBitDisplayColour(_ image: VipsImageHandle) throws(VipsError) -> VipsImageHandle {
        let interpretation = image.interpretation
        let isGrey = interpretation == VIPS_INTERPRETATION_B_W || interpretation == VIPS_INTERPRETATION_GREY16
        let ok = image.format == VIPS_FORMAT_UCHAR
            && (interpretation == VIPS_INTERPRETATION_sRGB || interpretation == VIPS_INTERPRETATION_B_W)
        if ok { return image }
        let convert = try VipsOperationCall("colourspace")
        try convert.set("in", .image(image))
        try convert.set("space", .nick(isGrey ? "b-w" : "srgb"))
        try convert.build()
        var converted = try convert.outputImage()
        if converted.format != VIPS_FORMAT_UCHAR {
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(converted))
            try cast.set("format", .nick("uchar"))
            try cast.build()
            converted = try cast.outputImage()
        }
        return converted
    }

    private static func minimumAlpha(_ image: VipsImageHandle) throws(VipsError) -> Double {
        let extract = try VipsOperationCall("extract_band")
        try extract.set("in", .image(image))
        try extract.set("band", .int(image.bands - 1))
        try extract.build()
        let alpha = try extract.outputImage()
        let minimum = try VipsOperationCall("min")
        try minimum.set("in", .image(alpha))
        try minimum.build()
        return try minimum.outputDouble()
    }

    /// Composites the image on the flatten background and drops the alpha channel.
    static func flatten(_ image: VipsImageHandle) throws(VipsError) -> VipsImageHandle {
        let flatten = try VipsOperationCall("flatten")
        try flatten.set("in", .image(image))
        let background = image.bands <= 2 ? [Defaults.flattenBackground[0]] : Defaults.flattenBackground
        try flatten.set("background", .doubles(background))
        try flatten.build()
        return try flatten.outputImage()
    }
}
