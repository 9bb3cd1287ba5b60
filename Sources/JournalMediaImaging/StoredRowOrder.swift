import CVips
import JournalMediaCore

/// Turns a loaded image upright when its format's loader returns the rows bottom-up, as the
/// file stores them (`StillLoading.rowOrder`: PFM on the libvips Debian 12 ships, whose loader reads the rows
/// in file order while Netpbm's and Debevec's definitions store them bottom-up; FITS, whose
/// first row is the bottom one).
///
/// Runs once per decode of such a format, right after the load; costs one `flip` (a copy of
/// the rows, computed with the rest of the pipeline).
enum StoredRowOrder {
    static func upright(_ image: VipsImageHandle, format: SourceFormat) throws(VipsError) -> VipsImageHandle {
        guard let order = format.handling.still?.rowOrder,
              order.needsFlip(libvipsMajor: Int(vips_version(0)), minor: Int(vips_version(1))) else { return image }
        let flip = try VipsOperationCall("flip")
        try flip.set("in", .image(image))
        try flip.set("direction", .nick("vertical"))
        try flip.build()
        return try flip.outputImage()
    }
}
