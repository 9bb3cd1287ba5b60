import JournalMediaCore
import JournalMediaHEIF

/// The probe error for a still whose header libvips could not read: "cannot read the <FORMAT>
/// header: <libvips' message>", except for a HEIC or AVIF whose only libvips message is
/// "bad seek to N" with N past the end of the file (`libheifSeekNoise`: the decoder table says
/// so for the HEIF codecs, `StillDecoder.libheifSeekNoise`). Every HEIF read leaves that line (libheif
/// looks for a box after the last one; libvips refuses the seek and libheif carries on), so it
/// is not the reason, and libvips' HEIF loader gave none of its own. The error then says
/// so and names the cause when it is the one known silent failure: a `colr` box announcing an
/// ICC profile with no bytes in it (photokit's test_live.HEIC). Runs once per failed header
/// read; costs a scan of the message and, for that HEIF case, a walk of the `meta` box.
enum HeaderReadFailure {
    static func error(file: String, format: SourceFormat, bytes: [UInt8], libvipsMessage: String,
                      libheifSeekNoise: Bool) -> AssetError {
        let kind = format.rawValue.uppercased()
        guard libheifSeekNoise, seekPastEnd(libvipsMessage, fileSize: bytes.count) != nil else {
            return AssetError(file: file, stage: .probe, message: "cannot read the \(kind) header: \(libvipsMessage)")
        }
        let routine = "its only message, \"\(libvipsMessage)\", is libheif looking past the end of the file, as every HEIF read does"
        if let empty = HEIFMeta(MemoryBytes(bytes: bytes))?.emptyPrimaryProfile {
            return AssetError(file: file, stage: .probe, reason: .corrupt, message:
                "cannot read the \(kind) header: item \(empty.item)'s colour box (colr, type \(empty.type)) holds no "
                + "ICC profile, which libvips 8.14's HEIF loader cannot read (libvips gave no reason; \(routine))")
        }
        return AssetError(file: file, stage: .probe, reason: .corrupt,
                          message: "cannot read the \(kind) header: libvips gave no reason (\(routine))")
    }

    /// N of libvips' "bad seek to N" when N lies past the end of a `fileSize`-byte input.
    static func seekPastEnd(_ message: String, fileSize: Int) -> Int? {
        guard let range = message.range(of: "bad seek to ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let wanted = Int(digits), wanted > fileSize else { return nil }
        return wanted
    }
}
