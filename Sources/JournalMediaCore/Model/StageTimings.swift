import Foundation

/// Wall-clock seconds one asset spent in each stage, measured by `AssetProcessor` (metadata,
/// decode, analyze, encode) and `Batch` (read, write). For a Live Photo the movie's stages
/// are added to the still's.
///
/// Filled on every processed asset; measuring costs two clock reads per stage.
public struct StageTimings: Sendable, Equatable, Codable {
    /// Reading the file and its SHA-256.
    public var read = 0.0
    /// Capture date and Live Photo identifier from the metadata blocks.
    public var metadata = 0.0
    /// Header, limits and the one decode (for movies the poster frame, for audio the cover).
    public var decode = 0.0
    /// Colours and ThumbHash from the ≤100 px analysis copy.
    public var analyze = 0.0
    /// Resizing and encoding every rendition in memory.
    public var encode = 0.0
    /// Writing the renditions to the output folder.
    public var write = 0.0

    public init() {}

    /// All stages together: the asset's latency.
    public var total: Double { read + metadata + decode + analyze + encode + write }

    /// The stages measured, in order: a subset of the stages errors name.
    public static let measuredStages: [ProcessingStage] = [.read, .metadata, .decode, .analyze, .encode, .write]

    /// The seconds of one stage (`sniff` counts as `metadata`; `probe` and `limits` as `decode`).
    public subscript(_ stage: ProcessingStage) -> Double {
        switch stage {
        case .read: read
        case .metadata, .sniff: metadata
        case .probe, .limits, .decode: decode
        case .analyze: analyze
        case .encode: encode
        case .write: write
        }
    }

    /// One JSON object on one line (no newline): `source`, `seconds` (the total) and each
    /// measured stage, in seconds with microsecond precision. Used by `convert --timings`.
    /// Written in this order by hand: Foundation's `JSONEncoder` does not keep key order.
    public func jsonLine(source: String) -> String {
        func seconds(_ value: Double) -> String { String(format: "%.6f", value) }
        let stages = Self.measuredStages.map { "\"\($0.rawValue)\": \(seconds(self[$0]))" }.joined(separator: ", ")
        return "{\"source\": \"\(JSONText.escape(source))\", \"seconds\": \(seconds(total)), \(stages)}"
    }

    public static func + (a: StageTimings, b: StageTimings) -> StageTimings {
        var sum = a
        sum.read += b.read
        sum.metadata += b.metadata
        sum.decode += b.decode
        sum.analyze += b.analyze
        sum.encode += b.encode
        sum.write += b.write
        return sum
    }
}

/// Measures consecutive stages: each `lap()` returns the seconds since the previous one.
package struct StageClock {
    private var last = ContinuousClock.now

    package init() {}

    package mutating func lap() -> Double {
        let now = ContinuousClock.now
        let elapsed = last.duration(to: now)
        last = now
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
