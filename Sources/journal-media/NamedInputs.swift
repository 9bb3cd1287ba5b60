import ArgumentParser
import Foundation
import JournalMedia

/// Checks the inputs named on a command line before anything is read or written: a path
/// that does not exist, and a file that is plainly not media (`NotMediaFile`: notes.txt,
/// a ZIP…), are usage errors (exit status 2), for `convert` and `inspect` alike. Files
/// found inside named folders are not checked here: a batch lists those under `ignored`.
/// Runs once per command; costs one `stat` per input, and for a file one open and a read
/// of at most 1 KiB.
enum NamedInputs {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Throws for the first input that does not exist or (when `notMedia`) is a file that
    /// is plainly not media.
    static func check(_ inputs: [String], notMedia: Bool) throws(Problem) {
        for input in inputs {
            let bytes = RawArguments.pathBytes(for: input) ?? Array(input.utf8)
            var info = stat()
            guard FileNameEscaping.withCPath(bytes, { stat($0, &info) }) == 0 else {
                throw Problem(description: "input \(input) does not exist")
            }
            guard notMedia, info.st_mode & S_IFMT == S_IFREG, let reason = NotMediaFile.reason(ofFileAt: bytes) else {
                continue
            }
            throw Problem(description: "\(input) is \(reason); name media files or folders "
                          + "(inside a folder such a file is passed over and listed)")
        }
    }

    /// `check`, reporting a problem on stderr as a usage error (exit status 2).
    static func require(_ inputs: [String], notMedia: Bool) throws {
        do { try check(inputs, notMedia: notMedia) } catch {
            StandardError.writeLine("journal-media: error: \(error)")
            throw ExitCode(ExitStatus.usage)
        }
    }
}
