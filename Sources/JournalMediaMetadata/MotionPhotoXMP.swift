import Foundation

/// The few XMP fields of an Android motion photo, read from the packet's text:
///
/// - `MotionPhoto` (Google's `GCamera:`/`Camera:` namespaces) or the older `MicroVideo`
///   flag: "1" marks a still with a video appended;
/// - `MicroVideoOffset`: the video's distance from the end of the file (older Google and
///   Samsung phones);
/// - the `Container:Directory` items (`Item:Mime`, `Item:Semantic`, `Item:Length`,
///   `Item:Padding`), in file order: the `MotionPhoto` item's length gives where the video
///   starts counted from the end of the file.
///
/// A small, bounded text reader, not an XML parser: comments are removed first, then each
/// field is taken by its local name in attribute form (`prefix:Name="1"`) or element form
/// (`<prefix:Name>1</prefix:Name>`), whatever prefix is bound. Packets over 256 KiB are not
/// read. It should move onto the project's XML-based XMP reader when that one lands.
///
/// Runs once per JPEG or HEIF still whose XMP mentions `MotionPhoto` or `MicroVideo`; costs a
/// few scans of the packet.
package struct MotionPhotoXMP: Equatable {
    /// One `Container:Directory` item.
    package struct Item: Equatable {
        package var mime: String?
        package var semantic: String?
        package var length: Int?
        package var padding: Int?
    }

    package var isMotionPhoto = false
    package var microVideoOffset: Int?
    package var items: [Item] = []

    static let motionPhotoBytes = Array("MotionPhoto".utf8)
    static let microVideoBytes = Array("MicroVideo".utf8)

    /// Whether `needle` occurs in `haystack` (bytes, no decoding).
    static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        let last = haystack.count - needle.count
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = 0
                while index <= last {
                    if hay[index] == first {
                        var matched = 1
                        while matched < pin.count && hay[index + matched] == pin[matched] { matched += 1 }
                        if matched == pin.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    /// Largest packet read.
    static let maximumPacketSize = 256 * 1024

    /// The fields of `packet`, or nil when it is too large or says nothing of a motion photo.
    package static func parse(_ packet: [UInt8]) -> MotionPhotoXMP? {
        guard packet.count <= maximumPacketSize else { return nil }
        // Most stills' XMP names neither: a byte scan decides before any text is made.
        guard contains(Self.motionPhotoBytes, in: packet) || contains(Self.microVideoBytes, in: packet) else { return nil }
        let text = withoutComments(String(decoding: packet, as: UTF8.self))
        guard text.contains("MotionPhoto") || text.contains("MicroVideo") else { return nil }
        var fields = MotionPhotoXMP()
        fields.isMotionPhoto = value(of: "MotionPhoto", in: text[...]) == "1" || value(of: "MicroVideo", in: text[...]) == "1"
        fields.microVideoOffset = value(of: "MicroVideoOffset", in: text[...]).flatMap(Self.count)
        // Each item's scope runs from its `…:Item` start to the next one (or the end).
        let starts = elementStarts(named: "Item", in: text)
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : text.endIndex
            let scope = text[start..<end]
            fields.items.append(Item(mime: value(of: "Mime", in: scope), semantic: value(of: "Semantic", in: scope),
                                     length: value(of: "Length", in: scope).flatMap(Self.count),
                                     padding: value(of: "Padding", in: scope).flatMap(Self.count)))
        }
        return fields
    }

    /// A non-negative decimal byte count.
    private static func count(_ text: String) -> Int? {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else { return nil }
        return value
    }

    private static func withoutComments(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let open = rest.range(of: "<!--") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "-->") else { return result }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// Where each element with local name `name` starts (`<prefix:name` then a space, `/` or `>`).
    private static func elementStarts(named name: String, in text: String) -> [String.Index] {
        var starts: [String.Index] = []
        var rest = text[...]
        while let found = rest.range(of: ":\(name)") {
            rest = text[found.upperBound...]
            guard let next = rest.first, next == " " || next == "/" || next == ">" || next == "\n" || next == "\t" || next == "\r",
                  let open = text[..<found.lowerBound].lastIndex(where: { $0 == "<" || $0 == " " || $0 == "\"" || $0 == ">" }),
                  text[open] == "<" else { continue }
            starts.append(open)
        }
        return starts
    }

    /// The first value of the field with local name `name` in `text`: an attribute
    /// `prefix:name="v"` (or `'v'`, spaces allowed around `=`) or an element
    /// `<prefix:name>v</…>`; nil when absent.
    static func value(of name: String, in text: Substring) -> String? {
        var rest = text
        while let found = rest.range(of: ":\(name)") {
            rest = text[found.upperBound...]
            // A whole local name: the prefix before it is a name, and the name ends here.
            guard let before = text[..<found.lowerBound].last, before.isLetter || before.isNumber || before == "_" else { continue }
            var cursor = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            if cursor.first == "=" {
                cursor = cursor.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                guard let quote = cursor.first, quote == "\"" || quote == "'" else { continue }
                let body = cursor.dropFirst()
                guard let close = body.firstIndex(of: quote) else { return nil }
                return String(body[..<close])
            }
            if rest.first == ">" {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "<") else { return nil }
                let value = body[..<close].trimmingCharacters(in: .whitespacesAndNewlines)
                if !value.isEmpty { return value }
            }
        }
        return nil
    }
}
