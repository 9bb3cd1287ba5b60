import JournalMediaCore

/// A batch that cannot start: the command line named something impossible. The CLI exits
/// with status 2 for these. Failures of single assets are never `BatchError`s.
public enum BatchError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingInput(String)
    case outputInsideInput(output: String, input: String)
    case inputInsideOutput(input: String, output: String)
    case outputNotADirectory(String)
    case cannotCreateOutput(String, reason: String)
    case cannotWriteManifest(String, reason: String)
    /// Another run holds the output folder's lock (`.journal-media.lock`).
    case outputLocked(String)
    /// Nothing can be written in the output folder (read-only, no permission, full).
    case outputNotWritable(String, reason: String)
    /// The rendition specs cannot be used (a role that is not a plain name, a box or quality
    /// out of range): nothing is written.
    case invalidPreset(String)
    /// The batch's task was cancelled: `done` of `total` assets were finished and are in the
    /// manifest written before this was thrown.
    case cancelled(done: Int, total: Int)

    public var description: String {
        switch self {
        case .missingInput(let path): "input \(path) does not exist"
        case .outputInsideInput(let output, let input): "output folder \(output) is inside input \(input); choose an output outside the inputs"
        case .inputInsideOutput(let input, let output): "input \(input) is inside the output folder \(output)"
        case .outputNotADirectory(let path): "output \(path) exists and is not a folder"
        case .cannotCreateOutput(let path, let reason): "cannot create output folder \(path): \(reason)"
        case .cannotWriteManifest(let path, let reason): "cannot write \(path): \(reason)"
        case .outputLocked(let path): "output folder \(path) is in use by another journal-media run (it holds \(path)/.journal-media.lock); wait for it to finish, or pass --wait to queue behind it"
        case .outputNotWritable(let path, let reason): "output folder \(path) is not writable: \(reason)"
        case .invalidPreset(let problem): "invalid preset: \(problem)"
        case .cancelled(let done, let total): "cancelled after \(done) of \(total) assets"
        }
    }

    /// True when the batch could not start (exit status 2: a mistake in what was asked, an
    /// output folder that cannot be created, written or locked), false when it ran but its
    /// manifest could not be written.
    public var isUsageError: Bool {
        switch self {
        case .cannotWriteManifest, .cancelled: false
        default: true
        }
    }
}
