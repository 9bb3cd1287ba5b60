import JournalMediaCore

/// Date properties in an XMP packet, found by name without a full RDF parse.
///
/// A property appears either as an attribute (`exif:DateTimeOriginal="…"`) or as an element
/// (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`), with the conventional namespace
/// prefixes (`xap:` is the old prefix of `xmp:`). Runs only when EXIF has no date; costs a
/// few substring searches over the packet.
enum XMPDates {
    /// The date properties in order of trust, with the `source` name each is reported as.
    static let properties: [(names: [String], source: String)] = [
        (["exif:DateTimeOriginal"], "xmp.exif:DateTimeOriginal"),
        (["photoshop:DateCreated"], "xmp.photoshop:DateCreated"),
        (["xmp:CreateDate", "xap:CreateDate"], "xmp.xmp:CreateDate"),
    ]

    /// The text value of the first occurrence of `name` in `packet`.
    static func value(of name: String, in packet: String) -> String? {
        if let attribute = packet.range(of: name + "=") {
            let rest = packet[attribute.upperBound...]
            if let quote = rest.first, quote == "\"" || quote == "'" {
                let body = rest.dropFirst()
                if let end = body.firstIndex(of: quote) { return String(body[..<end]) }
            }
        }
        if let open = packet.range(of: "<" + name + ">"),
           let close = packet.range(of: "</" + name + ">", range: open.upperBound..<packet.endIndex) {
            return String(packet[open.upperBound..<close.lowerBound])
        }
        return nil
    }
}
