import CFFmpeg

/// How a decoded HEVC picture's samples are laid out, read from libavutil's pixel-format
/// descriptor: planar Y'CbCr (any chroma subsampling of at most 2 each way) or luma alone,
/// 8 to 16 bits per sample, one component per plane, native little-endian words above 8 bits
/// (libavcodec's `yuv420p`, `yuv422p10le`, `yuv444p12le`, `gray10le`, …). Anything else
/// (alpha, packed, big-endian, bit-stream formats) has no layout and is declined with its name.
///
/// Made once per decoded HEIC picture by `HEIFPictureStream`; costs one descriptor lookup.
struct YUVPixelLayout: Equatable {
    let format: AVPixelFormat
    /// log2 of the chroma subsampling, horizontally and vertically.
    let shift: (x: Int, y: Int)
    /// 1 (luma) or 3 (Y'CbCr).
    let planeCount: Int
    /// Significant bits per sample, 8–16.
    let bitDepth: Int

    init?(_ format: AVPixelFormat) {
        guard let descriptor = av_pix_fmt_desc_get(format)?.pointee else { return nil }
        let components = Int(descriptor.nb_components)
        let unsupportedFlags = UInt64(AV_PIX_FMT_FLAG_BE | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM
            | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_ALPHA | AV_PIX_FMT_FLAG_FLOAT)
        guard components == 1 || components == 3, descriptor.flags & unsupportedFlags == 0,
              components == 1 || descriptor.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0,
              descriptor.log2_chroma_w <= 1, descriptor.log2_chroma_h <= 1 else { return nil }
        let parts = [descriptor.comp.0, descriptor.comp.1, descriptor.comp.2].prefix(components)
        let depth = Int(descriptor.comp.0.depth)
        guard (8...16).contains(depth) else { return nil }
        for (index, part) in parts.enumerated() {
            guard Int(part.plane) == index, part.offset == 0, part.shift == 0, Int(part.depth) == depth,
                  Int(part.step) == (depth > 8 ? 2 : 1) else { return nil }
        }
        self.format = format
        shift = (Int(descriptor.log2_chroma_w), Int(descriptor.log2_chroma_h))
        planeCount = components
        bitDepth = depth
    }

    static func == (a: YUVPixelLayout, b: YUVPixelLayout) -> Bool { a.format == b.format }

    /// libavutil's name of `format` ("yuv440p", "yuva420p", …), for the reason a picture is declined.
    static func name(_ format: AVPixelFormat) -> String {
        av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "pixel format \(format.rawValue)"
    }

    /// The size of plane `index` of a `width`×`height` picture (chroma rounded up).
    func planeSize(_ index: Int, width: Int, height: Int) -> (width: Int, height: Int) {
        guard index > 0 else { return (width, height) }
        return ((width + (1 << shift.x) - 1) >> shift.x, (height + (1 << shift.y) - 1) >> shift.y)
    }
}
