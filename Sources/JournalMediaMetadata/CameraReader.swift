import Foundation
import JournalMediaCore

/// Reads `CameraInfo` from what the header walk already parsed: a still's EXIF (IFD0
/// `Make`, `Model`, `Software`; the EXIF IFD's lens and exposure), or a movie's container
/// tags (QuickTime keys, else MP4's `©mak`/`©mod`). Nil when neither make nor model is
/// named. A few lookups per asset.
package enum CameraReader {
    package static func read(_ exif: ExifBlock) -> CameraInfo? {
        let make = CameraInfo.normalized(exif.text(.primary, ExifTagNumber.make))
        let model = CameraInfo.normalized(exif.text(.primary, ExifTagNumber.model))
        guard make != nil || model != nil else { return nil }
        var camera = CameraInfo(make: make, model: model,
                                software: CameraInfo.normalized(exif.text(.primary, ExifTagNumber.software)))
        func positive(_ tag: UInt16) -> Double? {
            exif.numbers(.exif, tag)?.first.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        }
        // Some writers (Nikon's software) put LensModel in IFD0; ExifTool reads it there too.
        camera.lens = CameraInfo.normalized(exif.text(.exif, ExifTagNumber.lensModel)
            ?? exif.text(.primary, ExifTagNumber.lensModel))
        camera.focalLength = positive(ExifTagNumber.focalLength)
        camera.focalLength35 = positive(ExifTagNumber.focalLength35)
        camera.fNumber = positive(ExifTagNumber.fNumber)
        camera.exposureTime = positive(ExifTagNumber.exposureTime)
        camera.iso = positive(ExifTagNumber.iso).map { Int($0) }
        return camera
    }

    /// The container keys `read(containerTags:)` looks at.
    package static let containerKeys = ["com.apple.quicktime.make", "make", "com.apple.quicktime.model", "model",
                                        "com.apple.quicktime.software"]

    package static func read(containerTags tags: [String: String]) -> CameraInfo? {
        let make = CameraInfo.normalized(tags["com.apple.quicktime.make"] ?? tags["make"])
        let model = CameraInfo.normalized(tags["com.apple.quicktime.model"] ?? tags["model"])
        guard make != nil || model != nil else { return nil }
        return CameraInfo(make: make, model: model, software: CameraInfo.normalized(tags["com.apple.quicktime.software"]))
    }
}
