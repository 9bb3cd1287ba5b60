import Foundation
import Hummingbird
import JournalMedia

/// The files of a suggestion bundle uploaded as form parts, laid out in a private staging
/// folder (`PrivateStaging`: 0700 folders, 0600 files) the way the CLI finds them beside `suggestion.json`: each part named by its bundle
/// path (`files/photo.jpg`) is written there when the bundle references it, so
/// `SuggestionProcessor` resolves references exactly as `journal-media suggestion` does (a
/// reference without an uploaded part is that item's "no such file" error).
///
/// Part names are checked before anything is written: relative, no `..`, no backslash,
/// NUL or control character, components of at most 255 bytes, at most
/// `SuggestionBundleLimits.maxPathLength` characters; a part that breaks one of these, or
/// repeats another's path, refuses the request (400). Parts the bundle does not reference
/// are not written. Made once per `POST /v1/suggestions`; costs one write per referenced
/// file (the upload's size on disk, removed with the staging folder).
struct BundleUpload {
    /// `name` as a clean relative path (`./a//b.jpg` → `a/b.jpg`), or why it is refused.
    static func normalize(_ name: String) -> Result<String, ProblemResponse> {
        func refuse(_ why: String) -> Result<String, ProblemResponse> {
            .failure(ProblemResponse(.badRequest, "multipart: part \"\(printable(name))\": \(why)",
                                     reason: "invalidInput", stage: "read"))
        }
        if name.hasPrefix("/") || name.hasPrefix("~") { return refuse("an absolute path; parts are named by their bundle path") }
        if name.contains("\\") { return refuse("a backslash in a bundle path") }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return refuse("a control character in a bundle path")
        }
        if name.unicodeScalars.count > SuggestionBundleLimits.maxPathLength {
            return refuse("longer than \(SuggestionBundleLimits.maxPathLength) characters")
        }
        let components = name.split(separator: "/").filter { $0 != "." }
        if components.contains("..") { return refuse("the path leaves the bundle's folder (\"..\")") }
        if components.isEmpty { return refuse("an empty path") }
        if components.contains(where: { $0.utf8.count > AtomicFile.nameMax }) {
            return refuse("a path component longer than \(AtomicFile.nameMax) bytes")
        }
        return .success(components.joined(separator: "/"))
    }

    /// Writes the referenced parts of `parts` (all but `bundlePart`) below `folder` (a
    /// relative path, created even when nothing is written) in `staging`.
    static func stage(_ parts: [MultipartFormParser.Part], except bundlePart: Int, of body: [UInt8],
                      bundle: SuggestionBundle, in staging: PrivateStaging, under folder: String) throws(ProblemResponse) {
        try staging.makeFolder(folder)
        var referenced = Set<String>()
        for item in bundle.suggestion.items {
            for file in item.files { if case .success(let path) = normalize(file.path) { referenced.insert(path) } }
        }
        var seen = Set<String>()
        for (index, part) in parts.enumerated() where index != bundlePart {
            guard let name = part.name, !name.isEmpty else {
                throw ProblemResponse(.badRequest, "multipart: a file part has no name (name it by its bundle path)",
                                      reason: "invalidInput", stage: "read")
            }
            let path: String
            switch normalize(name) {
            case .success(let clean): path = clean
            case .failure(let problem): throw problem
            }
            guard seen.insert(path).inserted else {
                throw ProblemResponse(.badRequest, "multipart: two parts are named \(path)", reason: "invalidInput", stage: "read")
            }
            guard referenced.contains(path) else { continue }
            let written = body.withUnsafeBytes { bytes in
                Result { () throws(ProblemResponse) in
                    try staging.write(UnsafeRawBufferPointer(rebasing: bytes[part.range]), to: folder + "/" + path)
                }
            }
            try written.get()
        }
    }

    /// A name for a message: at most 200 characters.
    private static func printable(_ name: String) -> String {
        String(String.UnicodeScalarView(name.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
