import CVips
import JournalMediaCore

/// Owns one reference to a `VipsImageHandle`; the reference is dropped in `deinit`, so no path,
/// error paths included, can leak an image. An image is lazy: holding one costs a header,
/// its pixels are computed when something (a save, `materialised()`) asks for them.
///
/// Not Sendable: an image is built and consumed on one thread.
package final class VipsImageHandle {
    let pointer: UnsafeMutablePointer<CVips.VipsImage>

    /// Takes ownership of a reference the caller already holds.
    package init(owning pointer: UnsafeMutablePointer<CVips.VipsImage>) {
        self.pointer = pointer
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    package var width: Int { Int(vips_image_get_width(pointer)) }
    package var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }
    package var format: VipsBandFormat { vips_image_get_format(pointer) }
    var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// Number of pages in a multi-page source as its loader reports it (1 when absent).

    /// EXIF orientation 1–8 as the loader found it, 1 when absent or out of range.
    package var orientation: Int {
        guard let value = intField(VIPS_META_ORIENTATION), (1...8).contains(value) else { return 1 }
        return value
    }

    func hasField(_ name: String) -> Bool {
        vips_image_get_typeof(pointer, name) != 0
    }

    func intField(_ name: String) -> Int? {
        guard hasField(name) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, name, &value) == 0 else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        return Int(value)
    }

    /// The names of every metadata field on the image.
    var fieldNames: [String] {
        guard let fields = vips_image_get_fields(pointer) else { return [] }
        defer { g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let field = fields[index] {
            names.append(String(cString: field))
            index += 1
        }
        return names
    }

    /// The pixels of an image held in memory as 8-bit samples of 1–4 bands, rows packed (one
    /// this code or a sink wrote); nil for a lazy image or another format.
    var memoryPixels: UnsafePointer<UInt8>? {
        let image = pointer.pointee
        guard image.dtype == VIPS_IMAGE_SETBUF || image.dtype == VIPS_IMAGE_SETBUF_FOREIGN,
              image.BandFmt == VIPS_FORMAT_UCHAR, image.Coding == VIPS_CODING_NONE, (1...4).contains(Int(image.Bands)),
              let data = image.data else { return nil }
        return UnsafePointer(data)
    }

    /// Computes every pixel into a new in-memory image (the decode happens here for a lazy
    /// image); later reads of the result cost no further decoding.
    /// Stops early (libvips' kill flag) when `stop`, the work's guard, says stop; nil: runs to
    /// the end (a card's small layer, a test).
    func materialised(stop: DecodeGuard? = nil) throws(VipsError) -> VipsImageHandle {
        try VipsInterrupt.watch(self, stop: stop)
        VipsRuntime.beginCall()
        guard let copied = vips_image_copy_memory(pointer) else {
            throw VipsError(message: VipsRuntime.failureMessage("decoding the pixels into memory"))
        }
        return VipsImageHandle(owning: copied)
    }

    /// Removes a metadata field from this image's header. Only call this on an image this
    /// code created (a `copy`), never on one a loader may share.
    func removeField(_ name: String) {
        _ = vips_image_remove(pointer, name)
    }
}
