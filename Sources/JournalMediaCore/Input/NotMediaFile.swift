/// Tells a file that is plainly not media — a README, notes, JSON, an XMP sidecar, a ZIP,
/// a database — from media the toolkit could not read. Photo folders hold such files beside
/// the pictures; they are listed under the manifest's `ignored` with this reason instead of
/// counting as failed assets (unless `--strict`).
///
/// Decided by content first, then by name: only a file the sniffer did not recognise is
/// asked about, and a name that claims a media format (`.jpg`, `.mov`, `.cr3`, …) always
/// keeps it a failure, whatever it holds (a text file named `photo.jpg` is a broken photo).
/// A file with an unknown binary content is classified only when its name says it is a
/// program, font, archive, document or data file (`.exe`, `.ttf`, `.rar`, `.plist`, …);
/// under any other name it may be a format the toolkit does not read, which a user should
/// hear about.
///
/// Runs once per unrecognised file in the probe, on the bytes already read; costs a scan
/// of at most 1 KiB.
public enum NotMediaFile {
    /// Why the file is not media, or nil when it may be media that failed.
    public static func reason(head: [UInt8], fileName: String) -> String? {
        let dot = fileName.lastIndex(of: ".")
        let ext = dot.map { String(fileName[fileName.index(after: $0)...]).lowercased() } ?? ""
        if mediaExtensions.contains(ext) { return nil }
        if head.isEmpty { return "not media: an empty file" }
        for (signature, what) in signatures where head.starts(with: signature) {
            return "not media: \(what)"
        }
        if let kind = textKind(head) { return "not media: \(kind)" }
        // Content no media format has, under a name that says what it is instead.
        if nonMediaExtensions.contains(ext) {
            return "not media: a .\(ext) file (by its name; its content is no media format this toolkit reads)"
        }
        return nil
    }

    /// Extensions of programs, fonts, archives, documents and data files: an unrecognised
    /// content under one of these names is taken at its word.
    static let nonMediaExtensions: Set<String> = [
        "exe", "dll", "dylib", "so", "a", "o", "macho", "lnk", "app", "msi", "deb", "rpm",
        "ttf", "otf", "ttc", "dfont", "pfa", "pfb", "pfm", "woff", "woff2",
        "zip", "rar", "7z", "tar", "gz", "tgz", "bz2", "xz", "zst", "iso", "dmg", "torrent",
        "plist", "db", "sqlite", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "pages", "numbers", "key", "odt",
        "ods", "odp", "rtf", "indd", "mobi", "epub", "pcap", "pcapng", "tnef", "icc", "icm", "fit", "gpx", "kml",
        "txt", "md", "json", "xml", "xmp", "csv", "log", "html", "htm", "yaml", "yml", "ini", "cfg",
    ]

    /// Binary formats that are never pictures, movies or sound.
    private static let signatures: [([UInt8], String)] = [
        ([0x00, 0x00, 0x00, 0x01, 0x42, 0x75, 0x64, 0x31], "Finder metadata (.DS_Store)"),
        (Array("PK\u{03}\u{04}".utf8), "a ZIP archive"),
        (Array("SQLite format 3\u{0}".utf8), "an SQLite database"),
        ([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], "an OLE compound file (Thumbs.db, an Office document)"),
        ([0x7F, 0x45, 0x4C, 0x46], "an ELF executable"),
        ([0x1F, 0x8B], "a gzip archive"),
    ]

