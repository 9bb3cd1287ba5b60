import Foundation
import JournalMediaCore
import JournalMediaImaging

/// One asset for `AssetProcessor`: where its bytes come from (a file, bytes in memory, a
/// probed input, a Live Photo's two halves) and how the call runs. Every `process` entry
/// point of the processor builds one of these and runs it through `run(_:)`.
///
/// A value; building one costs nothing (a file is opened when the processor runs it).
public struct AssetRequest: Sendable {
    /// Where the asset's bytes come from.
    public enum Input: Sendable {
        /// A file, opened, probed and read by the processor; `displayName` is the name errors
        /// and the result's `source` use (the path by default).
        case file(URL, displayName: String?)
        /// Bytes in memory (an upload), stills and movies alike. `name` is the original file
        /// name (file-name dates read it); `modified` stands in for a file's modification
        /// time; `sha256` is the bytes' SHA-256 (hex) when the caller already has it.
        case bytes([UInt8], name: String, modified: Double?, sha256: String?)
        /// A probed input; its content is loaded through the probe unless given (a batch
        /// loads first to decide whether an earlier result can be reused).
        case probed(ProbedAsset, content: SourceFile?)
        /// A Live Photo: the still's renditions and colours plus the movie's poster, in one
        /// result. Contents are loaded through the probes unless given.
        case livePhoto(still: ProbedAsset, stillContent: SourceFile?, motion: ProbedAsset,
                       motionContent: Result<SourceFile, AssetError>?, pairedBy: LivePhotoRecord.PairedBy)
    }

    public var input: Input
    /// With a deadline, an async call (waiting included) stops at it with an error of reason
    /// `timeout`. The blocking `run(_:)` honours the calling thread's `DecodeGuard` instead.
    public var deadlineSeconds: Double?
    /// Whether a still with an embedded movie (an Android motion photo) becomes a
    /// `livePhoto` entry with the movie's poster. Off for a Live Photo's own still.
    public var embeddedMotion = true
    /// Whether the answer keeps the decoded pixels (`ProcessedAsset.pixels`), at the size
    /// the largest rendition needs: a card draws a picture from them. Costs the memory of
    /// the pixels, and a second decode when a pre-made rendition stood in for the largest.
    public var keepsPixels = false
    /// The threads the decode may add beside its own (`SpareCores`): set by the caller that
    /// runs the request in a slot of an `AssetExecutor` (its `spareCores`; the processor's
    /// async calls and `Batch` do). `none` by default: one thread.
    public var spareCores = SpareCores.none

    public init(_ input: Input, deadlineSeconds: Double? = nil) {
        self.input = input
        self.deadlineSeconds = deadlineSeconds
    }
}

/// What `AssetProcessor.run(_:)` answers: the result and, when the request asked
/// (`keepsPixels`), the decoded pixels the renditions were made from.
public struct ProcessedAsset {
    public var result: AssetResult
    /// The still's (or poster's) decoded pixels at the size the largest rendition needs:
    /// upright, 8-bit sRGB or grey, alpha kept. Nil unless asked for, or when nothing was decoded.
    public var pixels: DecodedImage?
}
