import Foundation

/// Keeps file names that start with `-` from being read as options before the argument
/// parser sees the command line. Without it `convert -leading-dash.webp -o out` is parsed as
/// the flag cluster `-l -e -a -d -i -n -g -- -h …`, prints the help and exits 0.
///
/// Before a `--`, an argument of one dash and two or more characters that names an existing
/// file or folder is moved behind a `--` (so it stays an input); one that names nothing and
/// contains `h` is refused as an unknown option (exit 2) instead of printing the help.
/// `--` itself works as usual. Runs once per command line; costs one `stat` per such argument.
enum FileArguments {
    struct UnknownOption: Error, CustomStringConvertible {
        var argument: String
        var description: String {
            "unknown option '\(argument)'; a file whose name starts with '-' goes after '--' (or write ./\(argument))"
        }
    }

    static func prepared(_ arguments: [String]) throws(UnknownOption) -> [String] {
        var kept: [String] = []
        var moved: [String] = []
        var rest: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" {
                rest = Array(arguments[(index + 1)...])
                break
            }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.utf8.count > 2 else {
                kept.append(argument)
                continue
            }
            if FileManager.default.fileExists(atPath: argument) {
                moved.append(argument)
            } else if argument.dropFirst().contains("h") {
                throw UnknownOption(argument: argument)
            } else {
                kept.append(argument)
            }
        }
        let hadTerminator = arguments.contains("--")
        guard !moved.isEmpty || hadTerminator else { return kept }
        return kept + ["--"] + moved + rest
    }
}
