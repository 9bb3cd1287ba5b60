import Foundation
import JournalMediaCore

/// The recording date and time a DV camcorder writes into every frame (IEC 61834): the VAUX
/// "REC DATE" (0x62) and "REC TIME" (0x63) packs of the frame's first DIF sequence, local
/// time without a zone, two-digit year. libav exports only the timecode, so the packs
/// are read here. A DIF block is 80 bytes with its section type in the top three bits of
/// its first byte (2 = VAUX); a VAUX block holds fifteen 5-byte packs after its 3-byte ID;
/// the fields are BCD, all-ones when unset.
///
/// Used by the capture-date reader for `.dv` files; costs one read of the first DIF
/// sequence (12,000 bytes at most, less for a shorter file).
package enum DVRecordingDate {
    package static let source = "dv.DateTimeOriginal"

    /// "YYYY-MM-DDTHH:MM:SS" from the first VAUX block that has both packs valid, or nil.
    /// Years 90–99 are 19xx, the rest 20xx (DV came out in 1995).
    package static func find(in source: some ByteSource) -> String? {
        let length = min(source.size, 150 * 80)
        guard length >= 80, let bytes = source.read(0, length - length % 80) else { return nil }
        var date: (year: Int, month: Int, day: Int)?
        var time: (hour: Int, minute: Int, second: Int)?
        for block in stride(from: 0, to: bytes.count, by: 80) where bytes[block] >> 5 == 2 {
            for pack in stride(from: block + 3, to: block + 3 + 15 * 5, by: 5) {
                let fields = bytes[(pack + 1)..<(pack + 5)]
                switch bytes[pack] {
                case 0x62 where date == nil: date = recordingDate(Array(fields))
                case 0x63 where time == nil: time = recordingTime(Array(fields))
                default: break
                }
            }
            if let date, let time {
                return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", date.year, date.month, date.day,
                              time.hour, time.minute, time.second)
            }
        }
        return nil
    }

    /// A BCD number from `tens` (already shifted down) and the low nibble; nil when a digit is not 0–9.
    private static func bcd(_ tens: UInt8, _ byte: UInt8) -> Int? {
        let units = byte & 0x0F
        guard tens <= 9, units <= 9 else { return nil }
        return Int(tens) * 10 + Int(units)
    }

    /// PC2: day (2 tens bits), PC3: month (1 tens bit), PC4: year (4 tens bits).
    private static func recordingDate(_ pc: [UInt8]) -> (year: Int, month: Int, day: Int)? {
        guard pc.count == 4, pc[1] != 0xFF, pc[2] != 0xFF, pc[3] != 0xFF,
              let day = bcd((pc[1] >> 4) & 0x03, pc[1]), let month = bcd((pc[2] >> 4) & 0x01, pc[2]),
              let year = bcd(pc[3] >> 4, pc[3]), (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year >= 90 ? 1900 + year : 2000 + year, month, day)
    }

    /// PC2: seconds (3 tens bits), PC3: minutes (3 tens bits), PC4: hours (2 tens bits).
    private static func recordingTime(_ pc: [UInt8]) -> (hour: Int, minute: Int, second: Int)? {
        guard pc.count == 4, pc[1] != 0xFF, pc[2] != 0xFF, pc[3] != 0xFF,
              let second = bcd((pc[1] >> 4) & 0x07, pc[1]), let minute = bcd((pc[2] >> 4) & 0x07, pc[2]),
              let hour = bcd((pc[3] >> 4) & 0x03, pc[3]), hour < 24, minute < 60, second < 60 else { return nil }
        return (hour, minute, second)
    }
}
