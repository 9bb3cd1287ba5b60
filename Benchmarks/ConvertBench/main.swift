// `convert-bench IN_DIR OUT_DIR JOBS`: the `convert` batch (default renditions, colours,
// placeholders, manifest) without the command line's HTTP server dependencies, so the
// rendition path can be built in release mode and measured in minutes on a busy machine
// (issue 19). Prints the batch's asset count. `make bench` uses the real CLI; this is for
// quick before/after checks of one lever.
import Foundation
import JournalMedia

let arguments = CommandLine.arguments
guard arguments.count == 4, let jobs = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: convert-bench IN_DIR OUT_DIR JOBS\n".utf8))
    exit(2)
}
let batch = Batch(inputs: [URL(fileURLWithPath: arguments[1])], output: URL(fileURLWithPath: arguments[2]),
                  jobs: jobs, force: true)
let manifest = try await batch.run()
print("\(manifest.assets.count) assets")
