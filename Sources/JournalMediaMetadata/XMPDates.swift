import JournalMediaCore

/// The capture date an XMP packet states, chosen from its date properties in order of trust.
///
/// A full timestamp wins over a date without a time of day: `exif:DateTimeOriginal`,
/// `photoshop:DateCreated`, `xmp:CreateDate` (any of them with a time), then the date-only
/// forms of `photoshop:DateCreated` and `xmp:CreateDate` (Photoshop's "Date Created" field
/// is often a bare day while `xmp:CreateDate` holds the full time). Runs when EXIF has no
/// date (or for a sidecar); costs a dictionary look-up and a date parse per candidate.
enum XMPDates {
    /// One candidate: the property, and whether a bare date is accepted in this pass.
    struct Candidate {
        var name: XMPName
        var dateOnly: Bool
    }

    /// The candidates in order of trust.
    static let candidates: [Candidate] = [
        Candidate(name: .dateTimeOriginal, dateOnly: false),
        Candidate(name: .dateCreated, dateOnly: false),
        Candidate(name: .createDate, dateOnly: false),
        Candidate(name: .dateCreated, dateOnly: true),
        Candidate(name: .createDate, dateOnly: true),
    ]

    /// Every candidate in `packet` that parses, in order of trust, with the property it came
    /// from; the caller takes the first that is plausible.
    static func dates(in packet: XMPPacket) -> [(parsed: DateText.Parsed, name: XMPName)] {
        candidates.compactMap { candidate in
            guard let text = packet[candidate.name],
                  let parsed = DateText.dateTime(text, allowDateOnly: candidate.dateOnly),
                  parsed.hasTime != candidate.dateOnly else { return nil }
            return (parsed, candidate.name)
        }
    }
}
