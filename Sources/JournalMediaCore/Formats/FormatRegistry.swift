/// The one table of format handlers. Adding a format is one handler file and one line here.
///
/// `sniff` asks the handlers in priority order (higher first; among equals, the order of
/// `handlers`), as libvips orders its loaders, and the first that answers decides. Every
/// `SourceFormat` is described by exactly one handler (`FormatRegistryTests`). The tables are
/// built once, on first use; a lookup costs a dictionary probe.
public enum FormatRegistry {
    /// Every handler, once.
    public static let handlers: [any FormatHandler] = [
        JPEGFormat(),
        PNGFormat(),
        GIFFormat(),
        RIFFFormats(),
        AIFFFormat(),
        DVFormat(),
        FLVFormat(),
        MXFFormat(),
        MatroskaFormats(),
        TIFFFamily(),
        JPEGXLFormat(),
        JPEG2000Format(),
        OpenEXRFormat(),
        RadianceFormat(),
        PDFFormat(),
        PSDFormat(),
        ISOBMFFFamily(),
        FLACFormat(),
        OggFormat(),
        TransportStreamFormat(),
        NetpbmFamily(),
        BMPFormat(),
        ICOFormat(),
        QuickTimeLegacyFormat(),
        MP3Format(),
        ADTSFormat(),
        SVGFormat(),
        FITSFormat(),
    ]

    /// `handlers` in the order `sniff` asks them.
    static let sniffOrder: [any FormatHandler] = handlers.enumerated()
        .sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
        .map(\.element)

    private static let descriptions: [SourceFormat: FormatDescription] = {
        var table: [SourceFormat: FormatDescription] = [:]
        for handler in handlers {
            for description in handler.formats where table[description.format] == nil {
                table[description.format] = description
            }
        }
        return table
    }()

    /// Every described format, in the order of `handlers`.
    static let formats: [SourceFormat] = handlers.flatMap { $0.formats.map(\.format) }

    /// What every handler describes, in the order of `handlers` (one entry per format): the
    /// source of lists shown to people, such as `convert --help`'s input formats.
    public static var described: [FormatDescription] { formats.map(description(of:)) }

    private static let names: Set<String> = Set(formats.map(\.rawValue))

    /// Whether a handler describes the format named `rawValue`.
    static func describes(_ rawValue: String) -> Bool { names.contains(rawValue) }

    /// The format of `head`, or nil when no handler reads it.
    public static func sniff(_ head: SniffHead) -> SourceFormat? {
        for handler in sniffOrder {
            switch handler.sniff(head) {
            case .format(let format)?: return format
            case .claimed?: return nil
            case nil: continue
            }
        }
        return nil
    }

    /// What the pipeline knows about `format`. A format no handler describes (a registry
    /// mistake that `FormatRegistryTests` catches) reads as metadata-only, so it is never decoded.
    public static func description(of format: SourceFormat) -> FormatDescription {
        descriptions[format] ?? FormatDescription(format, mediaType: "application/octet-stream", suffixes: [],
                                                  kind: .metadataOnly)
    }
}

extension SourceFormat {
    /// What this format's handler says about it (`FormatRegistry`).
    public var handling: FormatDescription { FormatRegistry.description(of: self) }
}
