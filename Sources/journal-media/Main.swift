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
        do {
            var command = try JournalMediaCommand.parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = JournalMediaCommand.exitCode(for: error)
            if code == .validationFailure || code.rawValue == 64 {
                FileHandle.standardError.write(Data((JournalMediaCommand.fullMessage(for: error) + "\n").utf8))
                exit(ExitStatus.usage)
            }
            JournalMediaCommand.exit(withError: error)
        }
    }
}

/// Exit statuses of `journal-media`.
enum ExitStatus {
    static let success: Int32 = 0
    static let someAssetsFailed: Int32 = 1
    static let usage: Int32 = 2
}

struct JournalMediaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal-media",
        abstract: "Renditions, metadata and colours for the media behind Apple's Journaling Suggestions.",
        discussion: """
            Converts photos, artwork and icons into small WebP thumbnails and fallback \
            JPEG/PNG images any client can show, with a JSON manifest. libvips, libav and \
            libexif are called in-process; no external program is run.

            Exit status: 0 when every asset succeeded, 1 when some failed, 2 for usage errors.
            """,
        version: Version.libraries,
        subcommands: [ConvertCommand.self, InspectCommand.self, ColorCommand.self, LinkCommand.self, PushCommand.self,
                      ServeCommand.self, MergeManifestsCommand.self])
}
