import CPango
import Foundation

/// A pixel rectangle relative to a text layout's origin (its top-left corner).
struct TextRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// What Pango's layout of one text makes of it: the number of lines, the ink and logical
/// extents, where each line starts in the UTF-8 text, and how many characters no installed
/// font could draw (Pango's unknown-glyph count, the "tofu" boxes).
struct TextMeasurement {
    var lineCount: Int
    var ink: TextRect
    var logical: TextRect
    var unknownGlyphs: Int
    /// A line starts where the text has no break opportunity: a word (or a name held
    /// together) was broken because it is wider than the box.
    var brokenWord: Bool = false
    /// Where each line starts, in Unicode scalars of the laid-out text (after markup).
    var lineStarts: [Int] = []
}

/// Lays text out with Pango exactly as libvips' `text` operation does (a cairo font map,
/// markup, a font description, a wrap width, word-then-character wrapping), without drawing
/// it, so the card renderer can decide the font size, the line count and where to cut
/// before asking libvips for pixels, and can count glyphs that no font has.
///
/// One process-wide font map, used under a lock (Pango objects are not thread-safe).
/// Cost: one shaping pass over the text per call, tens of microseconds for a short line,
/// roughly linear in the text's length; callers bound the text first.
enum PangoTextMeasure {
    private final class State: @unchecked Sendable {
        let lock = NSLock()
        let context: OpaquePointer?
        /// Recent measurements by text (colour left out), font, width and alignment: the light
        /// and dark cards of one size class lay out the same texts, so the second is free.
        var recent: [String: TextMeasurement] = [:]

        init() {
            let fontMap = pango_cairo_font_map_new()
            context = fontMap.flatMap { pango_font_map_create_context($0) }
            // libvips' text renders at 72 dpi by default; sizes are given in px anyway.
            if let context { pango_cairo_context_set_resolution(context, 72) }
        }
    }

    private static let state = State()

    /// Measures `markup` set in `font` (a Pango font description such as
    /// "Noto Sans Bold 72px"), wrapped at `width` pixels when `width > 0`.
    /// Remembers the last few hundred measurements (the layout does not depend on the colour).
    static func measure(markup: String, font: String, width: Int, centred: Bool = false) -> TextMeasurement? {
        let key = "\(font)\u{1}\(width)\u{1}\(centred)\u{1}\(colourless(markup))"
        state.lock.lock()
        defer { state.lock.unlock() }
        if let known = state.recent[key] { return known }
        let measured = layOut(markup: markup, font: font, width: width, centred: centred)
        if let measured {
            if state.recent.count >= 512 { state.recent.removeAll(keepingCapacity: true) }
            state.recent[key] = measured
        }
        return measured
    }

    /// The markup without the card's colour span (`<span foreground="#RRGGBB">…</span>`), for
    /// keys of what does not depend on the colour.
    static func colourless(_ markup: String) -> Substring {
        let prefix = "<span foreground=\""
        guard markup.hasPrefix(prefix), let end = markup.range(of: "\">") else { return Substring(markup) }
        return markup[end.upperBound...]
    }

    private static func layOut(markup: String, font: String, width: Int, centred: Bool) -> TextMeasurement? {
        guard let context = state.context, let layout = pango_layout_new(context) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_markup(layout, markup, -1)
        if let description = pango_font_description_from_string(font) {
            pango_layout_set_font_description(layout, description)
            pango_font_description_free(description)
        }
        if width > 0 {
            pango_layout_set_width(layout, Int32(clamping: width * Int(jm_pango_scale())))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        if centred { pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER) }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        let breaks = lineBreaks(layout)
        return TextMeasurement(
            lineCount: Int(pango_layout_get_line_count(layout)),
            ink: TextRect(x: Int(ink.x), y: Int(ink.y), width: Int(ink.width), height: Int(ink.height)),
            logical: TextRect(x: Int(logical.x), y: Int(logical.y), width: Int(logical.width),
                              height: Int(logical.height)),
            unknownGlyphs: Int(pango_layout_get_unknown_glyphs_count(layout)),
            brokenWord: breaks.broken, lineStarts: breaks.starts)
    }

    /// Where the lines start (character offsets), and whether a line after the first starts
    /// at a character before which the text has no line-break opportunity (Pango's log
    /// attributes), i.e. the wrap fell back to characters and broke a word.
    private static func lineBreaks(_ layout: OpaquePointer) -> (broken: Bool, starts: [Int]) {
        guard let text = pango_layout_get_text(layout) else { return (false, [0]) }
        var count: Int32 = 0
        let attributes = pango_layout_get_log_attrs_readonly(layout, &count)
        var broken = false
        var starts: [Int] = []
        var node = pango_layout_get_lines_readonly(layout)
        while let current = node {
            if let line = current.pointee.data?.assumingMemoryBound(to: PangoLayoutLine.self) {
                let offset = Int(g_utf8_pointer_to_offset(text, text + Int(line.pointee.start_index)))
                if !starts.isEmpty, let attributes, offset < Int(count), attributes[offset].is_line_break == 0 {
                    broken = true
                }
                starts.append(offset)
            }
            node = current.pointee.next
        }
        return (broken, starts)
    }
}
