import CVips
import JournalMediaCore

extension VipsImageHandle {
    /// A libvips sRGB image holding a copy of tightly packed 8-bit RGB pixels (`width * 3`
    /// bytes per row), e.g. a video `PosterFrame`, so it can go through the same rendition
    /// path as a decoded photo. Runs once per poster; costs one copy of the pixels.
    package static func copyingPackedRGB(_ rgb: [UInt8], width: Int, height: Int) throws(VipsError) -> VipsImageHandle {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              rgb.count == width * height * 3 else {
            throw VipsError(message: "packed RGB of \(rgb.count) bytes is not \(width)×\(height)×3")
        }
        let image = rgb.withUnsafeBytes { buffer in
            vips_image_new_from_memory_copy(buffer.baseAddress, buffer.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw VipsError(message: VipsRuntime.failureMessage("vips_image_new_from_memory_copy")) }
        // Memory images start as "multiband"; say what the bytes are.
        let tag = try VipsOperationCall("copy")
        try tag.set("in", .image(VipsImageHandle(owning: image)))
        try tag.set("interpretation", .nick("srgb"))
        try tag.build()
        return try tag.outputImage()
    }
}
