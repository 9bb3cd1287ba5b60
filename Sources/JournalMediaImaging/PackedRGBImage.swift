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

extension DecodedImage {
    /// An image of tightly packed 8-bit sRGB pixels (`width * 3` bytes per row, top row
    /// first), for a `FileSource` or `ImageSource` written outside the toolkit to hand to the
    /// rendition step. Costs one copy of the pixels; throws an error naming `file` (stage
    /// `decode`) when the count is not `width * height * 3`.
    public static func packedRGB(_ pixels: [UInt8], width: Int, height: Int, file: String) throws(AssetError) -> DecodedImage {
        do throws(VipsError) {
            return DecodedImage(image: try VipsImageHandle.copyingPackedRGB(pixels, width: width, height: height),
                                hasRealTransparency: false)
        } catch {
            throw AssetError(file: file, stage: .decode, message: error.message)
        }
    }
}
