import Foundation

/// What a batch processes as one manifest entry: one file, or a Live Photo's still and movie.
enum WorkUnit: Sendable {
    case single(PlannedAsset)
    case livePhoto(still: PlannedAsset, motion: PlannedAsset, pairedBy: LivePhotoRecord.PairedBy)

    /// The manifest entry's `source`: the file, or the pair's still.
    var primary: PlannedAsset {
        switch self {
        case .single(let asset): asset
        case .livePhoto(let still, _, _): still
        }
    }
}

/// Pairs Live Photo stills with their movies before a batch runs.
///
/// A still (JPEG, HEIC) and a movie (MOV, MP4) pair when their content identifiers are equal
/// (Apple MakerNote 0x0011 / `com.apple.quicktime.content.identifier`). When *neither* has
/// an identifier, they pair when they sit in the same folder with the same base name (case
/// ignored) and the movie lasts at most `maximumFileNameMotionSeconds`. Files whose
/// identifiers differ, or where only one has an identifier, never pair. Each file pairs at
/// most once. Costs one sniff (first bytes) per file; when the batch holds both stills and
/// movies, also one header read per still and one libavformat header parse per movie.
enum LivePhotoPairer {
    static let maximumFileNameMotionSeconds = 4.0

    private struct Candidate {
        var index: Int
        var identifier: String?
        var duration: Double?
        /// Folder + base name, lowercased: the file-name pairing key.
        var nameKey: String
    }

    static func pair(_ planned: [PlannedAsset]) -> [WorkUnit] {
        // First only the formats: a batch without movies has nothing to pair, and its stills'
        // metadata is then not read here (the processor reads it anyway).
        var stillFiles: [(Int, SourceFormat)] = []
        var motionIndices: [Int] = []
        for (index, asset) in planned.enumerated() {
            guard let file = try? FileBytes(path: asset.url.path),
                  let head = file.read(0, min(file.size, FormatSniffer.prefixLength)),
                  let format = FormatSniffer.sniff(head) else { continue }
            if format == .jpeg || format == .heic {
                stillFiles.append((index, format))
            } else if format == .mov || format == .mp4 {
                motionIndices.append(index)
            }
        }
        guard !motionIndices.isEmpty, !stillFiles.isEmpty else { return planned.map { .single($0) } }

        func stem(_ index: Int) -> String {
            (planned[index].relativePath as NSString).deletingPathExtension.lowercased()
        }
        // Files are opened again rather than kept open: a large batch would run out of descriptors.
        let stills = stillFiles.map { index, format in
            let file = try? FileBytes(path: planned[index].url.path)
            let metadata = file.map { HeaderMetadata.read($0, format: format, url: planned[index].url, modified: $0.modified) }
            return Candidate(index: index, identifier: metadata?.contentIdentifier, nameKey: stem(index))
        }
        let motions = motionIndices.map { index in
            let metadata = ContainerMetadataReader.read(path: planned[index].url.path)
            let identifier = metadata?.tags[HeaderMetadata.contentIdentifierKey].flatMap(HeaderMetadata.identifier)
            return Candidate(index: index, identifier: identifier, duration: metadata?.durationSeconds, nameKey: stem(index))
        }

        var partner: [Int: (Int, LivePhotoRecord.PairedBy)] = [:]  // still index → motion index
        var taken = Set<Int>()
        var motionsByIdentifier: [String: [Candidate]] = [:]
        for motion in motions { if let id = motion.identifier { motionsByIdentifier[id, default: []].append(motion) } }
        for still in stills {
            guard let id = still.identifier,
                  let motion = motionsByIdentifier[id]?.first(where: { !taken.contains($0.index) }) else { continue }
            partner[still.index] = (motion.index, .contentIdentifier)
            taken.insert(motion.index)
        }
        var anonymousMotions: [String: Candidate] = [:]
        for motion in motions where motion.identifier == nil && !taken.contains(motion.index) {
            if let duration = motion.duration, duration <= maximumFileNameMotionSeconds, anonymousMotions[motion.nameKey] == nil {
                anonymousMotions[motion.nameKey] = motion
            }
        }
        for still in stills where still.identifier == nil && partner[still.index] == nil {
            guard let motion = anonymousMotions[still.nameKey], !taken.contains(motion.index) else { continue }
            partner[still.index] = (motion.index, .fileName)
            taken.insert(motion.index)
        }

        var units: [WorkUnit] = []
        for (index, asset) in planned.enumerated() where !taken.contains(index) {
            if let (motion, pairedBy) = partner[index] {
                units.append(.livePhoto(still: asset, motion: planned[motion], pairedBy: pairedBy))
            } else {
                units.append(.single(asset))
            }
        }
        return units
    }
}
