import Foundation
import JournalMediaCore

/// What a batch processes as one manifest entry: one file, or a Live Photo's still and movie
/// (indices into the batch's probes).
enum WorkUnit: Sendable, Equatable {
    case single(Int)
    case livePhoto(still: Int, motion: Int, pairedBy: LivePhotoRecord.PairedBy)

    /// The manifest entry's input: the file, or the pair's still.
    var primary: Int {
        switch self {
        case .single(let index): index
        case .livePhoto(let still, _, _): still
        }
    }
}

/// Pairs Live Photo stills with their movies, from probes already made (no file is read here).
///
/// A still (JPEG, HEIC) and a movie (MOV, MP4) pair when their content identifiers are equal
/// (Apple MakerNote 0x0011 / `com.apple.quicktime.content.identifier`). When *neither* has
/// an identifier, they pair when they sit in the same folder with the same base name (case
/// ignored) and the movie lasts at most `maximumFileNameMotionSeconds`. Files whose
/// identifiers differ, or where only one has an identifier, never pair. Each file pairs at
/// most once. Public so library users can pair their own files; costs a dictionary pass.
public enum LivePhotoPairer {
    public static let maximumFileNameMotionSeconds = 4.0

    /// A pair found among `probes`: indices of the still and the movie, and how they matched.
    public struct Pair: Sendable, Equatable {
        public var still: Int
        public var motion: Int
        public var pairedBy: LivePhotoRecord.PairedBy
    }

    private struct Candidate {
        var index: Int
        var identifier: String?
        var duration: Double?
        /// Folder + base name, lowercased: the file-name pairing key.
        var nameKey: String
    }

    /// The pairs among `probes` (their `name`s give folders and base names).
    public static func pairs(_ probes: [ProbedAsset]) -> [Pair] {
        func stem(_ index: Int) -> String { (probes[index].name as NSString).deletingPathExtension.lowercased() }
        var stills: [Candidate] = [], motions: [Candidate] = []
        for (index, probe) in probes.enumerated() {
            guard let format = probe.format else { continue }
            switch format.handling.livePhoto {
            case .still?:
                stills.append(Candidate(index: index, identifier: probe.contentIdentifier, nameKey: stem(index)))
            case .motion?:
                motions.append(Candidate(index: index, identifier: probe.contentIdentifier,
                                         duration: probe.durationSeconds, nameKey: stem(index)))
            case nil: break
            }
        }
        guard !stills.isEmpty, !motions.isEmpty else { return [] }

        var pairs: [Pair] = []
        var taken = Set<Int>()
        var paired = Set<Int>()
        var motionsByIdentifier: [String: [Candidate]] = [:]
        for motion in motions { if let id = motion.identifier { motionsByIdentifier[id, default: []].append(motion) } }
        for still in stills {
            guard let id = still.identifier,
                  let motion = motionsByIdentifier[id]?.first(where: { !taken.contains($0.index) }) else { continue }
            pairs.append(Pair(still: still.index, motion: motion.index, pairedBy: .contentIdentifier))
            taken.insert(motion.index)
            paired.insert(still.index)
        }
        var anonymousMotions: [String: Candidate] = [:]
        for motion in motions where motion.identifier == nil && !taken.contains(motion.index) {
            if let duration = motion.duration, duration <= maximumFileNameMotionSeconds, anonymousMotions[motion.nameKey] == nil {
                anonymousMotions[motion.nameKey] = motion
            }
        }
        for still in stills where still.identifier == nil && !paired.contains(still.index) {
            guard let motion = anonymousMotions[still.nameKey], !taken.contains(motion.index) else { continue }
            pairs.append(Pair(still: still.index, motion: motion.index, pairedBy: .fileName))
            taken.insert(motion.index)
            paired.insert(still.index)
        }
        return pairs
    }

    /// The batch's work units in input order: pairs at their still's place, paired movies dropped.
    static func units(_ probes: [ProbedAsset]) -> [WorkUnit] {
        let found = pairs(probes)
        let byStill = Dictionary(uniqueKeysWithValues: found.map { ($0.still, $0) })
        let motions = Set(found.map(\.motion))
        return probes.indices.compactMap { index in
            if motions.contains(index) { return nil }
            if let pair = byStill[index] { return .livePhoto(still: index, motion: pair.motion, pairedBy: pair.pairedBy) }
            return .single(index)
        }
    }
}
