import CFFmpeg
import Foundation
import JournalMediaCore

/// Reads how a player turns a video stream, as a clockwise quarter turn: 0, 90, 180 or 270.
///
/// First the display matrix (stream side data `AV_PKT_DATA_DISPLAYMATRIX` +
/// `av_display_rotation_get`): MP4/MOV `tkhd`, and Matroska/WebM `ProjectionPoseRoll`, which
/// libavformat already turns into a display matrix. Without one, a `rotate` stream tag
/// (any case: `ROTATE` as a Matroska track tag), clockwise degrees as older ffmpeg versions and
/// phone apps wrote it into Matroska files. Runs at probe time; costs a side-data and a
/// dictionary lookup.
enum DisplayRotation {
    static func clockwiseDegrees(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        var size = 0
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size),
           size >= 9 * MemoryLayout<Int32>.size {
            let anticlockwise = data.withMemoryRebound(to: Int32.self, capacity: 9) { av_display_rotation_get($0) }
            return fromAnticlockwise(anticlockwise)
        }
        // av_dict_get matches keys case-insensitively unless asked otherwise.
        guard let entry = av_dict_get(stream.pointee.metadata, "rotate", nil, 0),
              let text = LibavRuntime.string(entry.pointee.value) else { return 0 }
        return fromClockwiseTag(text)
    }

    /// libav's anticlockwise angle (may be NaN for a degenerate matrix) as a clockwise quarter turn.
    static func fromAnticlockwise(_ degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        let quarterTurns = Int((-degrees / 90).rounded())
        return ((quarterTurns % 4) + 4) % 4 * 90
    }

    /// A `rotate` tag's clockwise degrees (`90`, `-90`, `270.0`) as a quarter turn; 0 for text
    /// that is not a number or not a multiple of 90 (a tilt a player would not apply either).
    static func fromClockwiseTag(_ text: String) -> Int {
        guard let degrees = Double(text.trimmingCharacters(in: .whitespaces)), degrees.isFinite,
              abs(degrees) <= 3_600, degrees.truncatingRemainder(dividingBy: 90) == 0 else { return 0 }
        return fromAnticlockwise(-degrees)
    }
}
