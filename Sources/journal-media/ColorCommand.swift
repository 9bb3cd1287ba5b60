import ArgumentParser
import Foundation
import JournalMedia

struct ColorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "color",
        abstract: "Choose the text colour for background colours (one JSON object per line).",
        discussion: """
            For each background prints one line (Schemas/color-line.v1.json), e.g.:

              {"background":"#0A84FF","foreground":"#FFFFFF","wcagRatio":3.65,
               "apcaLc":-68.8,"rule":"apca"}

            The foreground is black or white, whichever has the larger APCA 0.1.9 lightness \
            contrast |Lc| on the background; wcagRatio is the WCAG 2 contrast ratio and apcaLc \
            the APCA Lc of that pair (negative: light text on a dark background). When neither \
            black nor white reaches |Lc| 60, an "accessibleForeground" is added: the background's \
            hue, tone-shifted just far enough to reach |Lc| 60, or WCAG 4.5 when no tone can.

            Colours: #RGB, #RRGGBB, #RRGGBBAA (alpha composited over --base) or r,g,b with \
            0–255 components. Anything else is a usage error (exit status 2).
            """)

    @Argument(help: ArgumentHelp("Background colours.", valueName: "color"))
    var colors: [String]

    @Option(name: .long, help: ArgumentHelp("Colour that translucent (#RRGGBBAA) backgrounds are composited over.", valueName: "color"))
    var base: String = "#FFFFFF"

    /// Checked while parsing (not in `run()`), so a bad colour's usage error shows this
    /// command's usage and points to `color --help`.
    func validate() throws {
        _ = try backgrounds()
    }

    func run() throws {
        print(try backgrounds().map { Self.json(ForegroundChooser.choose(for: $0)) }.joined(separator: "\n"))
    }

    /// The colours given, translucent ones composited over `--base`.
    private func backgrounds() throws -> [RGBColor] {
        let baseColor: RGBColor
        do { baseColor = try RGBColor.parse(base) } catch { throw ValidationError("--base: \(error)") }
        return try colors.map { text in
            do { return try RGBColor.parse(text, over: baseColor) } catch { throw ValidationError("\(error)") }
        }
    }

    /// One line of JSON with keys in reading order.
    static func json(_ c: ForegroundChoice) -> String {
        var fields = [
            "\"background\":\"\(c.background)\"", "\"foreground\":\"\(c.foreground)\"",
            "\"wcagRatio\":\(c.wcagRatio)", "\"apcaLc\":\(c.apcaLc)", "\"rule\":\"\(c.rule)\"",
        ]
        if let a = c.accessibleForeground {
            fields.append("\"accessibleForeground\":{\"color\":\"\(a.color)\",\"wcagRatio\":\(a.wcagRatio),\"apcaLc\":\(a.apcaLc),\"target\":\"\(a.target)\"}")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}
