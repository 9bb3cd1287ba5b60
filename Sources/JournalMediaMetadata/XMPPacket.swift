import CLibXML2

/// A property name in XMP: its namespace URI and local name. Prefixes play no part, so
/// `xap:CreateDate` and `xmp:CreateDate` (both `http://ns.adobe.com/xap/1.0/`) are one name.
package struct XMPName: Hashable, Sendable, CustomStringConvertible {
    package var namespace: String
    package var local: String

    package init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// The namespaces the toolkit reads, by their conventional prefixes.
    package static let exifNamespace = "http://ns.adobe.com/exif/1.0/"
    package static let photoshopNamespace = "http://ns.adobe.com/photoshop/1.0/"
    package static let xmpNamespace = "http://ns.adobe.com/xap/1.0/"
    package static let tiffNamespace = "http://ns.adobe.com/tiff/1.0/"

    package static let dateTimeOriginal = XMPName(exifNamespace, "DateTimeOriginal")
    package static let dateCreated = XMPName(photoshopNamespace, "DateCreated")
    package static let createDate = XMPName(xmpNamespace, "CreateDate")
    package static let orientation = XMPName(tiffNamespace, "Orientation")

    /// `prefix:local` with the conventional prefix when the namespace is a known one.
    package var description: String {
        let prefix = switch namespace {
        case Self.exifNamespace: "exif"
        case Self.photoshopNamespace: "photoshop"
        case Self.xmpNamespace: "xmp"
        case Self.tiffNamespace: "tiff"
        default: namespace
        }
        return prefix + ":" + local
    }
}

