import Foundation
import JournalMediaCore
import JournalMediaImaging
import JournalMediaMetadata
import JournalMediaVideo

/// One input file found by the scanner, with the path its outputs are named after.
public struct PlannedAsset: Sendable, Equatable {
    public var url: URL
    /// Path relative to its input root: the manifest's `source`, and the stem of its outputs.
    public var relativePath: String
}

/// Expands the command line's inputs into a sorted, de-duplicated list of files.
///
/// Folders are recursed; hidden files and folders (names starting with `.`) and anything
/// inside the output folder are skipped. Naming: with one input folder, paths are relative
/// to it; with one input file, the path is its name; with several inputs, each input's
/// paths are prefixed by the input's own name (`-2`, `-3`, … added to repeated names), so
/// outputs never collide. Runs once per batch; costs one directory walk.
public enum InputScanner {
    public static func scan(inputs: [URL], output: URL) throws(BatchError) -> [PlannedAsset] {
        let outputPath = canonicalPath(output)
        var roots: [(url: URL, path: String, isDirectory: Bool)] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
                throw BatchError.missingInput(input.path)
            }
            let path = canonicalPath(input)
            if isDirectory.boolValue && isInside(outputPath, path) {
                throw BatchError.outputInsideInput(output: output.path, input: input.path)
            }
            if isInside(path, outputPath) {
                throw BatchError.inputInsideOutput(input: input.path, output: output.path)
            }
            roots.append((input, path, isDirectory.boolValue))
        }

        var prefixes: [String] = []
        var used: [String: Int] = [:]
        for root in roots {
            let base = URL(fileURLWithPath: root.path).lastPathComponent
            let count = (used[base] ?? 0) + 1
            used[base] = count
            prefixes.append(count == 1 ? base : "\(base)-\(count)")
        }

        var planned: [PlannedAsset] = []
        var seenFiles = Set<String>()
        for (index, root) in roots.enumerated() {
            let prefix = roots.count == 1 ? "" : prefixes[index] + "/"
            if !root.isDirectory {
                if seenFiles.insert(root.path).inserted {
                    let name = roots.count == 1 ? root.url.lastPathComponent : prefixes[index]
                    planned.append(PlannedAsset(url: root.url, relativePath: name))
                }
                continue
            }
            for relative in walk(URL(fileURLWithPath: root.path), skipping: outputPath) {
                let url = URL(fileURLWithPath: root.path).appendingPathComponent(relative)
                if seenFiles.insert(url.path).inserted {
                    planned.append(PlannedAsset(url: url, relativePath: prefix + relative))
                }
            }
        }
        return planned.sorted { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
    }

    /// Files named on a command line with folders expanded (recursed, hidden entries skipped,
    /// sorted), for commands that write nothing (`inspect`). Paths that do not exist are kept,
    /// so the caller reports them file by file.
    public static func files(in inputs: [URL]) -> [URL] {
        var files: [URL] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), isDirectory.boolValue {
                files += walk(input, skipping: "\u{0}").sorted().map { input.appendingPathComponent($0) }
            } else {
                files.append(input)
            }
        }
        return files
    }

    /// Regular files below `folder`, as paths relative to it.
    private static func walk(_ folder: URL, skipping outputPath: String) -> [String] {
        var found: [String] = []
        var pending = [""]
        let manager = FileManager.default
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { continue }
            for name in names where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childPath = directory.appendingPathComponent(name).path
                var info = stat()
                guard stat(childPath, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    // Symbolic links to folders are not followed (no cycles, no escaping the root).
                    var linkInfo = stat()
                    if lstat(childPath, &linkInfo) == 0 && (linkInfo.st_mode & S_IFMT) == S_IFLNK { continue }
                    if canonicalPath(URL(fileURLWithPath: childPath)) == outputPath { continue }
                    pending.append(childRelative)
                case S_IFREG:
                    found.append(childRelative)
                default:
                    continue
                }
            }
        }
        return found
    }

    /// The absolute path with symbolic links resolved; for a path that does not exist yet,
    /// its deepest existing ancestor is resolved and the rest appended.
    static func canonicalPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        var path = existing.resolvingSymlinksInPath().path
        for component in rest { path = (path as NSString).appendingPathComponent(component) }
        return path
    }

    /// Whether `path` is `folder` or below it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
