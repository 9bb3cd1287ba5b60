/// A file format recognised from its first bytes (never from its name).
public enum SourceFormat: String, Codable, Sendable, CaseIterable {
    case jpeg, png, webp, gif, tiff, heic, avif, svg, pdf

    /// The IANA media type written to the manifest's `mediaType`.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        }
    }

    /// Vector formats are rendered at the size asked for rather than decoded and shrunk.
    public var isVector: Bool { self == .svg || self == .pdf }
}

/// What an asset is, as the manifest's `kind` reports it.
public enum AssetKind: String, Codable, Sendable {
    /// A still image: photo, artwork, icon or poster, processed by the photo pipeline.
    case photo
}
