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

/// What a scan found: the files to convert, and what the input folders held that will not be
/// converted, with why.
public struct InputScan: Sendable, Equatable {
    public var planned: [PlannedAsset]
    public var ignored: [IgnoredInput]
}

/// Expands the command line's inputs into a sorted, de-duplicated list of files.
///
/// Folders are recursed; hidden files and folders (names starting with `.`) and anything
/// inside the output folder are skipped. Naming: with one input folder, paths are relative
/// to it; with one input file, the path is its name; with several inputs, each input's
/// paths are prefixed by the input's own name (`-2`, `-3`, … added to repeated names), so
/// outputs never collide. Runs once per batch; costs one directory walk (one `lstat` per
/// entry, plus a `stat` and a `realpath` per symbolic link).
///
/// Symbolic links inside an input folder: a link to a regular file is followed when it
/// resolves inside one of the inputs (or always, with `followSymlinks`); links resolving
/// outside, dangling links and links to folders (never followed: no cycles) are listed in
/// `ignored`, as are unreadable folders, FIFOs, sockets and devices. Inputs named on the
/// command line are used as given.
public enum InputScanner {
    public static func scan(inputs: [URL], output: URL) throws(BatchError) -> [PlannedAsset] {
        try scanReporting(inputs: inputs, output: output).planned
    }

    public static func scanReporting(inputs: [URL], output: URL, followSymlinks: Bool = false) throws(BatchError) -> InputScan {
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

        let policy = LinkPolicy(roots: roots.map(\.path), follow: followSymlinks)
        var planned: [PlannedAsset] = []
        var ignored: [IgnoredInput] = []
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
            let found = walk(URL(fileURLWithPath: root.path), skipping: outputPath, links: policy)
            for relative in found.files {
                let url = URL(fileURLWithPath: root.path).appendingPathComponent(relative)
                if seenFiles.insert(url.path).inserted {
                    planned.append(PlannedAsset(url: url, relativePath: prefix + relative))
                }
            }
            ignored += found.ignored.map { IgnoredInput(path: prefix + $0.path, reason: $0.reason) }
        }
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return InputScan(planned: planned.sorted { order($0.relativePath, $1.relativePath) },
                         ignored: ignored.sorted { order($0.path, $1.path) })
    }

    /// Files named on a command line with folders expanded (recursed, hidden entries skipped,
    /// sorted, symbolic links as in `scan`), for commands that write nothing (`inspect`).
    /// Paths that do not exist are kept, so the caller reports them file by file.
    public static func files(in inputs: [URL]) -> [URL] {
        let policy = LinkPolicy(roots: inputs.map { canonicalPath($0) }, follow: false)
        var files: [URL] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), isDirectory.boolValue {
                files += walk(input, skipping: "\u{0}", links: policy).files.sorted().map { input.appendingPathComponent($0) }
            } else {
                files.append(input)
            }
        }
        return files
    }

    /// Which symbolic links to files are followed: those resolving inside a root, or all.
    struct LinkPolicy {
        var roots: [String]
        var follow: Bool

        func allows(_ resolved: String) -> Bool {
            follow || roots.contains { InputScanner.isInside(resolved, $0) }
        }
    }

    /// Regular files below `folder`, as paths relative to it, and what was passed over.
    private static func walk(_ folder: URL, skipping outputPath: String, links: LinkPolicy)
        -> (files: [String], ignored: [IgnoredInput]) {
        var found: [String] = []
        var ignored: [IgnoredInput] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? folder : folder.appendingPathComponent(relative)
            let names: [String]
            switch listFolder(directory.path) {
            case .success(let list): names = list
            case .failure(let failure):
                ignored.append(IgnoredInput(path: relative.isEmpty ? "." : relative,
                                            reason: "unreadable folder: \(String(cString: strerror(failure.code)))"))
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let childRelative = relative.isEmpty ? name : relative + "/" + name
                let childPath = directory.appendingPathComponent(name).path
                var info = stat()
                guard lstat(childPath, &info) == 0 else {
                    ignored.append(IgnoredInput(path: childRelative, reason: "cannot read: \(String(cString: strerror(errno)))"))
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if canonicalPath(URL(fileURLWithPath: childPath)) == outputPath { continue }
                    pending.append(childRelative)
                case S_IFREG:
                    found.append(childRelative)
                case S_IFLNK:
                    if let reason = linkProblem(childPath, links: links) {
                        ignored.append(IgnoredInput(path: childRelative, reason: reason))
                    } else {
                        found.append(childRelative)
                    }
                default:
                    ignored.append(IgnoredInput(path: childRelative, reason: specialFileReason(info.st_mode)))
                }
            }
        }
        return (found, ignored)
    }

    /// Why the symbolic link at `path` is not followed, or nil when it is a link to a
    /// regular file the policy allows.
    private static func linkProblem(_ path: String, links: LinkPolicy) -> String? {
        var target = stat()
        guard stat(path, &target) == 0 else {
            return errno == ENOENT || errno == ENOTDIR ? "dangling symbolic link (its target does not exist)"
                : "symbolic link whose target cannot be read: \(String(cString: strerror(errno)))"
        }
        switch target.st_mode & S_IFMT {
        case S_IFREG:
            guard let resolved = realpath(path, nil) else { return "symbolic link that cannot be resolved" }
            defer { free(resolved) }
            return links.allows(String(cString: resolved)) ? nil
                : "symbolic link to a file outside the inputs (not followed; --follow-symlinks to include it)"
        case S_IFDIR:
            return "symbolic link to a folder (folders behind links are not followed)"
        default:
            return "symbolic link to a " + specialFileReason(target.st_mode)
        }
    }

    private static func specialFileReason(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "FIFO (named pipe), not a regular file"
        case S_IFSOCK: "socket, not a regular file"
        case S_IFCHR, S_IFBLK: "device, not a regular file"
        default: "not a regular file"
        }
    }

    /// The names in a folder, or the `errno` of the failure to open or read it.
    private static func listFolder(_ path: String) -> Result<[String], POSIXFailure> {
        guard let stream = opendir(path) else { return .failure(POSIXFailure(operation: "open", code: errno)) }
        defer { closedir(stream) }
        var names: [String] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
            errno = 0
        }
        return errno == 0 ? .success(names) : .failure(POSIXFailure(operation: "read", code: errno))
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
