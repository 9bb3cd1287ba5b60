import JournalMediaCore
import JournalMediaMetadata

/// Camera raw files (DNG, CR2, NEF, ARW, ORF, RAF, RW2), shown through the largest JPEG
/// preview they embed, as Immich's "prefer embedded preview" does: the camera's own
/// rendering of the sensor data, full-size or nearly on current cameras. The raw file's IFD0
/// orientation is applied to the preview (cameras store it as the sensor saw it); the
/// capture date comes from the raw's own EXIF, read by the probe. The sensor data itself is
/// never decoded (libvips has no raw developer).
///
/// Made by the registry for sniffed raw formats, before `PhotoSource`. Costs a bounded walk
/// of the raw's directories (`RawPreview`), one copy of the preview's bytes and a JPEG decode
/// with shrink-on-load. A raw without a usable preview fails at `probe` with reason `corrupt`.
public struct CameraRawSource: FileSource {
    /// The raw file (its name, format, and an XMP sidecar's orientation for a raw without one of its own).
    let probe: ProbedAsset
    let bytes: [UInt8]

    public static func accepts(_ probe: ProbedAsset) -> Bool { probe.format?.isCameraRaw == true }

    public init(probe: ProbedAsset, content: SourceFile) {
        self.probe = probe
        bytes = content.bytes
    }

    public func decode(plan: DecodePlan, into result: inout AssetResult) throws(AssetError) -> SourceImage {
        let name = probe.name, sidecarOrientation = probe.sidecarOrientation
        guard let format = probe.format else {
            throw AssetError(file: name, stage: .sniff, reason: .unsupportedFormat, message: "not a raw file")
        }
        result.kind = .photo
        let source = MemoryBytes(bytes: bytes)
        guard let preview = RawPreview.locate(in: source, format: format) else {
            let missing = AssetError(file: name, stage: .probe, reason: .corrupt, message:
                "the \(format.rawValue.uppercased()) file embeds no JPEG preview this toolkit can show "
                + "(its sensor data is not developed)")
            // A TIFF-structured raw (DNG, NEF, ARW) without one still has its IFD0 image,
            // usually a small RGB thumbnail, which libtiff reads: better than nothing, and said.
            guard format != .cr2, source.read(0, 4).map({ MetadataBlocks.isTIFFHeader($0[...]) }) == true else {
                throw missing
            }
            var shown = result
            do throws(AssetError) {
                let image = try StillDecoding.decode(bytes, format: .tiff, name: name, plan: plan, into: &shown,
                                                     sidecarOrientation: sidecarOrientation)
                shown.warnings = (shown.warnings ?? []) + [
                    "decode: no embedded JPEG preview; shown from the raw file's \(image.width)×\(image.height) IFD0 image"]
                result = shown
                return image
            } catch {
                throw missing
            }
        }
        let window = MemoryBytes(bytes: Array(bytes[preview.offset..<preview.offset + preview.length]))
        if let overrun = ContainerBounds.check(window, format: .jpeg) {
            throw AssetError(file: name, stage: .probe, reason: .truncated,
                             message: "the embedded JPEG preview: \(overrun.message)")
        }
        let jpeg = preview.orientation.map { JPEGOrientation.tagged(window.bytes, orientation: $0) } ?? window.bytes
        return try StillDecoding.decode(jpeg, format: .jpeg, name: name, plan: plan, into: &result,
                                        sidecarOrientation: sidecarOrientation)
    }
}

/// Gives a JPEG an EXIF orientation: a small APP1 `Exif` segment holding only IFD0's
/// Orientation, placed right after SOI, where libvips (which reads the first EXIF block)
/// finds it before any the JPEG already carries. Costs one copy of the JPEG.
enum JPEGOrientation {
    static func tagged(_ jpeg: [UInt8], orientation: Int) -> [UInt8] {
        guard jpeg.count >= 2, (1...8).contains(orientation) else { return jpeg }
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian header, IFD0 at 8
                             0x00, 0x01,  // one entry
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // Orientation, SHORT, 1 value
                             0x00, UInt8(orientation), 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]  // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + jpeg[2...]
    }
}
