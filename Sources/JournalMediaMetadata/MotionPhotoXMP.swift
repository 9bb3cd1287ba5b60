import CLibXML2
import Foundation
import JournalMediaCore

/// The few XMP fields of an Android motion photo:
///
/// - `MotionPhoto` (Google's camera namespace, `http://ns.google.com/photos/1.0/camera/`,
///   written under the prefix `GCamera:` or `Camera:`) or the older `MicroVideo` flag: "1"
///   marks a still with a video appended;
/// - `MicroVideoOffset`: the video's distance from the end of the file (older Google and
///   Samsung phones);
/// - the `Container:Directory` items (`Item:Mime`, `Item:Semantic`, `Item:Length`,
///   `Item:Padding`), in file order: the `MotionPhoto` item's length gives where the video
///   starts counted from the end of the file.
///
/// Read as XML by libxml2's pull parser (`XMPPacket.withReader`: no DTD, no entities, no
/// network), so comments are never read as fields. Names are resolved by namespace URI,
/// whatever prefix a writer binds; a field whose prefix is bound nowhere (some writers omit
/// the declarations) is taken by its local name. Each field is read in attribute form
/// (`Item:Mime="video/mp4"`) or element form (`<Item:Mime>video/mp4</Item:Mime>`); an item's
/// fields are those inside its `Container:Item` element, whether the items sit in an
/// `rdf:Seq` of `rdf:li` or directly in the directory. Packets over 256 KiB are not read;
/// at most 64 items are kept.
///
/// Runs once per JPEG or HEIF still whose XMP mentions `MotionPhoto` or `MicroVideo`; costs
/// one streaming pass over the packet.
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

    /// Largest packet read.
    static let maximumPacketSize = 256 * 1024
    /// Most directory items kept.
    static let maximumItems = 64

    static let cameraNamespace = "http://ns.google.com/photos/1.0/camera/"
    static let containerNamespace = "http://ns.google.com/photos/1.0/container/"
    static let itemNamespace = "http://ns.google.com/photos/1.0/container/item/"

    /// The fields of `packet`, or nil when it is too large, not XML, has a document type, or
    /// says nothing of a motion photo.
    package static func parse(_ packet: [UInt8]) -> MotionPhotoXMP? {
        guard packet.count <= maximumPacketSize,
              // Most stills' XMP names neither: a byte scan decides before any XML is read.
              ByteSearch.contains(Self.motionPhotoBytes, in: packet[...]) || ByteSearch.contains(Self.microVideoBytes, in: packet[...]),
              let fields = XMPPacket.withReader(packet, read) ?? nil else { return nil }
        return fields
    }

    /// A name as the reader reports it: the namespace URI (nil when the prefix is bound
    /// nowhere) and the local name (for an unbound prefix libxml2 may keep `prefix:local`).
    private struct Name {
        var namespace: String?
        var local: String

        init(namespace: UnsafePointer<xmlChar>?, local: UnsafePointer<xmlChar>?) {
            self.namespace = XMPPacket.text(namespace)
            let whole = XMPPacket.text(local) ?? ""
            self.local = whole.split(separator: ":").last.map(String.init) ?? whole
        }

        /// In `namespace`, or under a prefix bound nowhere.
        func isIn(_ namespace: String) -> Bool { self.namespace == nil || self.namespace == namespace }
    }

    private static func read(_ reader: xmlTextReaderPtr) -> MotionPhotoXMP? {
        var fields = MotionPhotoXMP()
        var sawField = false
        /// Depth of the `Container:Item` being read, and the item.
        var item: (depth: Int, value: Item)?
        /// A field element whose text is being read: its name and depth.
        var element: (name: Name, depth: Int, text: String)?

        func take(_ name: Name, _ rawValue: String) {
            let value = rawValue.trimmingXMLSpace()
            if name.isIn(cameraNamespace) {
                switch name.local {
                case "MotionPhoto", "MicroVideo":
                    sawField = true
                    if value == "1" { fields.isMotionPhoto = true }
                case "MicroVideoOffset":
                    sawField = true
                    fields.microVideoOffset = fields.microVideoOffset ?? count(value)
                default: break
                }
            }
            guard var current = item, name.isIn(itemNamespace) else { return }
            switch name.local {
            case "Mime": current.value.mime = current.value.mime ?? value
            case "Semantic": current.value.semantic = current.value.semantic ?? value
            case "Length": current.value.length = current.value.length ?? count(value)
            case "Padding": current.value.padding = current.value.padding ?? count(value)
            default: return
            }
            item = current
        }

        while xmlTextReaderRead(reader) == 1 {
            let depth = Int(xmlTextReaderDepth(reader))
            switch Int(xmlTextReaderNodeType(reader)) {
            case Int(XML_READER_TYPE_DOCUMENT_TYPE.rawValue), Int(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                return nil  // XMP never declares a DTD: refused whole, as XMPPacket does
            case Int(XML_READER_TYPE_ELEMENT.rawValue):
                let name = Name(namespace: xmlTextReaderConstNamespaceUri(reader), local: xmlTextReaderConstLocalName(reader))
                let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                // A new element inside a field element: that one was a struct, not text.
                element = nil
                if name.local == "Item", name.isIn(containerNamespace), fields.items.count < maximumItems {
                    if let open = item { fields.items.append(open.value) }
                    item = (depth, Item())
                }
                if xmlTextReaderMoveToFirstAttribute(reader) == 1 {
                    repeat {
                        let attribute = Name(namespace: xmlTextReaderConstNamespaceUri(reader),
                                             local: xmlTextReaderConstLocalName(reader))
                        if let value = XMPPacket.text(xmlTextReaderConstValue(reader)) { take(attribute, value) }
                    } while xmlTextReaderMoveToNextAttribute(reader) == 1
                    xmlTextReaderMoveToElement(reader)
                }
                if isEmpty {
                    if let open = item, open.depth == depth {
                        fields.items.append(open.value)
                        item = nil
                    }
                } else {
                    element = (name, depth, "")
                }
            case Int(XML_READER_TYPE_TEXT.rawValue), Int(XML_READER_TYPE_CDATA.rawValue):
                if var open = element, depth == open.depth + 1, open.text.utf8.count < 256,
                   let value = XMPPacket.text(xmlTextReaderConstValue(reader)) {
                    open.text += value
                    element = open
                }
            case Int(XML_READER_TYPE_END_ELEMENT.rawValue):
                if let open = element, open.depth == depth { take(open.name, open.text) }
                element = nil
                if let open = item, open.depth == depth {
                    fields.items.append(open.value)
                    item = nil
                }
            default:
                continue  // comments, processing instructions, white space
            }
        }
        if let open = item { fields.items.append(open.value) }
        return sawField || !fields.items.isEmpty ? fields : nil
    }

    /// A non-negative decimal byte count.
    private static func count(_ text: String) -> Int? {
        guard let value = Int(text), value >= 0 else { return nil }
        return value
    }
}
