import Foundation
import JournalMediaCore

/// How a `Batch` runs, besides its inputs, output folder and `ProcessingOptions`: how many
/// assets at once, which earlier entries it reuses, what it prunes, which links it follows,
/// whether it waits for another run's lock, which shard it does and how it is stopped. A
/// value, built once (`convert` maps its flags onto it) and handed to `Batch.init`; read
/// when `run()` starts. Every default is the CLI's default.
public struct BatchConfiguration: Sendable {
    /// Images processed at once; each uses one libvips thread. Defaults to the core count;
    /// less than 1 is taken as 1.
    public var jobs: Int {
        didSet { if jobs < 1 { jobs = 1 } }
    }
    /// Redo every asset even when its earlier entry could be reused.
    public var force: Bool
    /// Read and hash every input even when its size, modification time and identity (device,
    /// inode) match its earlier entry, and reuse the entry only when the SHA-256 matches too
    /// (`convert --verify`). Default false: such an input is not read again.
    public var verify: Bool
    /// Try again the inputs whose earlier entry is a failure of their own (corrupt,
    /// unsupported…) although the file and settings did not change (`convert
    /// --retry-failed`). Default false: that entry is kept and `BatchEvents.onEarlierFailure`
    /// is called.
    public var retryFailed: Bool
    /// When another run holds the output folder's lock: wait for it (true) or throw
    /// `BatchError.outputLocked` at once (false, the default).
    public var waitForLock: Bool
    /// Follow symbolic links to files inside the input folders even when they resolve
    /// outside every input (default: such links are listed under `ignored`).
    public var followSymlinks: Bool
    /// Remove the renditions an earlier run listed in the manifest that this run did not
    /// make (a changed preset, a deleted input). Only paths the earlier manifest names as
    /// renditions are removed, only regular files, never through a symbolic link, never
    /// when the run was stopped early, and only when the earlier manifest was written for the
    /// same inputs (`Manifest.inputs`; else see `pruneOtherInputs`). Default true.
    public var prune: Bool
    /// Prune also when the earlier manifest was written for other inputs (or does not say
    /// for which): `convert --prune`. Default false: those renditions are kept and
    /// `BatchEvents.onPruneSkipped` says how many, so a run over other inputs into the same
    /// output folder never deletes another run's outputs.
    public var pruneOtherInputs: Bool
    /// Count files that are not media (text, sidecars, archives: `NotMediaFile`) as failed
    /// assets, as before issue 17; by default they are listed under `ignored` with the
    /// reason and do not make the batch fail.
    public var strict: Bool
    /// Whether `run()` returns every entry in the manifest it gives back (the default) or only
    /// its summary and `ignored` list, `assets` left empty (the entries are in manifest.json):
    /// the CLI's choice, so a large batch does not hold a second copy of every entry at its
    /// end.
    public var returnsEntries: Bool
    /// Only this part of the work units (`convert --shard I/N`); the manifest is then
    /// `shard.manifestName`, and stray temporary files are left for an unsharded run to
    /// remove (another shard may be writing beside this one).
    public var shard: BatchShard?
    /// The bytes of the inputs whose names are not valid UTF-8, keyed by the input's URL (its
    /// escaped spelling, `FileNameEscaping`): a command line's raw arguments. Such an input is
    /// opened (or walked) by its bytes, and its files' entries are named escaped and flagged.
    public var inputPathBytes: [URL: [UInt8]]
    /// Lets the caller stop the batch between assets (see `BatchStopRequest`).
    public var stopRequest: BatchStopRequest?
    /// The scheduler the batch's probes and work units run on. nil (the default): a fresh
    /// `AssetExecutor` of `jobs` slots for each run. Given one (a server's, shared with its
    /// other work), the batch still keeps at most `jobs` units in it at once, and its waits,
    /// refusals and peaks show in that executor's `counters`.
    public var executor: AssetExecutor?

    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount, force: Bool = false, verify: Bool = false,
                retryFailed: Bool = false, waitForLock: Bool = false, followSymlinks: Bool = false,
                prune: Bool = true, pruneOtherInputs: Bool = false, strict: Bool = false,
                returnsEntries: Bool = true, shard: BatchShard? = nil, inputPathBytes: [URL: [UInt8]] = [:],
                stopRequest: BatchStopRequest? = nil) {
        self.jobs = max(1, jobs)
        self.force = force
        self.verify = verify
        self.retryFailed = retryFailed
        self.waitForLock = waitForLock
        self.followSymlinks = followSymlinks
        self.prune = prune
        self.pruneOtherInputs = pruneOtherInputs
        self.strict = strict
        self.returnsEntries = returnsEntries
        self.shard = shard
        self.inputPathBytes = inputPathBytes
        self.stopRequest = stopRequest
    }
}

