import Foundation
import JournalMediaCore
import JournalMediaMetadata

/// Whether an XMP sidecar's `tiff:Orientation` turns a still, as Lightroom, darktable and
/// Immich use it: only when the file itself carries no EXIF Orientation tag (the file's own
/// tag, even 1, wins), and only for stills whose pixels libvips orients from EXIF (not HEIF or
/// AVIF, whose `irot`/`imir` transforms libheif applies, not vector drawings, not movies).
///
/// Decided once in the probe from the sidecar the probe already read; costs a dictionary
/// lookup. The manifest entry then says `orientationSource: "xmp-sidecar.tiff:Orientation"`.
enum SidecarOrientation {
    /// The value `orientationSource` takes when the sidecar's orientation was applied.
    static let source = "xmp-sidecar.tiff:Orientation"

    /// The sidecar's orientation (1–8) to apply to a `format` file, or nil.
    static func applicable(_ sidecar: XMPPacket?, format: SourceFormat, fileHasOrientation: Bool) -> Int? {
        guard !fileHasOrientation, format.isImage, !format.isVector, !format.isMetadataOnly,
              format.handling.still?.appliesOwnOrientation != true,
              let text = sidecar?[XMPName.orientation]?.trimmingCharacters(in: .whitespaces),
              let value = Int(text), (1...8).contains(value) else { return nil }
        return value
    }
}