/// An XMP packet read as XML (RDF/XML as the XMP specification uses it): the first value of
/// every simple top-level property, keyed by namespace URI and local name.
///
/// A property is read in any of its RDF forms: an attribute of a top-level `rdf:Description`
/// (`exif:DateTimeOriginal="…"`, spaces around `=` allowed), a child element of one
/// (`<exif:DateTimeOriginal>…</exif:DateTimeOriginal>`), or an array's first item
/// (`<rdf:Seq>`/`<rdf:Bag>`/`<rdf:Alt>` with `<rdf:li>`). Comments, processing instructions
/// and struct fields are not properties and are ignored. The first value of a name wins.
///
/// Hostile input: packets larger than `maximumBytes` are not read; a packet with a document
/// type declaration (the only place entities can be declared) is refused, so there is no
/// entity expansion; libxml2 never loads anything from the network or the file system
/// (`XML_PARSE_NONET`, no DTD loading, no entity substitution). Malformed XML keeps what
/// was read before the error.
///
/// Runs once per XMP block (embedded or sidecar) when the metadata walk finds one; costs one
/// streaming pass of libxml2's pull parser over the packet (about a microsecond per 100
/// bytes), no tree is built.
package struct XMPPacket: Sendable {
    /// The values found, by property name.
    package private(set) var values: [XMPName: String] = [:]

    /// Largest packet read (16 MiB): larger ones (Photoshop's unbounded `DocumentAncestors`
    /// lists can grow that far) are treated as absent.
    package static let maximumBytes = 16 * 1024 * 1024
    /// At most this many properties are kept, and values longer than `maximumValueLength`
    /// bytes are skipped: a packet cannot make the reader hold more than a few megabytes.
    static let maximumProperties = 4_096
    static let maximumValueLength = 4_096

    static let rdfNamespace = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    private static let xmlnsNamespace = "http://www.w3.org/2000/xmlns/"

    /// The first value of `name`, nil when the packet has none.
    package subscript(_ name: XMPName) -> String? { values[name] }

    /// Reads `bytes` (UTF-8 or UTF-16 XML, with or without the `<?xpacket?>` wrapper).
    /// Never fails: unreadable or refused input gives an empty packet.
    package init(_ bytes: [UInt8]) {
        guard bytes.count <= Self.maximumBytes else { return }
        values = Self.withReader(bytes, Self.read) ?? [:]
    }

    /// Runs `body` on a libxml2 pull parser over `bytes` with the hostile-input settings
    /// above (no network, no DTD loading, no entity substitution, errors dropped silently);
    /// nil when `bytes` is empty or libxml2 cannot start. `body` must refuse a document type
    /// node itself. Shared by every XMP reader in the toolkit (`MotionPhotoXMP` too).
    package static func withReader<T>(_ bytes: [UInt8], _ body: (xmlTextReaderPtr) -> T) -> T? {
        guard !bytes.isEmpty else { return nil }
        _ = libraryReady
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_NOCDATA.rawValue)
        let reader: xmlTextReaderPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReaderForMemory($0, Int32(buffer.count), nil, nil, options)
                }
            }
        }
        guard let reader else { return nil }
        defer { xmlFreeTextReader(reader) }
        xmlTextReaderSetStructuredErrorHandler(reader, { _, _ in }, nil)
        // `bytes` must outlive the reader: libxml2 reads from the buffer lazily.
        return withExtendedLifetime(bytes) { body(reader) }
    }

    /// libxml2's one-time set-up, done before the first parse from any thread.
    private static let libraryReady: Void = { xmlInitParser() }()

    /// One element on the path from the root to the reader's position.
    private struct Open {
        var namespace: String
        var local: String
        var isTopLevelDescription = false
    }

    /// A property element whose value is being collected.
    private struct Capture {
        var name: XMPName
        var depth: Int
        var text = ""
        /// Depth of the `rdf:li` being read when the value is an array, else nil.
        var itemDepth: Int?
        var sawItem = false
    }

    private static func read(_ reader: xmlTextReaderPtr) -> [XMPName: String] {
        var values: [XMPName: String] = [:]
        var path: [Open] = []
        var capture: Capture?

        func keep(_ name: XMPName, _ value: String) {
            guard values[name] == nil, values.count < maximumProperties, value.utf8.count <= maximumValueLength else { return }
            values[name] = value
        }

        while xmlTextReaderRead(reader) == 1 {
            let depth = Int(xmlTextReaderDepth(reader))
            switch Int(xmlTextReaderNodeType(reader)) {
            case Int(XML_READER_TYPE_DOCUMENT_TYPE.rawValue), Int(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
                // XMP never declares a DTD; a packet that does is refused whole (entities).
                return [:]
            case Int(XML_READER_TYPE_ELEMENT.rawValue):
                guard depth <= path.count else { return values }
                path.removeSubrange(depth...)
                let namespace = text(xmlTextReaderConstNamespaceUri(reader)) ?? ""
                let local = text(xmlTextReaderConstLocalName(reader)) ?? ""
                let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
                var open = Open(namespace: namespace, local: local)
                let parent = path.last
                if namespace == rdfNamespace, local == "Description", let parent,
                   parent.namespace == rdfNamespace, parent.local == "RDF" {
                    open.isTopLevelDescription = true
                    for (name, value) in attributes(reader) { keep(name, value) }
                } else if parent?.isTopLevelDescription == true, capture == nil, namespace != rdfNamespace {
                    let name = XMPName(namespace, local)
                    if !isEmpty, values[name] == nil, !hasRDFAttribute(reader) {
                        capture = Capture(name: name, depth: depth)
                    }
                } else if var current = capture, namespace == rdfNamespace, local == "li",
                          depth == current.depth + 2, !current.sawItem {
                    // The first item of the array directly inside the property element.
                    current.sawItem = true
                    current.itemDepth = isEmpty ? nil : depth
                    current.text = ""
                    capture = current
                }
                if !isEmpty { path.append(open) }
            case Int(XML_READER_TYPE_TEXT.rawValue), Int(XML_READER_TYPE_CDATA.rawValue),
                 Int(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue), Int(XML_READER_TYPE_WHITESPACE.rawValue):
                guard var current = capture else { continue }
                let direct = current.itemDepth == nil && !current.sawItem && depth == current.depth + 1
                let inItem = current.itemDepth.map { depth == $0 + 1 } ?? false
                if (direct || inItem), current.text.utf8.count <= maximumValueLength,
                   let value = text(xmlTextReaderConstValue(reader)) {
                    current.text += value
                    capture = current
                }
            case Int(XML_READER_TYPE_END_ELEMENT.rawValue):
                if var current = capture {
                    if current.itemDepth == depth {
                        current.itemDepth = nil
                        capture = current
                    } else if current.depth == depth {
                        let value = current.text.trimmingXMLSpace()
                        if !value.isEmpty { keep(current.name, value) }
                        capture = nil
                    }
                }
                if depth < path.count { path.removeSubrange(depth...) }
            default:
                continue  // comments, processing instructions, the XML declaration
            }
        }
        return values
    }

    /// The attributes of the current element that are properties (not namespace
    /// declarations, not RDF's own `rdf:about`, not `xml:lang`).
    private static func attributes(_ reader: xmlTextReaderPtr) -> [(XMPName, String)] {
        var found: [(XMPName, String)] = []
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return found }
        repeat {
            guard let namespace = text(xmlTextReaderConstNamespaceUri(reader)),
                  namespace != xmlnsNamespace, namespace != rdfNamespace,
                  namespace != "http://www.w3.org/XML/1998/namespace",
                  let local = text(xmlTextReaderConstLocalName(reader)),
                  let value = text(xmlTextReaderConstValue(reader)) else { continue }
            found.append((XMPName(namespace, local), value.trimmingXMLSpace()))
        } while xmlTextReaderMoveToNextAttribute(reader) == 1 && found.count < maximumProperties
        xmlTextReaderMoveToElement(reader)
        return found
    }

    /// Whether the current element has an `rdf:` attribute (`rdf:resource`, `rdf:parseType`):
    /// its value is then a URI or a struct, not text.
    private static func hasRDFAttribute(_ reader: xmlTextReaderPtr) -> Bool {
        guard xmlTextReaderMoveToFirstAttribute(reader) == 1 else { return false }
        defer { xmlTextReaderMoveToElement(reader) }
        repeat {
            if text(xmlTextReaderConstNamespaceUri(reader)) == rdfNamespace { return true }
        } while xmlTextReaderMoveToNextAttribute(reader) == 1
        return false
    }

    static func text(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

extension String {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    package func trimmingXMLSpace() -> String {
        let space: Set<Character> = [" ", "\t", "\r", "\n", "\r\n"]
        guard let first = firstIndex(where: { !space.contains($0) }),
              let last = lastIndex(where: { !space.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
