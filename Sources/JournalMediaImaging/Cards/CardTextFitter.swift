import Foundation

/// How a piece of card text is set: weight, colour, wrap width, the size range it may be
/// shrunk through and the lines and height it must fit in.
struct CardTextStyle {
    enum Weight: String {
        case regular = "Regular", medium = "Medium", semibold = "SemiBold", bold = "Bold"
    }

    var weight: Weight
    /// `#RRGGBB`.
    var color: String
    /// Wrap width in pixels; the text never gets wider.
    var width: Int
    /// Largest size tried first, in pixels; shrunk in `step`s down to `minimumSize`.
    var size: Double
    var minimumSize: Double
    var maxLines: Int
    /// Height the laid-out text must fit in, or nil for no limit beyond `maxLines`.
    var maxHeight: Int?
    /// Lines centred in the wrap width (else aligned to the text's start side).
    var centred = false

    var step: Double { max(1, (size - minimumSize) / 8) }
}

/// One text, fitted: the markup and font description to hand to libvips' `text`, with what
/// Pango measured for exactly that (line count, ink and logical extents, unknown glyphs).
struct FittedText {
    var markup: String
    var font: String
    var size: Double
    /// The wrap width it was measured with (libvips must draw with the same).
    var width: Int
    var measurement: TextMeasurement
    /// The text was cut and ends in an ellipsis.
    var truncated: Bool
    /// The plain text drawn (after any cut).
    var shown: String
    var centred = false
    /// The text's colour, `#RRGGBB` (also in the markup).
    var color = "#000000"
}

