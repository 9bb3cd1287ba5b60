import ArgumentParser
import Foundation
import JournalMedia

/// Entry point: parses the command line and maps errors to the documented exit statuses
/// (0 all assets succeeded, 1 some failed, 2 usage errors).
@main
enum Main {
    static func main() async {
        AllocatorTuning.apply()
        LibvipsModules.loadOnlyNeeded()
        // Raw argv: names that are not UTF-8 arrive escaped, their bytes kept (`RawArguments`).
        let typed = RawArguments.arguments
        do {
            let arguments = try FileArguments.prepared(typed)
            var command = try JournalMediaCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as FileArguments.UnknownOption {
            StandardError.writeLine("journal-media: error: \(error)")
            exit(ExitStatus.usage)
        } catch {
            let code = JournalMediaCommand.exitCode(for: error)
            if code == .validationFailure || code.rawValue == 64 {
                StandardError.writeParserMessage(JournalMediaCommand.fullMessage(for: error), arguments: typed)
                exit(ExitStatus.usage)
            }
            if code.isSuccess {
                // --help and --version: the parser prints them on stdout.
                JournalMediaCommand.exit(withError: error)
            }
            let message = JournalMediaCommand.fullMessage(for: error)
            if !message.isEmpty { StandardError.writeParserMessage(message, arguments: typed) }
            exit(code.rawValue)
        }
    }
}

/// Exit statuses of `journal-media`.
enum ExitStatus {
    static let success: Int32 = 0
    static let someAssetsFailed: Int32 = 1
    /// A usage error, or a failure that is not an asset's (the output cannot be created,
    /// written or locked; the manifest cannot be written).
    static let usage: Int32 = 2
    /// Stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report it).
    static let interrupted: Int32 = 130
}

struct JournalMediaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-media",
        abstract: "Renditions, metadata and colours for the media behind Apple's Journaling Suggestions.",
        discussion: """
            Converts photos, artwork and icons into small WebP thumbnails and fallback \
            JPEG/PNG images any client can show, with a JSON manifest. libvips, libav and \
            libexif are called in-process; no external program is run.

            Exit status: 0 when every asset succeeded, 1 when some failed, 2 for usage errors and \
            failures that are not an asset's, 130 when interrupted (see convert --help).
            """,
        // The full text names every native library (reading /proc/self/maps, asking libvips,
        // pango, libav and OpenSSL): made only when --version is asked for, not on every run.
        version: CommandLine.arguments.contains("--version") ? Version.libraries : "journal-media \(Version.toolkit)",
        subcommands: [ConvertCommand.self, SuggestionCommand.self, InspectCommand.self, ColorCommand.self, LinkCommand.self,
                      PushCommand.self, ServeCommand.self, MergeManifestsCommand.self])
}
