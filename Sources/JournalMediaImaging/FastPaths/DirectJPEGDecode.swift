import CJPEGDecode
import CVips
import JournalMediaCore

/// A JPEG decoded by libjpeg-turbo on the calling thread (`CJPEGDecode`) straight into a
/// libvips memory image, in place of libvips' `jpegload_buffer` followed by a sink into
/// memory, which ran the decode on a libvips worker thread while this one waited, handing
/// over every 8-row strip (issue 19: ~135 context switches per small JPEG).
///
/// The same samples as the linked libvips' loader, byte for byte: the same DCT scale from
/// `shrink`, libjpeg's default output colour space, DCT method and upsampling, CMYK inverted
/// (Adobe marker or not), the size rounded down as libvips does, the file read in libvips' 4 KB chunks
/// (libjpeg-turbo's warnings depend on them). The same failures: a file that ends early
/// fails with "VipsJpeg: Premature end of input file"; with `failOn: .warning` a libjpeg
/// warning ("VipsJpeg: Corrupt JPEG data: …") fails it where libvips' would. The image is
/// tagged with the interpretation libvips gives (sRGB, B_W or CMYK) and the header's
/// resolution; the ICC profile is returned as bytes, assembled as libvips does.
///
/// Runs inside `JPEGResampledDecode.decode`; costs the decode at the DCT scale and one
/// image buffer of its size (libvips also held a strip cache). The decode's guard (`stop`)
/// is checked every 64 rows: a stopped guard ends the decode with the same
/// error text as libvips' interruption (`VipsInterrupt.message`).
enum DirectJPEGDecode {
    /// The decoded image and the file's embedded ICC profile (nil when it has none).
    struct Decoded {
        let image: VipsImageHandle
        let profile: [UInt8]?
    }

    /// Rows decoded between two looks at the guard.
    static let rowsBetweenChecks = 64

    /// Decodes `bytes` at 1/`shrink`, or returns nil for a colour space or component count
    /// this path does not take (the caller then lets libvips load the file).
    static func decode(_ bytes: UnsafeRawBufferPointer, shrink: Int, failOn: ImageDecoder.DecodeFailure,
                       resolution: (x: Double, y: Double), stop watching: DecodeGuard? = nil) throws(VipsError) -> Decoded? {
        try VipsInterrupt.check(watching)
        guard let base = bytes.baseAddress,
              let decode = jm_jpeg_decode_open(base, bytes.count, Int32(shrink), failOn == .warning ? 1 : 0) else {
            throw VipsError(message: "VipsJpeg: cannot start the decode (no input or out of memory)")
        }
        defer { jm_jpeg_decode_close(decode) }
        if jm_jpeg_decode_failed(decode) != 0 { throw failure(decode) }
        let interpretation: VipsInterpretation
        switch jm_jpeg_decode_colour(decode) {
        case JM_JPEG_GREY: interpretation = VIPS_INTERPRETATION_B_W
        case JM_JPEG_RGB: interpretation = VIPS_INTERPRETATION_sRGB
        case JM_JPEG_CMYK: interpretation = VIPS_INTERPRETATION_CMYK
        default: return nil
        }
        let width = Int(jm_jpeg_decode_width(decode)), height = Int(jm_jpeg_decode_height(decode))
        let bands = Int(jm_jpeg_decode_colour(decode).rawValue)
        let (image, pixels) = try VipsImageHandle.memoryImage(width: width, height: height, bands: bands,
                                                              interpretation: interpretation, resolution: resolution)
        let stride = width * bands
        var row = 0
        while row < height {
            if let watching, let reason = watching.stopReason {
                watching.noteComputationStopped(atPercent: row * 100 / height)
                throw VipsError(message: VipsInterrupt.message(reason))
            }
            let rows = min(rowsBetweenChecks, height - row)
            if jm_jpeg_decode_rows(decode, pixels + row * stride, stride, Int32(rows)) != 0 { throw failure(decode) }
            row += rows
        }
        var length = 0
        let profile = jm_jpeg_decode_profile(decode, &length).map { [UInt8](UnsafeBufferPointer(start: $0, count: length)) }
        return Decoded(image: image, profile: profile)
    }

    /// libjpeg's message in libvips' words ("VipsJpeg: …"), so users, logs and the lenient
    /// retry (`AssetErrorReason.inferred`) read what libvips' loader said.
    private static func failure(_ decode: OpaquePointer) -> VipsError {
        let text = String(cString: jm_jpeg_decode_message(decode))
        return VipsError(message: "VipsJpeg: " + (text.isEmpty ? "decode failed without a message" : text))
    }
}
