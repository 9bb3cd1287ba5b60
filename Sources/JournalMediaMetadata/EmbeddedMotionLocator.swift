import JournalMediaCore

/// Where the video of an Android motion photo sits inside the still's file: a byte range
/// holding a complete MP4 (an ISO base media file starting with `ftyp`).
package struct EmbeddedMotion: Equatable, Sendable {
    package var offset: Int
    package var length: Int
    /// What located it: `heif.mpvd`, `xmp.Container`, `xmp.MicroVideoOffset`.
    package var locatedBy: String
}

/// Finds the MP4 a motion photo carries after its still:
///
/// - HEIF (Samsung One UI 6+): a top-level `mpvd` box whose payload is the MP4;
/// - JPEG (Google, Samsung): the XMP's `Container:Directory` (the `MotionPhoto` item's
///   `Item:Length`, counted back from the end of the file behind any items after it) or the
///   older `GCamera:MicroVideoOffset` (the video's distance from the end of the file).
///
/// The start found must hold an `ftyp` box; the video's end is where its top-level boxes end
/// (a Samsung trailer after the MP4 is left out), so libav is handed exactly the MP4's bytes.
/// Runs in the probe of every JPEG and HEIF still; costs nothing unless the XMP names a motion
/// photo (HEIF: one small read per top-level box, at most 64 boxes).
package enum EmbeddedMotionLocator {
    package static func locate(in source: some ByteSource, format: SourceFormat, xmp: [UInt8]?) -> EmbeddedMotion? {
        if format == .heic, let box = mpvdBox(source) { return box }
        guard format == .jpeg || format == .heic, let xmp, let fields = MotionPhotoXMP.parse(xmp),
              fields.isMotionPhoto || fields.microVideoOffset != nil else { return nil }
        let size = source.size
        if let index = fields.items.firstIndex(where: { $0.semantic == "MotionPhoto" })
            ?? fields.items.firstIndex(where: { $0.mime?.hasPrefix("video/") == true }) {
            // The video and every item after it end the file.
            var fromEnd = 0
            var complete = true
            for item in fields.items[index...] {
                guard let length = item.length, length > 0 else { complete = false; break }
                fromEnd += length
            }
            if complete, fromEnd < size, let found = video(in: source, at: size - fromEnd, by: "xmp.Container") {
                return found
            }
            // Writers disagree on whether `Item:Padding` is inside the length: try without it.
            if complete, let padding = fields.items[index].padding, padding > 0, fromEnd + padding < size,
               let found = video(in: source, at: size - fromEnd - padding, by: "xmp.Container") {
                return found
            }
        }
        if let offset = fields.microVideoOffset, offset > 0, offset < size {
            return video(in: source, at: size - offset, by: "xmp.MicroVideoOffset")
        }
        return nil
    }

    /// Top-level box types of an MP4; the walk stops at any other (Samsung's `sefd`/SEFT trailer).
    static let movieBoxTypes: Set<String> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "uuid", "udta", "meta",
                                             "moof", "mfra", "sidx", "styp", "pdin", "prft", "emsg"]

    /// The MP4 starting at `start` and ending by `limit` (default: the end of the file): its
    /// top-level MP4 boxes from `ftyp` on, as long as they are well-formed; nil when `start`
    /// holds no `ftyp` box or no `moov` follows.
    static func video(in source: some ByteSource, at start: Int, limit: Int? = nil, by locatedBy: String) -> EmbeddedMotion? {
        guard start > 0, source.fourCC(start + 4) == "ftyp" else { return nil }
        let end = min(limit ?? source.size, source.size)
        var offset = start
        var sawMovie = false
        for _ in 0..<64 {
            guard offset + 8 <= end, let size32 = source.uint32BE(offset), let type = source.fourCC(offset + 4),
                  movieBoxTypes.contains(type) else { break }
            var boxSize = size32
            if size32 == 1 {
                guard let large = source.uint64BE(offset + 8) else { break }
                boxSize = large
            } else if size32 == 0 {
                boxSize = source.size - offset
            }
            guard boxSize >= 8, boxSize <= end - offset else { break }
            if type == "moov" { sawMovie = true }
            offset += boxSize
        }
        guard sawMovie else { return nil }
        return EmbeddedMotion(offset: start, length: offset - start, locatedBy: locatedBy)
    }

    /// Samsung's HEIF motion photos: the MP4 is the payload of a top-level `mpvd` box.
    static func mpvdBox(_ source: some ByteSource) -> EmbeddedMotion? {
        var offset = 0
        for _ in 0..<64 {
            guard offset + 8 <= source.size, let size32 = source.uint32BE(offset), let type = source.fourCC(offset + 4)
            else { return nil }
            var header = 8
            var boxSize = size32
            if size32 == 1 {
                guard let large = source.uint64BE(offset + 8) else { return nil }
                boxSize = large
                header = 16
            } else if size32 == 0 {
                boxSize = source.size - offset
            }
            guard boxSize >= header, boxSize <= source.size - offset else { return nil }
            if type == "mpvd" {
                return video(in: source, at: offset + header, limit: offset + boxSize, by: "heif.mpvd")
            }
            offset += boxSize
        }
        return nil
    }
}