    /// What kind of text `head` is, when it is text: UTF-16 with a byte-order mark, or bytes
    /// without NUL and without control characters but tab, line feed, carriage return and
    /// form feed, in UTF-8 (a character cut at the end of the head allowed) or an 8-bit
    /// encoding (Latin-1, MacRoman: at most 30 % of bytes above 127). An XMP packet counts
    /// whatever stray control byte its `xpacket` header holds.
    static func textKind(_ head: [UInt8]) -> String? {
        var bytes = head[...]
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let big = bytes.first == 0xFE
            let pairs = stride(from: bytes.startIndex + 2, to: bytes.endIndex - 1, by: 2)
            let units = pairs.map { big ? UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
                                        : UInt16(bytes[$0 + 1]) << 8 | UInt16(bytes[$0]) }
            text = String(decoding: units, as: UTF16.self)
            if text.unicodeScalars.contains(where: { isControl($0.value) }) { return nil }
        } else {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
            if bytes.contains(0) { return nil }
            // Byte searches: Foundation's String.contains costs more than the rest of this.
            if ByteSearch.contains(xpacketBytes, in: bytes) || ByteSearch.contains(xmpmetaBytes, in: bytes) {
                return "an XMP sidecar (metadata, read for dates by its photo)"
            }
            let ascii = String(decoding: bytes.map { $0 < 0x80 ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
            if bytes.contains(where: { isControl(UInt32($0)) }) { return nil }
            if (0...3).contains(where: { String(validating: bytes.dropLast($0), as: UTF8.self) != nil }) {
                text = String(decoding: bytes, as: UTF8.self)
            } else {
                guard bytes.count(where: { $0 >= 0x80 }) * 10 <= bytes.count * 3 else { return nil }
                text = ascii
            }
        }
        return kind(of: text)
    }

    private static let xpacketBytes = Array("<?xpacket".utf8)
    private static let xmpmetaBytes = Array("<x:xmpmeta".utf8)

    private static func isControl(_ value: UInt32) -> Bool {
        (value < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains(value)) || value == 0x7F
    }

    private static func kind(of text: String) -> String {
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        let bytes = Array(text.utf8)[...]
        if ByteSearch.contains(xmpmetaBytes, in: bytes) || ByteSearch.contains(xpacketBytes, in: bytes) {
            return "an XMP sidecar (metadata, read for dates by its photo)"
        }
        if start.hasPrefix("{") || start.hasPrefix("[") { return "JSON text" }
        if start.hasPrefix("<") { return "XML or HTML text" }
        return "a text file"
    }

    /// Extensions of picture, movie and sound formats (read by the toolkit or not).
    static let mediaExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "apng", "gif", "webp", "tif", "tiff", "heic", "heif", "hif", "avif",
        "jxl", "bmp", "dib", "ico", "cur", "svg", "svgz", "pdf", "psd", "psb", "eps", "jp2", "j2k", "jpx", "jpf",
        "mpo", "tga", "pcx", "ppm", "pgm", "pbm", "pnm", "exr", "hdr", "dds", "pcd", "fpx", "xcf", "wmf", "emf",
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "orf", "raf", "rw2", "rwl", "pef", "ptx",
        "srw", "x3f", "3fr", "fff", "iiq", "mos", "erf", "kdc", "dcr", "mrw", "mef", "raw", "gpr",
        "mov", "qt", "mp4", "m4v", "3gp", "3g2", "avi", "mts", "m2ts", "m2t", "ts", "mkv", "webm", "wmv", "asf",
        "flv", "mpg", "mpeg", "m2v", "vob", "dv", "mxf", "ogv", "insv", "lrv", "mod", "tod",
        "m4a", "m4b", "m4p", "mp3", "flac", "ogg", "oga", "opus", "wav", "aif", "aiff", "aac", "wma", "ape", "mpc",
        "caf", "amr", "alac",
    ]
}

extension NotMediaFile {
    /// Why the regular file at `pathBytes` is plainly not media, as a batch's probe would
    /// decide it (empty, or unrecognised by the sniffer and then `reason(head:fileName:)`);
    /// nil when it may be media, or is not a regular file one can open (a folder, a missing
    /// path: the caller's own checks report those). For a file named on a command line,
    /// before anything is written. Costs one `open`, `fstat` and a read of at most 1 KiB.
    public static func reason(ofFileAt pathBytes: [UInt8]) -> String? {
        guard case .success(let opened) = RegularFile.open(pathBytes: pathBytes) else { return nil }
        let file = FileBytes(file: opened, cacheHead: false)  // closes the descriptor when done
        let fileName = String(decoding: pathBytes.split(separator: 0x2F).last ?? [], as: UTF8.self)
        guard file.size > 0 else { return reason(head: [], fileName: fileName) }
        guard let head = file.read(0, min(file.size, FormatSniffer.prefixLength)) else { return nil }
        return FormatSniffer.sniff(head) == nil ? reason(head: head, fileName: fileName) : nil
    }
}
