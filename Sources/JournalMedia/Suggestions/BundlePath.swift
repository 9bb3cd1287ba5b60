import Foundation
import JournalMediaCore

/// Resolves a bundle's relative file reference inside the bundle's folder, refusing what
/// could read anything else: absolute paths, `..` components, and symbolic links (anywhere
/// along the path) that resolve outside the folder. Runs once per referenced file, before
/// it is opened; costs one `realpath`.
public enum BundlePath {
    /// The file's URL, or an `AssetError` (stage `read`, reason `invalidInput` or
    /// `unreadable`) naming the reference as written.
    public static func resolve(_ reference: String, in folder: URL) -> Result<URL, AssetError> {
        func refuse(_ message: String, _ reason: AssetErrorReason = .invalidInput) -> Result<URL, AssetError> {
            .failure(AssetError(file: reference, stage: .read, reason: reason, message: message))
        }
        if reference.hasPrefix("/") || reference.hasPrefix("~") || reference.contains("\\") {
            return refuse("an absolute path: files must be given relative to the bundle's folder")
        }
        let components = reference.split(separator: "/", omittingEmptySubsequences: true)
        if components.contains("..") {
            return refuse("the path leaves the bundle's folder (\"..\")")
        }
        if reference.utf8.contains(0) { return refuse("the path contains a NUL character") }
        guard let root = realPath(folder.path) else {
            return refuse("the bundle's folder cannot be resolved", .unreadable)
        }
        let candidate = folder.appendingPathComponent(reference)
        guard let resolved = realPath(candidate.path) else {
            return refuse("no such file", .unreadable)
        }
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            return refuse("a symbolic link leads outside the bundle's folder")
        }
        return .success(URL(fileURLWithPath: resolved))
    }

    static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
