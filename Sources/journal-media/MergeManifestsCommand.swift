import ArgumentParser
import Foundation
import JournalMedia

struct MergeManifestsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-manifests",
        abstract: "Join the manifests of a sharded convert (--shard I/N) into one manifest.json.",
        discussion: """
            The parts must come from the same preset; no asset may be in two parts. Assets are \
            listed in source order and the summary is recomputed (elapsedSeconds: the longest \
            part). The result equals the manifest one unsharded run would write, apart from \
            the timing fields. Exit status 2 when a part cannot be read or the parts do not fit.
            """)

    @Argument(help: ArgumentHelp("Manifest parts (manifest.shard-I-of-N.json).", valueName: "part"))
    var parts: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("Where to write the merged manifest.", valueName: "file"))
    var output: String

    func run() throws {
        var manifests: [Manifest] = []
        for path in parts {
            do {
                manifests.append(try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                throw ValidationError("\(path): not a readable manifest (\(error.localizedDescription))")
            }
        }
        let merged: Manifest
        do { merged = try Manifest.merge(manifests) } catch { throw ValidationError(error.description) }
        do {
            try merged.encoded().write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            StandardError.writeLine("journal-media: error: cannot write \(output): \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
