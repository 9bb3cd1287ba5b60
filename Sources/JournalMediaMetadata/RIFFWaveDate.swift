import Foundation
import JournalMediaCore

/// The recording date a WAV file carries in its RIFF chunks, local time without a zone:
/// a Broadcast Wave `bext` chunk's OriginationDate and OriginationTime (field recorders; 10
/// and 8 characters at offsets 320 and 330 of the chunk), else the `LIST`/`INFO` chunk's
/// `ICRD` (creation date, often date-only) completed by the time of a camera's Exif audio
/// `LIST`/`exif` chunk (`etim`), as ExifTool's DateTimeOriginal composite does.
///
/// Used by the capture-date reader for `.wav` files (libav exports `ICRD` only, and not the
/// camera's time); costs a walk of the top-level chunk headers (`RIFFChunks.walk`, at most
/// 1,000) and small reads of the three chunks.
package enum RIFFWaveDate {
    /// The date text ("YYYY-MM-DD HH:MM:SS" or a date alone) and its source name, or nil.
    package static func find(in source: some ByteSource) -> (text: String, source: String)? {
        guard let head = source.read(0, 12), head.prefix(4).elementsEqual("RIFF".utf8),
              head[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        var created: String?
        var cameraTime: String?
        var broadcast: (text: String, source: String)?
        RIFFChunks.walk(source, from: 12, limit: 1_000) { type, body, size in
            let inFile = min(size, max(0, source.size - body))
            switch type {
            case "bext" where inFile >= 338:
                if let date = text(source, body + 320, 10), let time = text(source, body + 330, 8),
                   date.count == 10, time.count == 8 {
                    let clock = time.replacingOccurrences(of: "-", with: ":").replacingOccurrences(of: ".", with: ":")
                    broadcast = ("\(date) \(clock)", "riff.bext.OriginationDate")
                    return false
                }
            case "LIST" where inFile >= 4:
                let kind = source.fourCC(body)
                for (name, value) in subchunks(source, from: body + 4, to: body + inFile) {
                    if kind == "INFO", name == "ICRD", created == nil { created = value }
                    if kind == "exif", name == "etim", cameraTime == nil { cameraTime = value }
                }
            default: break
            }
            return true
        }
        if let broadcast { return broadcast }
        guard var created, !created.isEmpty else { return nil }
        if created.count == 10, let cameraTime, cameraTime.count >= 8 { created += " " + cameraTime.prefix(8) }
        return (created, "riff.DateCreated")
    }

    /// The text subchunks (ID, value without trailing NULs and blanks) of a LIST between `start` and `end`.
    private static func subchunks(_ source: some ByteSource, from start: Int, to end: Int) -> [(String, String)] {
        var found: [(String, String)] = []
        RIFFChunks.walk(source, from: start, to: end, limit: .max) { name, data, size in
            guard size <= end - data else { return false }
            if size <= 256, let value = text(source, data, size) { found.append((name, value)) }
            return found.count < 200
        }
        return found
    }

    /// ASCII text of `count` bytes at `offset`, cut at the first NUL and trimmed; nil when unreadable.
    private static func text(_ source: some ByteSource, _ offset: Int, _ count: Int) -> String? {
        guard let bytes = source.read(offset, count) else { return nil }
        let kept = bytes.prefix { $0 != 0 }
        guard kept.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: kept, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
