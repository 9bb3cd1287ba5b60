import JournalMediaCore

/// The recording date AVCHD camcorders (Sony, Canon, Panasonic, JVC) write into the H.264
/// stream itself, what ExifTool reports as `H264:DateTimeOriginal`: an SEI "user data
/// unregistered" message (payload type 5) whose payload starts with the UUID
/// 17EE8C60-F84D-11D9-8CD6-0800200C9A66 and the text `MDPM` ("modified DV pack metadata"),
/// followed by a record count and 5-byte records (tag, 4 data bytes):
///
/// - tag 0x18: time-zone byte, then BCD year (high, low) and BCD month;
/// - tag 0x19 (the record right after 0x18): BCD day, hour, minute, second.
///
/// The time-zone byte, as ExifTool's H264 module documents it: 0x40 daylight saving time,
/// 0x20 negative sign, bits 1–4 the hours, 0x01 an extra half hour (0x80 unused).
///
/// Runs on the first few access units of an MPEG-TS/M2TS video stream (the caller reads them
/// through libav); pure Swift over bytes, no allocation beyond one unescaped SEI payload.
/// Anything malformed gives nil.
package enum AVCHDRecordingDate {
    /// The `source` a capture date read from here carries.
    package static let source = "h264.DateTimeOriginal"

    static let userDataUUID: [UInt8] = [0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9,
                                        0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66]
    static let mdpm: [UInt8] = Array("MDPM".utf8)

    /// The first MDPM date in these Annex B access units (start-code delimited NAL units),
    /// as a date text `YYYY:MM:DD hh:mm:ss±hh:mm` that `DateText.dateTime` reads.
    package static func find(in accessUnits: [[UInt8]]) -> String? {
        for unit in accessUnits {
            for nal in nalUnits(unit) where nal.count > 1 && (nal.first ?? 0) & 0x1F == 6 {
                if let text = dateInSEI(rbsp(nal.dropFirst())) { return text }
            }
        }
        return nil
    }

    /// The NAL units of an Annex B byte stream (header byte first, start codes removed).
    static func nalUnits(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var starts: [Int] = []
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == 0, bytes[index + 1] == 0, bytes[index + 2] == 1 {
                starts.append(index + 3)
                index += 3
            } else {
                index += 1
            }
        }
        var units: [ArraySlice<UInt8>] = []
        for (position, start) in starts.enumerated() {
            var end = position + 1 < starts.count ? starts[position + 1] - 3 : bytes.count
            // Trailing zero bytes belong to the next start code (00 00 00 01) or are padding.
            while end > start, bytes[end - 1] == 0 { end -= 1 }
            if end > start { units.append(bytes[start..<end]) }
        }
        return units
    }

    /// A NAL payload with its emulation-prevention bytes removed (00 00 03 → 00 00).
    static func rbsp(_ payload: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }

    /// Walks the SEI messages of one SEI RBSP for the MDPM user data.
    static func dateInSEI(_ sei: [UInt8]) -> String? {
        var position = 0
        func extendedValue() -> Int? {
            var value = 0
            while position < sei.count {
                let byte = Int(sei[position])
                position += 1
                value += byte
                if byte != 0xFF { return value }
            }
            return nil
        }
        // The last byte is the RBSP stop bit (0x80).
        while position < sei.count, sei[position] != 0x80 {
            guard let type = extendedValue(), let size = extendedValue(), size <= sei.count - position else { return nil }
            let payload = sei[position..<(position + size)]
            position += size
            if type == 5, let text = dateInUserData(payload) { return text }
        }
        return nil
    }

    /// The date of one "user data unregistered" payload, nil unless it is MDPM with tags 0x18 + 0x19.
    static func dateInUserData(_ payload: ArraySlice<UInt8>) -> String? {
        let header = userDataUUID + mdpm
        guard payload.count > header.count, payload.prefix(header.count).elementsEqual(header) else { return nil }
        let countIndex = payload.startIndex + header.count
        let count = Int(payload[countIndex])
        var record = countIndex + 1
        var recordsLeft = count
        while recordsLeft > 0, record + 5 <= payload.endIndex {
            if payload[record] == 0x18 {
                let next = record + 5
                guard next + 5 <= payload.endIndex, recordsLeft > 1, payload[next] == 0x19 else { return nil }
                return dateText(zone: payload[record + 1], yearHigh: payload[record + 2], yearLow: payload[record + 3],
                                month: payload[record + 4], day: payload[next + 1], hour: payload[next + 2],
                                minute: payload[next + 3], second: payload[next + 4])
            }
            record += 5
            recordsLeft -= 1
        }
        return nil
    }

    /// The date text of the two records' bytes; nil when a field is not BCD or the zone is out of range.
    static func dateText(zone: UInt8, yearHigh: UInt8, yearLow: UInt8, month: UInt8, day: UInt8, hour: UInt8,
                         minute: UInt8, second: UInt8) -> String? {
        let fields = [yearHigh, yearLow, month, day, hour, minute, second]
        guard fields.allSatisfy({ $0 >> 4 <= 9 && $0 & 0x0F <= 9 }) else { return nil }
        func digits(_ byte: UInt8) -> String { String(byte >> 4) + String(byte & 0x0F) }
        var offset = Int((zone >> 1) & 0x0F) * 60 + (zone & 0x01 != 0 ? 30 : 0)
        if zone & 0x20 != 0 { offset = -offset }
        // Daylight saving: the camcorder's clock shows zone + 1 h, so the offset from UTC is
        // one hour more. ExifTool only appends "DST" to its text; this reading follows the
        // camcorder manuals' description of the DST setting and is unverified on a real
        // DST recording (the corpus has none).
        if zone & 0x40 != 0 { offset += 60 }
        guard abs(offset) <= DateText.maximumOffsetMinutes else { return nil }
        let sign = offset < 0 ? "-" : "+"
        let zoneText = sign + twoDigits(abs(offset) / 60) + ":" + twoDigits(abs(offset) % 60)
        return digits(yearHigh) + digits(yearLow) + ":" + digits(month) + ":" + digits(day) + " "
            + digits(hour) + ":" + digits(minute) + ":" + digits(second) + zoneText
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
