import JournalMediaCore

/// Whether a batch may keep an earlier run's entry for a unit instead of converting it
/// again: the rules of a quiet re-run. Run by `Batch.convert` once per unit whose earlier
/// entry was made with the same preset and settings.
///
/// - Unchanged input: size, modification time and file identity (device, inode) equal to
///   the entry's, so the file is not read at all (`unchangedWithoutReading`, skipped when
///   `verify`); otherwise, after reading, an equal SHA-256 (`unchangedAfterReading`).
/// - A failure is kept, not retried, only when it is the file's own (it would fail the same
///   way on the same bytes): not an unreadable file, a limit the command line sets, a
///   timeout, a cancel or busy executor, or a write into the output.
///
/// Costs a few comparisons and, for a successful entry, one `fstatat` per rendition.
struct EarlierEntryReuse {
    var verify: Bool
    var retryFailed: Bool

    /// Whether `entry`'s failure would happen again on the same bytes with the same settings.
    static func isLasting(_ error: AssetError) -> Bool {
        switch error.stage {
        case .read, .limits, .write: return false
        default: break
        }
        switch error.reason {
        case .timeout, .cancelled, .busy, .writeFailed, .unreadable, .overByteLimit, .overPixelLimit: return false
        default: return true
        }
    }

    /// Whether the entry may stand for this unit at all: a failure only when lasting and not
    /// `retryFailed`; a success only when its renditions are all on disk.
    func mayKeep(_ entry: ManifestEntry, renditionsPresent: () -> Bool) -> Bool {
        if let error = entry.error { return !retryFailed && Self.isLasting(error) }
        return renditionsPresent()
    }

    /// The file behind `probe` is the one the entry describes, by `fstat` alone.
    func unchangedWithoutReading(_ entry: ManifestEntry, probe: ProbedAsset, motion: ProbedAsset?) -> Bool {
        guard !verify, let identity = probe.identity, entry.fileIdentity == identity,
              entry.bytes == probe.size, entry.modified == probe.modified else { return false }
        if entry.error != nil {
            // A failed still's movie was never looked at: same pairing is enough.
            return entry.livePhoto?.motionSource == motion?.name || (motion == nil && entry.livePhoto?.pairedBy == .embedded)
        }
        guard let motion else {
            return entry.livePhoto == nil || (entry.livePhoto?.pairedBy == .embedded && entry.livePhoto?.motionError == nil)
        }
        guard let record = entry.livePhoto, record.motionError == nil, record.motionSource == motion.name,
              let motionIdentity = motion.identity else { return false }
        return record.motionDevice == motionIdentity.device && record.motionInode == motionIdentity.inode
            && record.motionBytes == motion.size && record.motionModified == motion.modified
    }

    /// The entry kept after reading the file (its digest equal), with the file identity it
    /// lacked (a manifest written before identities were recorded, or a file copied back in
    /// place), so the next run need not read it.
    static func refreshed(_ entry: ManifestEntry, probe: ProbedAsset, motion: ProbedAsset?) -> ManifestEntry {
        var entry = entry
        entry.fileIdentity = probe.identity
        if let motion, entry.livePhoto?.motionSource == motion.name {
            entry.livePhoto?.motionDevice = motion.identity?.device
            entry.livePhoto?.motionInode = motion.identity?.inode
        }
        return entry
    }
}
