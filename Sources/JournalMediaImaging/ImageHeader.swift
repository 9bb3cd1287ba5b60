import CVips
import JournalMediaCore
import JournalMediaHEIF

/// What an image's header says, read before any pixel is decoded.
package struct ImageHeader {
    package var format: SourceFormat
    /// Stored size, before orientation.
    package var storedWidth: Int
    package var storedHeight: Int
    /// EXIF orientation 1–8 (1 when absent). libheif applies HEIF transforms itself and
    /// libvips then reports 1, so HEIC rotation is never applied twice.
    package var orientation: Int
    /// `orientation` came from outside the file (an XMP sidecar's `tiff:Orientation`): the
    /// loaders do not apply it, so the decode turns the pixels itself.
    package var orientationIsExternal = false
    var bands: Int
    package var hasAlpha: Bool
    /// More than 8 bits per sample (10/12/16-bit: the loader gives 16-bit samples).
    package var highBitDepth = false
    var colourSpace: ColourSpace
    /// The file embeds an ICC profile.
    var hasProfile: Bool
    /// lcms can convert from the embedded profile to sRGB (true when there is none). A
    /// device-link or named-colour profile, a malformed one, or one for another colour space
    /// is not usable: the pixels are then taken as they are, without colour management.
    var profileUsable = true
    /// The embedded profile is sRGB in all but name (`SRGBProfileMatch`): no transform needed.
    var profileIsSRGB = false
    /// Resolution in pixels per millimetre as libvips' loader reports it (JFIF density, then
    /// EXIF's); 1 when the file gives none. The direct JPEG decode tags its image with it.
    var resolution: (x: Double, y: Double) = (1, 1)

    /// The family of the stored pixels, which decides how colour management starts.
    enum ColourSpace { case rgb, cmyk, grey, other }

    /// Size after orientation: 5–8 swap width and height.
    package var displayWidth: Int { orientation >= 5 ? storedHeight : storedWidth }
    package var displayHeight: Int { orientation >= 5 ? storedWidth : storedHeight }
    package var pixelCount: Int { storedWidth.multipliedReportingOverflow(by: storedHeight).partialValue }

    /// The display size fitted inside `width`×`height`, never enlarged, each side rounded and
    /// at least 1: the size the renditions' `scaledSize` gives this image for that box.
    func fittedDisplaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(Double(width) / Double(max(1, displayWidth)), Double(height) / Double(max(1, displayHeight)), 1)
        return (max(1, Int((Double(displayWidth) * scale).rounded())),
                max(1, Int((Double(displayHeight) * scale).rounded())))
    }
}

