import CResampleKernel
import CVips
import Glibc
import JournalMediaCore
import JournalMediaResampling

/// The downscale of an 8-bit image held in memory by `SeparableResampler` (Lanczos-3),
/// returned as a new in-memory libvips image with the same bands and interpretation and no
/// metadata; with an alpha channel the colour is resized premultiplied. Used by the rendition resizes and by the JPEG decode's remaining reduction
/// after DCT scaling, where libvips' `resize` (scalar `reduce`) was most of the CPU
/// time on 2–8 MP photos.
///
/// Runs on the calling thread; costs the resample, written straight into the new image's
/// buffer (no copy). Declines (nil) what it does not handle, which the caller leaves to
/// libvips: images not in memory, other band formats, more than 4 bands, and any enlargement.
package enum InMemoryResize {
    /// `extent`: the size of the picture `image` shows, in its pixels, when that is not its
    /// exact size (a DCT-scaled JPEG decode; see `SeparableResampler.realTaps`). `stop`: the
    /// work's guard, asked once before the resample.
    package static func resized(_ image: VipsImageHandle, width: Int, height: Int,
                                extent: (width: Double, height: Double)? = nil,
                                stop: DecodeGuard? = nil) throws(VipsError) -> VipsImageHandle? {
        let bands = image.bands
        guard image.format == VIPS_FORMAT_UCHAR, (1...4).contains(bands), image.pointer.pointee.Coding == VIPS_CODING_NONE,
              width >= 1, height >= 1, width <= image.width, height <= image.height,
              width < image.width || height < image.height,
              let data = image.pointer.pointee.data
        else { return nil }
        try VipsInterrupt.check(stop)
        // The source's resolution, unscaled, as libvips' resize and thumbnail keep it.
        let (output, target) = try VipsImageHandle.memoryImage(
            width: width, height: height, bands: bands, interpretation: image.interpretation,
            resolution: (image.pointer.pointee.Xres, image.pointer.pointee.Yres))
        let source = UnsafePointer(data)
        guard image.hasAlpha, bands == 2 || bands == 4 else {
            SeparableResampler.resize(source, width: image.width, height: image.height, bands: bands,
                                      outWidth: width, outHeight: height, extent: extent, into: target)
            return output
        }
        // With alpha, colour is resized premultiplied (as libvips' thumbnail does), else the
        // colour of transparent pixels bleeds into the visible edge (a white sticker on a
        // transparent black ground got a dark fringe). 8-bit premultiplied colour is coarse
        // where alpha is low, but after compositing the error stays within half a level.
        let count = image.width * image.height * bands
        let premultiplied = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        defer { premultiplied.deallocate() }
        AlphaPremultiplication.premultiply(source, into: premultiplied, count: count, bands: bands)
        SeparableResampler.resize(UnsafePointer(premultiplied), width: image.width, height: image.height, bands: bands,
                                  outWidth: width, outHeight: height, extent: extent, into: target)
        AlphaPremultiplication.unpremultiply(target, count: width * height * bands, bands: bands)
        return output
    }
}

/// 8-bit colour with its alpha (the last of 2 or 4 bands) multiplied in and out, rounded, for
/// resizing images with transparency (`jm_premultiply_alpha`, `jm_unpremultiply_alpha` in
/// CResampleKernel, loops the compiler vectorises). Costs one pass over the pixels each way.
enum AlphaPremultiplication {
    static func premultiply(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, count: Int, bands: Int) {
        jm_premultiply_alpha(source, target, count / bands, bands)
    }

    static func unpremultiply(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, bands: Int) {
        jm_unpremultiply_alpha(pixels, count / bands, bands)
    }
}

extension VipsImageHandle {
    /// A new libvips memory image of 8-bit pixels, its buffer allocated (uninitialised) and
    /// tagged with `interpretation` and `resolution` (pixels per millimetre), with that buffer,
    /// for code that writes the pixels itself. Costs the allocation: a `malloc` the image owns
    /// (`adopting`), not libvips' own memory image, whose buffer is zeroed when made (a pass
    /// over every byte that the writer then overwrites).
    static func memoryImage(width: Int, height: Int, bands: Int, interpretation: VipsInterpretation,
                            resolution: (x: Double, y: Double) = (1, 1))
        throws(VipsError) -> (image: VipsImageHandle, pixels: UnsafeMutablePointer<UInt8>) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), (1...4).contains(bands),
              let buffer = malloc(width * height * bands) else {
            throw VipsError(message: "cannot make a \(width)×\(height)×\(bands) memory image")
        }
        let pixels = buffer.assumingMemoryBound(to: UInt8.self)
        return (try adopting(pixels, width: width, height: height, bands: bands, interpretation: interpretation,
                             resolution: resolution), pixels)
    }

    /// A libvips image over `pixels` (packed 8-bit, `malloc`ed, width × height × bands bytes at
    /// least), which it takes over: freed when the image closes, or here if no image can be made.
    static func adopting(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bands: Int,
                         interpretation: VipsInterpretation, resolution: (x: Double, y: Double) = (1, 1))
        throws(VipsError) -> VipsImageHandle {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max), (1...4).contains(bands),
              let image = vips_image_new_from_memory(pixels, width * height * bands, Int32(width), Int32(height),
                                                     Int32(bands), VIPS_FORMAT_UCHAR) else {
            free(pixels)
            throw VipsError(message: VipsRuntime.failureMessage("cannot make a \(width)×\(height)×\(bands) memory image"))
        }
        let handle = VipsImageHandle(owning: image)
        image.pointee.Type = interpretation
        image.pointee.Xres = resolution.x
        image.pointee.Yres = resolution.y
        let release: GClosureNotify = { data, _ in free(data) }
        let nothing: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        g_signal_connect_data(UnsafeMutableRawPointer(image), "postclose", unsafeBitCast(nothing, to: GCallback.self),
                              pixels, release, GConnectFlags(rawValue: 0))
        return handle
    }

    /// The pixels are in a buffer in memory (a decode's or a resize's), not computed on demand.
    var isInMemory: Bool {
        let image = pointer.pointee
        return image.data != nil && (image.dtype == VIPS_IMAGE_SETBUF || image.dtype == VIPS_IMAGE_SETBUF_FOREIGN)
    }
}
