import JournalMediaCore

/// The probe error for a still whose header libvips could not read. One case is worded
/// here rather than passed on: libvips' loaders read from a memory source that refuses a
/// seek past its end ("source: bad seek to N"), which is all libvips 8.14's HEIF loader says
/// when libheif asks for bytes beyond the end of a file cut short (Apple's test_live.HEIC
/// from photokit, 8 bytes short: "bad seek to 1820652" of a 1820644-byte file). That becomes
/// a `truncated` error saying how far the file falls short. Runs once per failed header read;
/// costs a scan of the message.
enum HeaderReadFailure {
    static func error(file: String, format: SourceFormat, fileSize: Int, libvipsMessage: String) -> AssetError {
        let kind = format.rawValue.uppercased()
        if let wanted = seekPastEnd(libvipsMessage, fileSize: fileSize) {
            return AssetError(file: file, stage: .probe, reason: .truncated,
                              message: "the \(kind) file is cut short: its reader needs data up to byte \(wanted), "
                              + "\(wanted - fileSize) bytes past the end of the \(fileSize)-byte file (libvips: \(libvipsMessage))")
        }
        return AssetError(file: file, stage: .probe, message: "cannot read the \(kind) header: \(libvipsMessage)")
    }

    /// N of libvips' "bad seek to N" when N lies past the end of a `fileSize`-byte input.
    static func seekPastEnd(_ message: String, fileSize: Int) -> Int? {
        guard let range = message.range(of: "bad seek to ") else { return nil }
        let digits = message[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let wanted = Int(digits), wanted > fileSize else { return nil }
        return wanted
    }
}