/// Reads an image header from memory through the loader for its sniffed format.
///
/// Runs once per asset before decoding; costs the header parse only (for JPEG the markers,
/// for HEIC the box structure), not the pixels.
package enum ImageHeaderReader {
    /// The libvips loader for an image format (its handler's `StillLoading.loader`); nil for
    /// video, audio and metadata-only formats.
    static func loaderName(for format: SourceFormat) -> String? { format.handling.still?.loader }

    package static func read(_ bytes: UnsafeRawBufferPointer, format: SourceFormat) throws(VipsError) -> ImageHeader {
        guard let loader = loaderName(for: format) else { throw VipsError(message: "not an image format") }
        let load = try loaderCall(loader, bytes: bytes, format: format)
        do { try load.build() } catch { throw MemoryFile.withoutPath(error) }
        let image = try load.outputImage()
        let space: ImageHeader.ColourSpace = switch image.interpretation {
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_RGB, VIPS_INTERPRETATION_RGB16, VIPS_INTERPRETATION_scRGB:
            image.bands >= 3 ? .rgb : .other
        case VIPS_INTERPRETATION_CMYK: .cmyk
        case VIPS_INTERPRETATION_B_W, VIPS_INTERPRETATION_GREY16: .grey
        default: .other
        }
        var header = ImageHeader(
            format: format, storedWidth: image.width, storedHeight: image.height,
            orientation: image.orientation, bands: image.bands, hasAlpha: image.hasAlpha,
            colourSpace: space, hasProfile: image.hasField(VIPS_META_ICC_NAME))
        if LibvipsStillRoute.of(format).turnedGridSize, let turned = heifTurnedSize(bytes, libvips: (image.width, image.height)) {
            (header.storedWidth, header.storedHeight) = turned
        }
        header.resolution = (image.pointer.pointee.Xres, image.pointer.pointee.Yres)
        header.highBitDepth = image.format == VIPS_FORMAT_USHORT || image.format == VIPS_FORMAT_FLOAT
            || format.isLinearLight
        // Radiance pixels are packed RGBE (4 bytes, no alpha); OpenEXR's alpha is kept as a channel.
        if image.pointer.pointee.Coding == VIPS_CODING_RAD { header.hasAlpha = false; header.colourSpace = .rgb }
        if header.hasProfile, space == .rgb, FastPaths.allows(.srgbProfileMatch), SRGBProfileMatch.matches(image) {
            header.profileIsSRGB = true
        } else if header.hasProfile {
            header.profileUsable = profileConverts(like: image, space: space)
        }
        return header
    }

    /// The size of a grid HEIC after its quarter turn when libvips reports it before the turn:
    /// The libheif libvips uses (docs/library-versions.md) takes a grid's `irot` into account only when the grid's `ispe` is listed
    /// before it in `ipma` (a Sony α7 IV's 7008×4672 `.HIF` lists `irot` first), reports the
    /// unturned size otherwise and then refuses to decode it ("bad image dimensions on
    /// decode"), while pillow-heif and the libavcodec path turn it. Nil when libvips' size is
    /// not the transpose of the file's own display size, or the file is not a grid the
    /// libavcodec path reads. Costs a walk of the `meta` box and a copy of the coded tiles for
    /// every grid HEIC (an iPhone's 1–3 MB).
    static func heifTurnedSize(_ bytes: UnsafeRawBufferPointer, libvips: (width: Int, height: Int)) -> (width: Int, height: Int)? {
        let source = BorrowedBytes(bytes: bytes)
        guard libvips.width != libvips.height, HEIFImageItems.isTiledGrid(in: source),
              let items = HEIFImageItems.primaryAndThumbnail(in: source) else { return nil }
        let size = items.primary.displaySize
        return size.width == libvips.height && size.height == libvips.width ? size : nil
    }

    /// A HEIC header read from the file's own boxes (`HEIFImageItems`), for a file libvips
    /// 8.14's HEIF loader refuses although the libavcodec path decodes it (a `colr` box that
    /// announces an ICC profile without bytes: photokit's test_live.HEIC): the size after the
    /// item's transforms with orientation 1 (the decoder applies them, as libheif does), RGB
    /// without alpha, and a profile only when it has bytes. Nil when the libavcodec path
    /// cannot take the file (alpha, AV1, a layout it does not read). Costs a walk of the
    /// `meta` box and a copy of the coded tiles.
    package static func heifWithoutLibvips(_ bytes: UnsafeRawBufferPointer) -> ImageHeader? {
        guard let items = HEIFImageItems.primaryAndThumbnail(in: BorrowedBytes(bytes: bytes)) else { return nil }
        let size = items.primary.displaySize
        guard size.width > 0, size.height > 0 else { return nil }
        let profile = items.primary.iccProfile.map { !$0.isEmpty } ?? false
        return ImageHeader(format: .heic, storedWidth: size.width, storedHeight: size.height, orientation: 1,
                           bands: 3, hasAlpha: false, colourSpace: .rgb, hasProfile: profile)
    }

    /// The load operation for `bytes`, with its input set as the format's handler says
    /// (`StillLoading.input`): a buffer, a source over the bytes, or a memfd holding a copy of
    /// them (`MemoryFile`); ImageMagick's loader made available on first use; for an icon, its
    /// largest image (ImageMagick's page of the same index). The source or memfd is retained
    /// by the returned call: keep it alive until the pixels are computed.
    static func loaderCall(_ loader: String, bytes: UnsafeRawBufferPointer,
                           format: SourceFormat) throws(VipsError) -> VipsOperationCall {
        let still = format.handling.still
        if still?.viaImageMagick == true { try VipsRuntime.ensureMagickLoader() }
        let load = try VipsOperationCall(loader)
        switch still?.input ?? .buffer {
        case .source:
            let source = try VipsMemorySource(borrowing: bytes)
            try load.set("source", .source(source))
            load.retained.append(source)
        case .memoryFile(let name):
            let file = try MemoryFile(copying: bytes, name: name)
            try load.set("filename", .string(file.path))
            load.retained.append(file)
        case .buffer:
            try load.set("buffer", .borrowedBlob(bytes))
        }
        if still?.page == .largestIconEntry, let page = IconDirectory.largestImage(bytes), page > 0 {
            try load.set("page", .int(page))
        }
        return load
    }

    /// Whether the profile embedded in `image` converts to sRGB. Asked of lcms directly with an
    /// unoptimised transform the way `icc_transform`'s import decides
    /// (`DirectProfileTransform.transformBuilds`: well under a millisecond for any profile);
    /// for layouts that does not model, one pixel of the image's bands and format, carrying a
    /// copy of the profile, through the same `icc_transform` a decode would run (two optimised
    /// lcms set-ups in libvips: cheap for a matrix profile, costly for a lookup-table one). Deciding this from the header means a file is decoded once, never
    /// retried without colour management after a failed decode. The answer is remembered per
    /// profile (`ProfileUsabilityCache`); later images with the same profile pay one hash of its bytes.
    static func profileConverts(like image: VipsImageHandle, space: ImageHeader.ColourSpace) -> Bool {
        var length = 0
        var data: UnsafeRawPointer?
        guard vips_image_get_blob(image.pointer, VIPS_META_ICC_NAME, &data, &length) == 0, let data, length > 0 else {
            _ = VipsRuntime.takeErrorBuffer()
            return false
        }
        let key = ProfileUsabilityCache.Key(
            profile: Array(UnsafeRawBufferPointer(start: data, count: length)), bands: image.bands,
            format: Int(image.format.rawValue), interpretation: Int(image.interpretation.rawValue),
            cmyk: space == .cmyk)
        return ProfileUsabilityCache.converts(key) {
            (FastPaths.enabled ? DirectProfileTransform.transformBuilds(
                profile: UnsafeRawBufferPointer(start: data, count: length), bands: image.bands,
                format: image.format, interpretation: image.interpretation) : nil)
                ?? testTransform(like: image, space: space, profile: data, length: length)
        }
    }

    /// The one-pixel `icc_transform` behind `profileConverts`: true when it builds and runs.
    static func testTransform(like image: VipsImageHandle, space: ImageHeader.ColourSpace,
                                      profile data: UnsafeRawPointer, length: Int) -> Bool {
        do throws(VipsError) {
            let black = try VipsOperationCall("black")
            try black.set("width", .int(1))
            try black.set("height", .int(1))
            try black.set("bands", .int(image.bands))
            try black.build()
            let cast = try VipsOperationCall("cast")
            try cast.set("in", .image(try black.outputImage()))
            try cast.set("format", .int(Int(image.format.rawValue)))
            try cast.build()
            let tag = try VipsOperationCall("copy")
            try tag.set("in", .image(try cast.outputImage()))
            try tag.set("interpretation", .int(Int(image.interpretation.rawValue)))
            try tag.build()
            let pixel = try tag.outputImage()
            vips_image_set_blob_copy(pixel.pointer, VIPS_META_ICC_NAME, data, length)
            let transform = try VipsOperationCall("icc_transform")
            try transform.set("in", .image(pixel))
            try transform.set("embedded", .bool(true))
            try transform.set("input_profile", .string(space == .cmyk ? "cmyk" : "srgb"))
            try transform.set("output_profile", .string("srgb"))
            try transform.set("intent", .nick("relative"))
            try transform.build()
            _ = try transform.outputImage().materialised(stop: nil) // one pixel: nothing to stop
            return true
        } catch {
            return false
        }
    }
}

/// The directory of a Windows icon: which of its images is the largest.
enum IconDirectory {
    /// Index of the entry with the most pixels (a width or height byte of 0 means 256), or
    /// nil when the directory does not fit in `bytes`.
    static func largestImage(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count >= 6 else { return nil }
        let count = Int(bytes[4]) | Int(bytes[5]) << 8
        guard count > 0, bytes.count >= 6 + 16 * count else { return nil }
        var best = 0, bestPixels = -1
        for index in 0..<count {
            let entry = 6 + 16 * index
            let width = bytes[entry] == 0 ? 256 : Int(bytes[entry])
            let height = bytes[entry + 1] == 0 ? 256 : Int(bytes[entry + 1])
            if width * height > bestPixels { best = index; bestPixels = width * height }
        }
        return best
    }
}

extension SourceFormat {
    /// Formats the pipeline loads whole and then shrinks (`thumbnail_image`): their loaders
    /// have no shrink-on-load and are called by name, never picked by content
    /// (`StillLoading.loadsWhole`).
    package var loadsWhole: Bool { handling.still?.loadsWhole ?? false }
}