/// What a running `Batch` tells its caller, each callback optional. Progress and timings are
/// called on the batch's task after each asset; the others as the event happens.
public struct BatchEvents: Sendable {
    /// After each asset: where the batch stands.
    public var onProgress: (@Sendable (BatchProgress) -> Void)?
    /// Once for each asset that failed in this run.
    public var onFailure: (@Sendable (AssetError) -> Void)?
    /// Once for each failure kept from an earlier run (the same file failed the same way with
    /// the same settings, and `retryFailed` is off).
    public var onEarlierFailure: (@Sendable (AssetError) -> Void)?
    /// With each stale rendition path removed by `prune`, relative to the output.
    public var onPrune: (@Sendable (String) -> Void)?
    /// Once when `prune` kept stale renditions because the earlier manifest was written for
    /// other inputs: how many, and those inputs (empty when it does not say).
    public var onPruneSkipped: (@Sendable (_ kept: Int, _ earlierInputs: [String]) -> Void)?
    /// Once when the batch starts waiting for another run's lock.
    public var onLockWait: (@Sendable () -> Void)?
    /// After each asset that was processed (not reused), with its manifest `source` and the
    /// seconds it spent in each stage.
    public var onTimings: (@Sendable (String, StageTimings) -> Void)?

    public init(onProgress: (@Sendable (BatchProgress) -> Void)? = nil,
                onFailure: (@Sendable (AssetError) -> Void)? = nil,
                onEarlierFailure: (@Sendable (AssetError) -> Void)? = nil,
                onPrune: (@Sendable (String) -> Void)? = nil,
                onPruneSkipped: (@Sendable (_ kept: Int, _ earlierInputs: [String]) -> Void)? = nil,
                onLockWait: (@Sendable () -> Void)? = nil,
                onTimings: (@Sendable (String, StageTimings) -> Void)? = nil) {
        self.onProgress = onProgress
        self.onFailure = onFailure
        self.onEarlierFailure = onEarlierFailure
        self.onPrune = onPrune
        self.onPruneSkipped = onPruneSkipped
        self.onLockWait = onLockWait
        self.onTimings = onTimings
    }
}

/// The batch's settings and callbacks by their earlier names (`batch.verify = true`,
/// `batch.onProgress = …`), so callers that set them on the batch after `init` keep working:
/// each reads and writes `configuration` or `events`.
extension Batch {
    public var jobs: Int { get { configuration.jobs } set { configuration.jobs = newValue } }
    public var force: Bool { get { configuration.force } set { configuration.force = newValue } }
    public var verify: Bool { get { configuration.verify } set { configuration.verify = newValue } }
    public var retryFailed: Bool { get { configuration.retryFailed } set { configuration.retryFailed = newValue } }
    public var waitForLock: Bool { get { configuration.waitForLock } set { configuration.waitForLock = newValue } }
    public var followSymlinks: Bool { get { configuration.followSymlinks } set { configuration.followSymlinks = newValue } }
    public var prune: Bool { get { configuration.prune } set { configuration.prune = newValue } }
    public var pruneOtherInputs: Bool { get { configuration.pruneOtherInputs } set { configuration.pruneOtherInputs = newValue } }
    public var strict: Bool { get { configuration.strict } set { configuration.strict = newValue } }
    public var returnsEntries: Bool { get { configuration.returnsEntries } set { configuration.returnsEntries = newValue } }
    public var shard: BatchShard? { get { configuration.shard } set { configuration.shard = newValue } }
    public var inputPathBytes: [URL: [UInt8]] { get { configuration.inputPathBytes } set { configuration.inputPathBytes = newValue } }
    public var stopRequest: BatchStopRequest? { get { configuration.stopRequest } set { configuration.stopRequest = newValue } }
    public var onProgress: (@Sendable (BatchProgress) -> Void)? { get { events.onProgress } set { events.onProgress = newValue } }
    public var onFailure: (@Sendable (AssetError) -> Void)? { get { events.onFailure } set { events.onFailure = newValue } }
    public var onEarlierFailure: (@Sendable (AssetError) -> Void)? { get { events.onEarlierFailure } set { events.onEarlierFailure = newValue } }
    public var onPrune: (@Sendable (String) -> Void)? { get { events.onPrune } set { events.onPrune = newValue } }
    public var onPruneSkipped: (@Sendable (_ kept: Int, _ earlierInputs: [String]) -> Void)? { get { events.onPruneSkipped } set { events.onPruneSkipped = newValue } }
    public var onLockWait: (@Sendable () -> Void)? { get { events.onLockWait } set { events.onLockWait = newValue } }
    public var onTimings: (@Sendable (String, StageTimings) -> Void)? { get { events.onTimings } set { events.onTimings = newValue } }
}