/// Fits text into a box the way the cards want it: wrapped at the box width between words,
/// shrunk step by step to a minimum size (a size at which a word would have to be broken
/// does not fit), then at the minimum size words may break, then cut with an ellipsis. Every decision
/// comes from `PangoTextMeasure`, so what libvips draws afterwards is what was measured.
///
/// Runs on the rendering thread. Costs at most nine layouts for the shrink plus about
/// log₂(n) layouts for the cut, where n is bounded by what the box could ever hold (longer
/// input, a 1 MB prompt for instance, is cut to that bound before any layout).
enum CardTextFitter {
    /// The families tried in order; fontconfig falls back by script beyond them (Noto Sans
    /// Arabic, Hebrew, Devanagari, Thai, … from fonts-noto-core; Noto Color Emoji), so the
    /// same installed fonts always give the same glyphs. The emoji font is deliberately not
    /// listed: it has digit glyphs, and Pango would then set numbers in it.
    ///
    /// Han characters have regional forms, so the CJK family follows the text: kana means
    /// Japanese, Hangul Korean, Han without either Simplified Chinese (a card has no locale
    /// to tell Traditional Chinese apart).
    static func families(for text: String) -> String {
        var han = false
        for scalar in text.unicodeScalars.prefix(2048) {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return "Noto Sans,Noto Sans CJK JP"
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return "Noto Sans,Noto Sans CJK KR"
            case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: han = true
            default: break
            }
        }
        return han ? "Noto Sans,Noto Sans CJK SC" : "Noto Sans,Noto Sans CJK JP"
    }

    static func fontDescription(_ weight: CardTextStyle.Weight, size: Double, text: String) -> String {
        "\(families(for: text)) \(weight.rawValue) \(Int(size.rounded()))px"
    }

    /// The markup for `text` in `color`: Pango markup with the text escaped, so a prompt
    /// containing `<`, `&` or a stray tag is drawn as typed.
    static func markup(_ text: String, color: String) -> String {
        "<span foreground=\"\(color)\">\(escaped(text))</span>"
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                // Control characters are not valid in markup; a card shows them as spaces.
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                    out += " "
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Collapses runs of white space and line breaks into single spaces and trims the ends:
    /// card texts are flowed, not typeset line by line. No-break spaces are kept (they glue);
    /// the narrow one (U+202F, which ICU puts before "AM"/"PM") is set as a full no-break
    /// space: at card sizes the narrow one draws "7:00 AM" so tight that it reads as one word.
    static func normalised(_ text: Substring) -> String {
        var out = ""
        var pendingSpace = false
        for character in text {
            if (character.isWhitespace || character.isNewline) && !noBreak.contains(character) {
                pendingSpace = !out.isEmpty
            } else if character == "\u{202F}" {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append("\u{00A0}")
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }

    static let noBreak: Set<Character> = ["\u{00A0}", "\u{202F}", "\u{2007}"]

    /// Whether `text` has nothing to draw (empty, or only white space and control characters).
    static func isBlank(_ text: String) -> Bool {
        !text.unicodeScalars.contains { !$0.properties.isWhitespace && $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) }
    }

    /// The longest text that `style` could ever show: a generous characters-per-line bound
    /// (a fifth of the minimum size per character, narrower than any real glyph run) times
    /// the lines. Input beyond this is not laid out at all.
    static func characterBound(_ style: CardTextStyle) -> Int {
        let perLine = Double(max(1, style.width)) / max(1, style.minimumSize * 0.2)
        return max(8, Int(perLine.rounded(.up)) * max(1, style.maxLines) + 8)
    }

    /// Fits `text` (any length) into `style`. Returns nil only when Pango is unavailable.
    static func fit(_ text: String, style: CardTextStyle) -> FittedText? {
        let bound = characterBound(style)
        // Never count or copy the whole input: only its head can be shown.
        let head = text.prefix(bound * 2 + 1)
        let source = normalised(head)
        let capped = String(source.prefix(bound))
        let cappedAway = source.count > bound || head.count > bound * 2
        var size = style.size
        while true {
            let font = fontDescription(style.weight, size: size, text: capped)
            let markup = markup(capped, color: style.color)
            guard let measurement = PangoTextMeasure.measure(markup: markup, font: font, width: style.width,
                                                             centred: style.centred) else {
                return nil
            }
            if !cappedAway && fits(measurement, style) && (!measurement.brokenWord || size <= style.minimumSize) {
                return FittedText(markup: markup, font: font, size: size, width: style.width, measurement: measurement,
                                  truncated: false, shown: capped, centred: style.centred, color: style.color)
            }
            if size <= style.minimumSize { break }
            size = max(style.minimumSize, size - style.step)
        }
        return cut(capped, style: style, size: style.minimumSize)
    }

    private static func fits(_ measurement: TextMeasurement, _ style: CardTextStyle) -> Bool {
        if measurement.lineCount > style.maxLines { return false }
        if let maxHeight = style.maxHeight, measurement.logical.height > maxHeight { return false }
        return true
    }

    /// The longest prefix of `text` that, followed by "…", fits at `size`; found by binary
    /// search over the character count (a longer prefix never takes fewer lines).
    private static func cut(_ text: String, style: CardTextStyle, size: Double) -> FittedText? {
        let characters = Array(text)
        let font = fontDescription(style.weight, size: size, text: text)
        func attempt(_ count: Int) -> FittedText? {
            var prefix = String(characters[0..<count])
            while let last = prefix.last, last.isWhitespace { prefix.removeLast() }
            let shown = prefix + "…"
            let markup = markup(shown, color: style.color)
            guard let measurement = PangoTextMeasure.measure(markup: markup, font: font, width: style.width,
                                                             centred: style.centred) else {
                return nil
            }
            return FittedText(markup: markup, font: font, size: size, width: style.width, measurement: measurement,
                              truncated: true, shown: shown, centred: style.centred, color: style.color)
        }
        var low = 0, high = characters.count
        var best: FittedText? = nil
        while low <= high {
            let middle = (low + high) / 2
            guard let candidate = attempt(middle) else { return nil }
            if fits(candidate.measurement, style) {
                best = candidate
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return best ?? attempt(0)
    }
}
