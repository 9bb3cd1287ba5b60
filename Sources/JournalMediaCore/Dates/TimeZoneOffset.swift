import Foundation

/// The UTC offset an IANA time zone (`Europe/Zurich`) has at a local wall-clock time, from
/// the system's zone data (tzdata, through Foundation's `TimeZone`).
///
/// Runs when a capture date states a local time without an offset and the file's GPS
/// position names a place with a zone (`CaptureDateResolver`): one zone lookup and two or
/// three offset queries, microseconds. A local time that occurs twice (the hour repeated
/// when clocks go back) takes the offset in force before the change (daylight time); one
/// that does not occur (the hour skipped when clocks go forward) takes the offset in force
/// before the gap, as most clocks read it. Nil for an unknown zone or an offset beyond ±14 h.
public enum TimeZoneOffset {
    /// Offset of `local` in `zone`, minutes east of UTC.
    public static func minutes(zone: String, local: LocalDateTime) -> Int? {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        let wall = local.secondsSinceEpochAsUTC
        func offset(at utc: Double) -> Int { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: utc)) }
        // The offsets just before and just after the instants this wall time can stand for.
        let early = offset(at: wall - 86_400), late = offset(at: wall + 86_400)
        let seconds: Int
        if early == late {
            seconds = offset(at: wall - Double(early))
        } else if offset(at: wall - Double(early)) == early {
            seconds = early  // valid under the earlier offset (also a repeated hour's first reading)
        } else if offset(at: wall - Double(late)) == late {
            seconds = late
        } else {
            seconds = early  // in the gap: read with the offset before it
        }
        let minutes = Int((Double(seconds) / 60).rounded())
        guard abs(minutes) <= DateText.maximumOffsetMinutes else { return nil }
        return minutes
    }
}
