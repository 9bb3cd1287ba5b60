import CVips

extension VipsImageHandle {
    /// The image's raw EXIF block as the loader found it (libvips' `exif-data` field: for JPEG
    /// the APP1 payload starting "Exif\0\0", for HEIC the Exif item), nil when there is none.
    /// Reads the header only; costs one copy of the block (a few KB).
    var exifBlock: [UInt8]? { blobField(VIPS_META_EXIF_NAME) }
}
