/// Dates that phones and apps put in file names, read when a file carries no date inside.
///
/// Recognised (anywhere in the name, not inside a longer run of digits):
/// - `YYYYMMDD_HHMMSS` / `YYYYMMDD-HHMMSS`, with optional milliseconds (`IMG_20230101_120000`,
///   `VID_20230101_120000`, `PXL_20230101_120000123`, `Screenshot_20230101-120000`);
/// - `YYYY-MM-DD HH.MM.SS` with ` `, `_`, `T`, `-` or ` at ` between date and time and `.`,
///   `:` or `-` inside the time (`2023-01-01 12.00.00`, `Screenshot 2023-01-01 at 12.00.00`);
/// - WhatsApp's `IMG-YYYYMMDD-WA0001` (also VID-, AUD-, PTT-): a date without a time, read as
///   00:00:00.
/// Pure Swift; costs one pass over the name.
package enum FileNameDate {
    private enum Token: Equatable {
        case digits(String)
        case text(String)
    }

    package static func parse(_ fileName: String) -> LocalDateTime? {
        let stem = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let tokens = tokenize(stem)
        for index in tokens.indices {
            guard case .digits(let run) = tokens[index] else { continue }
            if let date = compact(run, tokens, index) ?? dashed(run, tokens, index) ?? whatsApp(run, tokens, index) {
                return date
            }
        }
        return nil
    }

    private static func tokenize(_ name: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inDigits = false
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty && isDigit != inDigits {
                tokens.append(inDigits ? .digits(current) : .text(current))
                current = ""
            }
            inDigits = isDigit
            current.append(character)
        }
        if !current.isEmpty { tokens.append(inDigits ? .digits(current) : .text(current)) }
        return tokens
    }

    private static func number(_ digits: Substring) -> Int { Int(digits) ?? -1 }

    private static func token(_ tokens: [Token], _ index: Int) -> Token? {
        tokens.indices.contains(index) ? tokens[index] : nil
    }

    /// `YYYYMMDD` `_`|`-` `HHMMSS[mmm]`.
    private static func compact(_ run: String, _ tokens: [Token], _ index: Int) -> LocalDateTime? {
        guard run.count == 8, let separator = token(tokens, index + 1), separator == .text("_") || separator == .text("-"),
              case .digits(let time)? = token(tokens, index + 2), time.count == 6 || time.count == 9
        else { return nil }
        let d = Substring(run), t = Substring(time)
        return LocalDateTime(
            year: number(d.prefix(4)), month: number(d.dropFirst(4).prefix(2)), day: number(d.suffix(2)),
            hour: number(t.prefix(2)), minute: number(t.dropFirst(2).prefix(2)), second: number(t.dropFirst(4).prefix(2)),
            millisecond: time.count == 9 ? number(t.suffix(3)) : nil)
    }

    /// `YYYY-MM-DD` (` `|`_`|`T`|`-`|` at `) `HH` (`.`|`:`|`-`) `MM` (same) `SS`.
    private static func dashed(_ run: String, _ tokens: [Token], _ index: Int) -> LocalDateTime? {
        guard run.count == 4, token(tokens, index + 1) == .text("-"),
              case .digits(let month)? = token(tokens, index + 2), month.count == 2,
              token(tokens, index + 3) == .text("-"),
              case .digits(let day)? = token(tokens, index + 4), day.count == 2,
              case .text(let between)? = token(tokens, index + 5), [" ", "_", "T", "-", " at "].contains(between),
              case .digits(let hour)? = token(tokens, index + 6), hour.count == 2,
              case .text(let s1)? = token(tokens, index + 7), [".", ":", "-"].contains(s1),
              case .digits(let minute)? = token(tokens, index + 8), minute.count == 2,
              token(tokens, index + 9) == .text(s1),
              case .digits(let second)? = token(tokens, index + 10), second.count == 2
        else { return nil }
        return LocalDateTime(year: number(Substring(run)), month: number(Substring(month)), day: number(Substring(day)),
                             hour: number(Substring(hour)), minute: number(Substring(minute)),
                             second: number(Substring(second)))
    }

    /// `IMG-YYYYMMDD-WA…`.
    private static func whatsApp(_ run: String, _ tokens: [Token], _ index: Int) -> LocalDateTime? {
        guard run.count == 8, case .text(let before)? = token(tokens, index - 1),
              ["IMG-", "VID-", "AUD-", "PTT-"].contains(where: { before.hasSuffix($0) }),
              case .text(let after)? = token(tokens, index + 1), after.hasPrefix("-WA")
        else { return nil }
        let d = Substring(run)
        return LocalDateTime(year: number(d.prefix(4)), month: number(d.dropFirst(4).prefix(2)), day: number(d.suffix(2)))
    }
}
