import Foundation
import JournalMediaCore

/// Where a bundle's referenced files come from: the bundle's folder on disk, or bytes the
/// caller already holds (an upload's parts), keyed by the reference exactly as
/// `suggestion.json` writes it (`"files/photo.jpg"`). Consulted once per referenced file,
/// before the file is probed; a folder costs one `realpath`, memory a dictionary look-up.
public enum SuggestionFiles: Sendable {
    /// Files resolved inside this folder by `BundlePath` (no absolute paths, no `..`, no
    /// symbolic link out of it).
    case folder(URL)
    /// Files supplied by the caller; a reference not among the keys is that item's
    /// `unreadable` error, as a missing file is.
    case memory([String: [UInt8]])

    /// The probed file for `reference`, or the error naming it (stage `read`).
    /// `stop`: the item's guard, which ends a movie's open like its time limit.
    func open(_ reference: String, maxPixels: Int, stop: DecodeGuard? = nil) -> Result<ProbedAsset, AssetError> {
        switch self {
        case .folder(let folder):
            return BundlePath.resolve(reference, in: folder).map {
                ProbedAsset.open($0, name: reference, maxPixels: maxPixels, stop: stop)
            }
        case .memory(let files):
            let key = reference.hasPrefix("./") ? String(reference.dropFirst(2)) : reference
            guard let bytes = files[reference] ?? files[key] else {
                return .failure(AssetError(file: reference, stage: .read, reason: .unreadable,
                                           message: "no such file among the files supplied"))
            }
            return .success(ProbedAsset(data: bytes, name: reference, maxPixels: maxPixels, stop: stop))
        }
    }
}
