import CExif
import JournalMediaCore

/// An EXIF block parsed by libexif, with typed lookups of the tags capture dates need.
///
/// Made from the TIFF structure `MetadataBlocks` found. libexif's defaults are switched off:
/// it would otherwise drop tags it does not know (OffsetTime* in some builds) and, following
/// the specification, *add* missing mandatory tags — including a DateTime of "now".
/// Lookups check the stored type, so a date written as a number is ignored, not misread.
/// Costs one libexif parse (tens of microseconds for a camera's block).
package final class ExifBlock {
    /// The IFDs a tag can live in.
    enum Directory: Int {
        case primary = 0, exif = 2, gps = 3
    }

    private let data: UnsafeMutablePointer<ExifData>

    /// Parses `tiff` (starting `II*\0` or `MM\0*`); nil when libexif finds nothing in it.
    package init?(tiff: [UInt8]) {
        guard MetadataBlocks.isTIFFHeader(tiff[...]), let data = exif_data_new() else { return nil }
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        let block = Array("Exif\0\0".utf8) + tiff
        block.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { exif_data_load_data(data, base, UInt32(clamping: buffer.count)) }
        }
        self.data = data
    }

    deinit { exif_data_unref(data) }

    private func entry(_ directory: Directory, _ tag: UInt16) -> UnsafeMutablePointer<ExifEntry>? {
        let ifds = data.pointee.ifd
        let content: UnsafeMutablePointer<ExifContent>? = switch directory {
        case .primary: ifds.0
        case .exif: ifds.2
        case .gps: ifds.3
        }
        guard let content else { return nil }
        return exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag)))
    }

    /// An ASCII tag's text up to its first NUL; nil when absent, empty or of another type.
    func text(_ directory: Directory, _ tag: UInt16) -> String? {
        guard let entry = entry(directory, tag), entry.pointee.format == EXIF_FORMAT_ASCII,
              let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size))
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        guard end > 0 else { return nil }
        return String(decoding: buffer[..<end], as: UTF8.self)
    }

    /// The raw bytes of the MakerNote (tag 0x927C in the EXIF IFD), for our own parsers
    /// (libexif reads Apple MakerNote values from the wrong offset).
    package func makerNote() -> [UInt8]? {
        guard let entry = entry(.exif, 0x927C), let bytes = entry.pointee.data, entry.pointee.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
    }

    /// Whether IFD0 holds an Orientation tag (0x0112), whatever its value: the file then has
    /// its own orientation, and an XMP sidecar's is not used.
    package var hasOrientation: Bool { entry(.primary, 0x0112) != nil }

    /// Whether the directory holds the tag, whatever its type.
    func has(_ directory: Directory, _ tag: UInt16) -> Bool { entry(directory, tag) != nil }

    /// A numeric tag's values as stored: an unsigned or signed RATIONAL (a zero denominator
    /// gives NaN, so callers can tell it from an absent tag), BYTE, SHORT or LONG; nil when
    /// absent, empty or of another type.
    func numbers(_ directory: Directory, _ tag: UInt16) -> [Double]? {
        guard let entry = entry(directory, tag), let bytes = entry.pointee.data else { return nil }
        let format = entry.pointee.format
        let count = Int(entry.pointee.components)
        let size = Int(entry.pointee.size)
        let width = Int(exif_format_get_size(format))
        guard count > 0, width > 0, size >= count * width else { return nil }
        let order = exif_data_get_byte_order(data)
        return (0..<count).compactMap { index -> Double? in
            let at = bytes + index * width
            switch format {
            case EXIF_FORMAT_RATIONAL:
                let r = exif_get_rational(at, order)
                return r.denominator == 0 ? .nan : Double(r.numerator) / Double(r.denominator)
            case EXIF_FORMAT_SRATIONAL:
                let r = exif_get_srational(at, order)
                return r.denominator == 0 ? .nan : Double(r.numerator) / Double(r.denominator)
            case EXIF_FORMAT_BYTE: return Double(at.pointee)
            case EXIF_FORMAT_SHORT: return Double(exif_get_short(at, order))
            case EXIF_FORMAT_LONG: return Double(exif_get_long(at, order))
            default: return nil
            }
        }.nilIfEmpty
    }

    /// An unsigned RATIONAL tag's values; nil when absent, of another type, or a zero denominator.
    func rationals(_ directory: Directory, _ tag: UInt16) -> [Double]? {
        guard let entry = entry(directory, tag), entry.pointee.format == EXIF_FORMAT_RATIONAL,
              let bytes = entry.pointee.data else { return nil }
        let count = Int(entry.pointee.components)
        guard count > 0, Int(entry.pointee.size) >= count * 8 else { return nil }
        let order = exif_data_get_byte_order(data)
        var values: [Double] = []
        for index in 0..<count {
            let r = exif_get_rational(bytes + index * 8, order)
            guard r.denominator != 0 else { return nil }
            values.append(Double(r.numerator) / Double(r.denominator))
        }
        return values
    }
}

/// EXIF tag numbers used here (EXIF 2.32 / CIPA DC-008).
package enum ExifTagNumber {
    package static let dateTime: UInt16 = 0x0132
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let offsetTime: UInt16 = 0x9010
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let offsetTimeDigitized: UInt16 = 0x9012
    static let subSecTime: UInt16 = 0x9290
    static let subSecTimeOriginal: UInt16 = 0x9291
    static let subSecTimeDigitized: UInt16 = 0x9292
    static let gpsTimeStamp: UInt16 = 0x0007
    static let gpsDateStamp: UInt16 = 0x001D
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
    static let gpsStatus: UInt16 = 0x0009
    static let gpsSpeedRef: UInt16 = 0x000C
    static let gpsSpeed: UInt16 = 0x000D
    static let gpsImgDirection: UInt16 = 0x0011
    static let gpsHPositioningError: UInt16 = 0x001F
    static let make: UInt16 = 0x010F
    static let model: UInt16 = 0x0110
    static let software: UInt16 = 0x0131
    static let exposureTime: UInt16 = 0x829A
    static let fNumber: UInt16 = 0x829D
    static let iso: UInt16 = 0x8827
    static let focalLength: UInt16 = 0x920A
    static let focalLength35: UInt16 = 0xA405
    static let lensModel: UInt16 = 0xA434
}

extension Array {
    /// Nil for an empty array.
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
