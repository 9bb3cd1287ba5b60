import CVips
import JournalMediaCore

/// The downscale of an 8-bit image held in memory by `SeparableResampler` (Lanczos-3),
/// returned as a new in-memory libvips image with the same bands and interpretation and no
/// metadata. Used by the rendition resizes and by the JPEG decode's remaining reduction
/// after DCT scaling, where libvips 8.14's `resize` (scalar `reduce`) was most of the CPU
/// time on 2–8 MP photos (measured figures in Benchmarks/RESULTS.md).
///
/// Runs on the calling thread; costs the resample plus one copy of the output pixels.
/// Declines (nil) what it does not handle, which the caller leaves to libvips: images not in
/// memory, other band formats, more than 4 bands, and any enlargement.
package enum InMemoryResize {
    package static func resized(_ image: VipsImageHandle, width: Int, height: Int) throws(VipsError) -> VipsImageHandle? {
        let bands = image.bands
        guard image.format == VIPS_FORMAT_UCHAR, (1...4).contains(bands), image.pointer.pointee.Coding == VIPS_CODING_NONE,
              width >= 1, height >= 1, width <= image.width, height <= image.height,
              width < image.width || height < image.height,
              let data = image.pointer.pointee.data
        else { return nil }
        if let reason = DecodeGuard.current?.stopReason { throw VipsError(message: VipsInterrupt.message(reason)) }
        let pixels = SeparableResampler.resize(UnsafePointer(data), width: image.width, height: image.height,
                                               bands: bands, outWidth: width, outHeight: height)
        return try VipsImageHandle.copying(pixels, width: width, height: height, bands: bands,
                                           interpretation: image.interpretation)
    }
}

extension VipsImageHandle {
    /// A libvips image holding a copy of tightly packed 8-bit pixels, tagged with
    /// `interpretation`. Costs one copy of the pixels.
    static func copying(_ pixels: [UInt8], width: Int, height: Int, bands: Int,
                        interpretation: VipsInterpretation) throws(VipsError) -> VipsImageHandle {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              pixels.count == width * height * bands else {
            throw VipsError(message: "\(pixels.count) bytes are not \(width)×\(height)×\(bands)")
        }
        let image = pixels.withUnsafeBytes { buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(width), Int32(height),
                                            Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw VipsError(message: VipsRuntime.failureMessage("vips_image_new_from_memory_copy")) }
        image.pointee.Type = interpretation
        return VipsImageHandle(owning: image)
    }
}
