import Foundation
import JournalMediaCore

/// Chooses an asset's capture date from everything its file offers, in order of trust.
///
/// An XMP sidecar's full timestamp comes first, as Lightroom, darktable and Immich read it
/// (a capture time corrected in Lightroom for a raw file lives only there); its date-only
/// values come after the file's own EXIF and XMP dates.
/// Photos: EXIF `DateTimeOriginal` (+ `SubSecTimeOriginal`, `OffsetTimeOriginal`), EXIF
/// `DateTimeDigitized` (+ its sub-seconds and offset), XMP `exif:DateTimeOriginal`,
/// `photoshop:DateCreated`, `xmp:CreateDate` (full timestamps before date-only values, see
/// `XMPDates`), PNG text `Creation Time`, then EXIF `DateTime` (+ `SubSecTime`,
/// `OffsetTime`), then the GPS date and time alone (UTC), then a HEIF image sequence's
/// `mvhd` creation time (UTC). A PNG's `eXIf` chunk is EXIF and is read as such.
/// Videos: `com.apple.quicktime.creationdate`, then `creation_time` (the `mvhd` box or
/// Matroska's `DateUTC`, UTC; AVI's `IDIT`, local), then a recording date from the file's
/// own structures (an AVCHD camcorder's in the H.264 stream, local time with its zone; a DV
/// camcorder's VAUX packs; a WAV's `bext` or `INFO` chunks).
/// Then for any file a date in its name, and last its modification time.
///
/// A local time without an offset gets one from the file's GPS date and time (UTC) when
/// both are present: local − GPS, rounded to 15 minutes, refused beyond ±14 h
/// (`offsetInferred`); else, when the file states a position, from the IANA time zone of the
/// nearest place (`Place.timeZone`) at that local time (`offsetFromPlace`, the zone in
/// `timeZone`; `TimeZoneOffset`). Values that
/// are blank, zeroed, malformed, before 1900 or after tomorrow are skipped and the next
/// source is tried. Runs over already-read metadata: microseconds per asset, plus one
/// libxml2 pass over the XMP packet when the file has no EXIF date (`XMPPacket`).
package struct CaptureDateResolver {
    package var exif: ExifBlock?
    /// The file's own XMP packet, parsed; or its bytes, parsed only when the resolution gets
    /// that far (most camera files have an EXIF date and never need it).
    package var xmp: XMPPacket?
    package var xmpBytes: [UInt8]?
    /// An XMP sidecar beside the file (`IMG_0001.xmp`, `IMG_0001.JPG.xmp`).
    package var sidecar: XMPPacket?
    package var pngTexts: [(keyword: String, text: String)] = []
    package var containerTags: [String: String] = [:]
    /// The `source` a container's `creation_time` is reported as, and whether it is a local
    /// time without a zone (AVI's `IDIT`) rather than UTC (QuickTime's `mvhd`, Matroska's `DateUTC`).
    package var containerDateSource = "quicktime.creation_time"
    package var containerDateIsLocal = false
    /// A recording date read from the file's own structures where libav has none: an AVCHD
    /// camcorder's in the H.264 stream (`AVCHDRecordingDate`), a DV camcorder's VAUX packs
    /// (`DVRecordingDate`), a WAV's `bext`/`INFO` chunks (`RIFFWaveDate`); local time, with a
    /// zone only when the format has one (AVCHD). `source` names where it came from.
    package var recordingDate: (text: String, source: String)?
    /// A HEIF image sequence's `mvhd` creation time (UTC).
    package var movieCreated: LocalDateTime?
    /// Where the file says it was made: its nearest place's time zone gives a local time
    /// without an offset one (looked up only then).
    package var location: Location?
    package var fileName: String
    package var modified: Double?
    package var now = Date()

    package init(fileName: String, modified: Double?) {
        self.fileName = fileName
        self.modified = modified
    }

    package func resolve() -> CaptureDate? {
        let sidecarDates = sidecar.map(XMPDates.dates(in:)) ?? []
        for (parsed, name) in sidecarDates where parsed.hasTime {
            if let date = date(parsed, source: "xmp-sidecar.\(name)") { return date }
        }
        if let exif {
            if let date = exifDate(exif, .exif, ExifTagNumber.dateTimeOriginal, ExifTagNumber.subSecTimeOriginal,
                                   ExifTagNumber.offsetTimeOriginal, "exif.DateTimeOriginal") { return date }
            if let date = exifDate(exif, .exif, ExifTagNumber.dateTimeDigitized, ExifTagNumber.subSecTimeDigitized,
                                   ExifTagNumber.offsetTimeDigitized, "exif.DateTimeDigitized") { return date }
        }
        if let xmp = xmp ?? xmpBytes.map(XMPPacket.init) {
            for (parsed, name) in XMPDates.dates(in: xmp) {
                if let date = date(parsed, source: "xmp.\(name)") { return date }
            }
        }
        for (parsed, name) in sidecarDates where !parsed.hasTime {
            if let date = date(parsed, source: "xmp-sidecar.\(name)") { return date }
        }
        for entry in pngTexts where entry.keyword == "Creation Time" {
            if let parsed = DateText.dateTime(entry.text) ?? DateText.rfc1123(entry.text),
               let date = date(parsed, source: "png.CreationTime") { return date }
        }
        if let exif, let date = exifDate(exif, .primary, ExifTagNumber.dateTime, ExifTagNumber.subSecTime,
                                         ExifTagNumber.offsetTime, "exif.DateTime") { return date }
        if let utc = gpsInstant() {
            return CaptureDate(local: nil, offsetMinutes: nil, utc: utc, source: "exif.GPSDateTime", confidence: .utcOnly)
        }
        if let movieCreated, let date = movieHeaderDate(utc: movieCreated) { return date }
        if let text = containerTags["com.apple.quicktime.creationdate"], let parsed = DateText.dateTime(text),
           let date = date(parsed, source: "quicktime.creationdate") { return date }
        if let text = containerTags["creation_time"], let date = movieHeaderDate(text) { return date }
        if let recorded = recordingDate, let parsed = DateText.dateTime(recorded.text, allowDateOnly: true),
           let date = date(parsed, source: recorded.source) { return date }
        if let local = FileNameDate.parse(fileName), DateText.isPlausible(local, now: now) {
            return CaptureDate(local: local, offsetMinutes: nil, utc: nil, source: "filename", confidence: .filename)
        }
        if let modified, let utc = LocalDateTime(utcSecondsSinceEpoch: modified) {
            return CaptureDate(local: nil, offsetMinutes: nil, utc: utc, source: "fileModified", confidence: .fileModified)
        }
        return nil
    }

    private func exifDate(_ exif: ExifBlock, _ directory: ExifBlock.Directory, _ tag: UInt16, _ subSecTag: UInt16,
                          _ offsetTag: UInt16, _ source: String) -> CaptureDate? {
        guard let text = exif.text(directory, tag), var parsed = DateText.dateTime(text) else { return nil }
        if let fraction = exif.text(.exif, subSecTag).flatMap(DateText.subSecondMilliseconds),
           parsed.local.millisecond == nil,
           let local = LocalDateTime(year: parsed.local.year, month: parsed.local.month, day: parsed.local.day,
                                     hour: parsed.local.hour, minute: parsed.local.minute, second: parsed.local.second,
                                     millisecond: fraction) {
            parsed.local = local
        }
        if parsed.offsetMinutes == nil, let offset = exif.text(.exif, offsetTag).flatMap(DateText.offsetMinutes) {
            parsed.offsetMinutes = offset
        }
        return date(parsed, source: source)
    }

    /// A parsed local time as a capture date: exact with its own offset, else with an offset
    /// inferred from GPS, else local only. Nil when implausible.
    private func date(_ parsed: DateText.Parsed, source: String) -> CaptureDate? {
        guard DateText.isPlausible(parsed.local, now: now) else { return nil }
        if let offset = parsed.offsetMinutes {
            return .zoned(parsed.local, offsetMinutes: offset, source: source, confidence: .exact)
        }
        if parsed.hasTime, let offset = gpsOffset(for: parsed.local) {
            return .zoned(parsed.local, offsetMinutes: offset, source: source, confidence: .offsetInferred)
        }
        if parsed.hasTime, let location, let zone = Place.nearest(to: location)?.timeZone,
           let offset = TimeZoneOffset.minutes(zone: zone, local: parsed.local) {
            var date = CaptureDate.zoned(parsed.local, offsetMinutes: offset, source: source, confidence: .offsetFromPlace)
            date.timeZone = zone
            return date
        }
        return CaptureDate(local: parsed.local, offsetMinutes: nil, utc: nil, source: source, confidence: .localOnly)
    }

    /// local − GPS UTC time, rounded to 15 minutes; nil without both GPS date and time, or
    /// beyond ±14 hours.
    func gpsOffset(for local: LocalDateTime) -> Int? {
        guard let gpsSeconds = gpsSeconds() else { return nil }
        let localSeconds = Double(Int(local.secondsSinceEpochAsUTC.rounded(.down)))
        let quarters = ((localSeconds - gpsSeconds) / 900).rounded()
        let minutes = Int(quarters) * 15
        guard abs(minutes) <= DateText.maximumOffsetMinutes else { return nil }
        return minutes
    }

    /// The GPS date and time (UTC) as an instant, when both are present and plausible.
    private func gpsInstant() -> LocalDateTime? {
        guard let seconds = gpsSeconds(), let utc = LocalDateTime(utcSecondsSinceEpoch: seconds.rounded(.down)),
              DateText.isPlausible(utc, now: now) else { return nil }
        return LocalDateTime(year: utc.year, month: utc.month, day: utc.day, hour: utc.hour, minute: utc.minute,
                             second: utc.second)
    }

    /// GPSDateStamp + GPSTimeStamp as seconds since 1970 (UTC).
    private func gpsSeconds() -> Double? {
        guard let exif, let dateText = exif.text(.gps, ExifTagNumber.gpsDateStamp),
              let day = DateText.dateTime(dateText, allowDateOnly: true), !day.hasTime,
              let clock = exif.rationals(.gps, ExifTagNumber.gpsTimeStamp), clock.count == 3,
              clock.allSatisfy({ $0 >= 0 && $0.isFinite }), clock[0] < 24, clock[1] < 60, clock[2] < 61
        else { return nil }
        return day.local.secondsSinceEpochAsUTC + clock[0] * 3_600 + clock[1] * 60 + clock[2]
    }

    /// `creation_time` as libavformat prints the `mvhd` time: UTC, whole seconds. Zero is
    /// not printed by libavformat; the 1904 epoch and 1970-01-01 are unset clocks.
    private func movieHeaderDate(_ text: String) -> CaptureDate? {
        guard let parsed = DateText.dateTime(text), parsed.offsetMinutes == 0 || parsed.offsetMinutes == nil
        else { return nil }
        return movieHeaderDate(utc: parsed.local)
    }

    /// An `mvhd` time (UTC) as a capture date; nil when implausible or an unset clock.
    private func movieHeaderDate(utc l: LocalDateTime) -> CaptureDate? {
        guard DateText.isPlausible(l, now: now) else { return nil }
        if (l.year == 1970 || l.year == 1904) && l.month == 1 && l.day == 1 { return nil }
        if containerDateIsLocal {
            return CaptureDate(local: l, offsetMinutes: nil, utc: nil, source: containerDateSource, confidence: .localOnly)
        }
        guard let utc = LocalDateTime(year: l.year, month: l.month, day: l.day, hour: l.hour, minute: l.minute,
                                      second: l.second, millisecond: (l.millisecond ?? 0) == 0 ? nil : l.millisecond)
        else { return nil }
        return CaptureDate(local: nil, offsetMinutes: nil, utc: utc, source: containerDateSource, confidence: .utcOnly)
    }
}
