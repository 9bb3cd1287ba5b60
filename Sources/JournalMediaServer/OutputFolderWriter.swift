import Foundation
import JournalMedia

/// Output-folder mode (`--output-dir`): writes an asset's renditions into the server's
/// output folder instead of answering their bytes, each atomically (`AtomicFile`: a hidden
/// temporary name renamed into place, no folder below the output entered through a symbolic
/// link), and records each path, relative to the folder, in the result.
///
/// Layout: `<preset>/<first 16 hex digits of the upload's SHA-256>/<name>.<role>.<ext>`.
/// The preset is a configured name (letters, digits, `-`, `_`), the digest is computed here,
/// and the name is the upload's last path component without control characters
/// (`AssetRoutes.filename`), cut to fit NAME_MAX as `convert` does: nothing the client sends
/// can reach outside the folder, and two uploads of different content never share a file
/// (the same content under the same name is written again, with the same bytes).
/// Runs after a successful asset; costs one write and rename per rendition.
struct OutputFolderWriter {
    let folder: URL

    func write(_ result: inout AssetResult, preset: String) throws(ProblemResponse) {
        let digest = String((result.sha256 ?? "0000000000000000").prefix(16))
        let name = AssetRoutes.filename(result.source)
        do throws(RenditionWriter.Failure) {
            try RenditionWriter.write(&result.renditions, under: folder) {
                "\(preset)/\(digest)/" + Batch.renditionPath(source: name, role: $0.role, format: $0.format)
            }
        } catch {
            throw ProblemResponse(.internalServerError, "write: \(error)", reason: "writeFailed", stage: "write")
        }
    }
}
