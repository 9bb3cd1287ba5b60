import CVips
import JournalMediaCore

/// Makes one rendition from a decoded image: one resize (Lanczos-3, `InMemoryResize`), an attention crop for
/// `cover` specs, flattening on white when the output format has no alpha, and one encode
/// to memory with all metadata stripped. A spec with a byte limit (`maxBytes`, and every
/// `notification` spec) is re-encoded at lower quality, then smaller, until it fits
/// (`BytesLimitFitting`); a notification attachment also gets its type and thumbnail
/// clipping rectangle (`AttentionSquare`).
///
/// Runs once per spec on the processor's thread; costs one resize and one encode (more for
/// a spec whose first encode is over its byte limit).
package enum RenditionRenderer {
    /// The size a spec's output takes for a source of `sourceWidth`×`sourceHeight` (display
    /// orientation), before any `cover` crop. Raster sources are never enlarged.
    package static func scaledSize(
        for spec: RenditionSpec, sourceWidth: Int, sourceHeight: Int, allowUpscale: Bool
    ) -> (width: Int, height: Int) {
        let w = Double(max(1, sourceWidth)), h = Double(max(1, sourceHeight))
        let sx = Double(spec.width) / w, sy = Double(spec.height) / h
        var scale = spec.fit == .inside ? min(sx, sy) : max(sx, sy)
        if !allowUpscale { scale = min(scale, 1) }
        return (max(1, Int((w * scale).rounded())), max(1, Int((h * scale).rounded())))
    }

    package static func render(
        _ decoded: DecodedImage, spec: RenditionSpec, sourceWidth: Int, sourceHeight: Int, allowUpscale: Bool,
        stop: DecodeGuard? = nil
    ) throws(VipsError) -> Rendition {
        var image = decoded.image
        var target = scaledSize(for: spec, sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                                allowUpscale: allowUpscale)
        // The decode may come out a pixel smaller than computed; never enlarge to make it up.
        target.width = min(target.width, image.width)
        target.height = min(target.height, image.height)
        if target.width != image.width || target.height != image.height, FastPaths.enabled,
           let resized = try InMemoryResize.resized(image, width: target.width, height: target.height, stop: stop) {
            image = resized
        } else if target.width != image.width || target.height != image.height {
            let resize = try VipsOperationCall("resize")
            try resize.set("in", .image(image))
            try resize.set("scale", .double(Double(target.width) / Double(image.width)))
            try resize.set("vscale", .double(Double(target.height) / Double(image.height)))
            try resize.set("kernel", .nick("lanczos3"))
            try resize.build()
            image = try resize.outputImage()
        }
        if spec.fit == .cover && (image.width > spec.width || image.height > spec.height) {
            let crop = try VipsOperationCall("smartcrop")
            try crop.set("input", .image(image))
            try crop.set("width", .int(min(spec.width, image.width)))
            try crop.set("height", .int(min(spec.height, image.height)))
            try crop.set("interesting", .nick("attention"))
            try crop.build()
            image = try crop.outputImage()
        }
        let format = spec.outputFormat(transparent: decoded.hasRealTransparency)
        if image.hasAlpha && !format.carriesAlpha {
            image = try ImageDecoder.flatten(image)
        }
        guard let limit = spec.byteLimit else {
            let data = try encode(image, format: format, spec: spec, quality: spec.quality, stop: stop)
            return Rendition(role: spec.role, format: format, width: image.width, height: image.height, data: data)
        }
        let fitted = try BytesLimitFitting.fit(image, limit: limit, format: format,
                                               quality: spec.quality) { image, quality throws(VipsError) in
            try encode(image, format: format, spec: spec, quality: quality, stop: stop)
        }
        var rendition = Rendition(role: spec.role, format: format, width: fitted.image.width,
                                  height: fitted.image.height, data: fitted.data)
        if spec.isNotification {
            rendition.attachment = NotificationAttachment(
                uti: format.uniformTypeIdentifier, limitBytes: NotificationLimits.bytes(for: format),
                thumbnailClippingRect: try AttentionSquare.clippingRect(of: fitted.image))
        }
        return rendition
    }

    /// WebP effort when a spec names none. Measured on real photos:
    /// effort 2 encodes a 512 px thumbnail in about half the CPU time of libvips' default 4
    /// for ~2 % more bytes; 3 costs as much as 4.
    static let defaultWebPEffort = 2

    /// PNG zlib level and row filter when a spec names no `compression` and has no byte
    /// limit: level 2 with the "up" filter. On photo-like 1600×1200 images
    /// it encodes in under half the CPU of libvips' default (level 6, no filter) and writes
    /// ~20 % fewer bytes; flat graphics grow (~3× on a two-colour test card), which a spec
    /// can undo with `compression`. Byte-limited specs keep level 6 (smaller for graphics).
    static let fastPNGCompression = 2
    static let fastPNGFilter = "up"

    /// Whether a JPEG encode optimises its Huffman tables: about twice the encode's CPU for
    /// ~1.4 % fewer bytes, so only when asked (`effort` ≥ 4) or when
    /// the spec has a byte limit to meet.
    static func optimizesCoding(_ spec: RenditionSpec) -> Bool {
        (spec.effort ?? 0) >= 4 || spec.byteLimit != nil
    }

    /// libvips' chroma subsampling nick for a JPEG spec (4:2:0 unless the spec says otherwise).
    static func subsampleMode(_ spec: RenditionSpec) -> String { spec.chromaSubsampling?.rawValue ?? "on" }

    /// The WebP or JPEG encode on the calling thread (`DirectWebPEncode`, `DirectJPEGEncode`)
    /// when the image is an 8-bit one in memory, with the settings `encode` gives libvips, and
    /// the default-settings PNG encode (`DirectPNGEncode`, own deflate); nil for other formats
    /// and images, which libvips encodes.
    private static func directEncode(_ image: VipsImageHandle, format: RenditionFormat,
                                     spec: RenditionSpec, quality: Int, stop: DecodeGuard?) throws(VipsError) -> [UInt8]? {
        guard FastPaths.enabled else { return nil }
        switch format {
        case .webp:
            return try DirectWebPEncode.encode(image, quality: quality, effort: spec.effort ?? defaultWebPEffort, stop: stop)
        case .jpeg:
            return try DirectJPEGEncode.encode(image, quality: quality, optimizeCoding: optimizesCoding(spec),
                                               progressive: spec.progressive ?? false,
                                               subsampleMode: subsampleMode(spec), stop: stop)
        case .png where spec.compression == nil && spec.byteLimit == nil && FastPaths.allows(.pngEncode):
            return try DirectPNGEncode.encode(image, stop: stop)
        default:
            return nil
        }
    }

    /// One encode to memory with the spec's settings for its format (quality; WebP effort;
    /// JPEG Huffman optimisation, chroma subsampling, progressive; PNG compression; AVIF and
    /// JPEG XL effort).
    private static func encode(_ image: VipsImageHandle, format: RenditionFormat,
                               spec: RenditionSpec, quality: Int, stop: DecodeGuard?) throws(VipsError) -> [UInt8] {
        if let direct = try directEncode(image, format: format, spec: spec, quality: quality, stop: stop) { return direct }
        try VipsInterrupt.watch(image, stop: stop)
        let save: VipsOperationCall
        switch format {
        case .webp:
            save = try VipsOperationCall("webpsave_buffer")
            try save.set("in", .image(image))
            try save.set("Q", .int(quality))
            try save.set("effort", .int(spec.effort ?? defaultWebPEffort))
        case .jpeg:
            save = try VipsOperationCall("jpegsave_buffer")
            try save.set("in", .image(image))
            try save.set("Q", .int(quality))
            try save.set("optimize_coding", .bool(optimizesCoding(spec)))
            try save.set("interlace", .bool(spec.progressive ?? false))
            try save.set("subsample_mode", .nick(subsampleMode(spec)))
        case .png:
            save = try VipsOperationCall("pngsave_buffer")
            try save.set("in", .image(image))
            if let compression = spec.compression {
                try save.set("compression", .int(compression))
            } else if spec.byteLimit == nil {
                try save.set("compression", .int(fastPNGCompression))
                try save.set("filter", .nick(fastPNGFilter))
            }
        case .avif:
            save = try VipsOperationCall("heifsave_buffer")
            try save.set("in", .image(image))
            try save.set("compression", .nick("av1"))
            try save.set("Q", .int(quality))
            if let effort = spec.effort { try save.set("effort", .int(effort)) }
        case .jxl:
            save = try VipsOperationCall("jxlsave_buffer")
            try save.set("in", .image(image))
            try save.set("Q", .int(quality))
            if let effort = spec.effort { try save.set("effort", .int(effort)) }
        case .gif, .mp4, .m4a, .mp3:
            throw VipsError(message: "\(format.rawValue) is not a still rendition format")
        }
        try save.set("strip", .bool(true))
        try save.build()
        let bytes = try save.outputBytes()
        return format == .webp ? WebPMetadataRemover.removingMetadata(bytes) : bytes
    }
}
