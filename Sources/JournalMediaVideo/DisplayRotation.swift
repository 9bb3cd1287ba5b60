import CFFmpeg
import Foundation
import JournalMediaCore

/// Reads a video stream's display-matrix rotation (ffmpeg 5.1: stream side data
/// `AV_PKT_DATA_DISPLAYMATRIX` + `av_display_rotation_get`) as the clockwise quarter turn a
/// player applies: 0, 90, 180 or 270. Runs at probe time; costs a side-data lookup.
enum DisplayRotation {
    static func clockwiseDegrees(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
              size >= 9 * MemoryLayout<Int32>.size else { return 0 }
        let anticlockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
        return fromAnticlockwise(anticlockwise)
    }

    /// libav's anticlockwise angle (may be NaN for a degenerate matrix) as a clockwise quarter turn.
    static func fromAnticlockwise(_ degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        let quarterTurns = Int((-degrees / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }
}
