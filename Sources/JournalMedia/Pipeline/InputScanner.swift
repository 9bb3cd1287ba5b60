import Foundation
import JournalMediaCore

/// One input file found by the scanner, with the path its outputs are named after.
public struct PlannedAsset: Sendable, Equatable {
    public var url: URL
    /// Path relative to its input root: the manifest's `source`, and the stem of its outputs.
    /// Percent-escaped (`FileNameEscaping`) when the name is not valid UTF-8.
    public var relativePath: String
    /// The file's path as the file system spells it, when `url` cannot (a name that is not
    /// valid UTF-8: Foundation's URL would replace its bytes); nil otherwise.
    public var pathBytes: [UInt8]? = nil
    /// For a file found by walking an input folder: the canonical paths of every input, one of
    /// which the file must lie in when it is opened (`ProbedAsset.open(_:…confinedTo:)`), so a
    /// symbolic link (or a folder on the path) swapped after the walk cannot lead outside.
    /// Nil for inputs named on the command line, and with `followSymlinks`.
    public var confinement: [[UInt8]]? = nil
}

/// What a scan found: the files to convert, and what the input folders held that will not be
/// converted, with why.
public struct InputScan: Sendable, Equatable {
    public var planned: [PlannedAsset]
    public var ignored: [IgnoredInput]
    /// Each input's canonical absolute path, in the order given (escaped when not valid
    /// UTF-8): what `Manifest.inputs` records.
    public var roots: [String] = []
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
/// command line are used as given. What the walk checked can change before the file is
/// read, so each file found in a folder carries the inputs it must lie in
/// (`PlannedAsset.confinement`), checked again on the descriptor it is read through.
public enum InputScanner {
    public static func scan(inputs: [URL], output: URL) throws(BatchError) -> [PlannedAsset] {
        try scanReporting(inputs: inputs, output: output).planned
    }

    public static func scanReporting(inputs: [URL], output: URL, followSymlinks: Bool = false) throws(BatchError) -> InputScan {
        try scanReporting(inputs: inputs.map { ($0, nil) }, output: output, followSymlinks: followSymlinks)
    }

    /// As `scanReporting(inputs:output:followSymlinks:)`, for inputs given as a command line
    /// gave them: an input whose `pathBytes` is set is the file or folder those bytes name (a
    /// name that is not valid UTF-8; `url` is then only its escaped spelling). Its files keep
    /// their bytes and are named escaped (`FileNameEscaping`), so the manifest flags them.
    public static func scanReporting(inputs: [(url: URL, pathBytes: [UInt8]?)], output: URL,
                                     followSymlinks: Bool = false) throws(BatchError) -> InputScan {
        let outputPath = canonicalPath(output)
        let outputBytes = Array(outputPath.utf8)
        // Each root: as given (`opened`: the bytes to open a file input by), canonical bytes.
        var roots: [(url: URL, opened: [UInt8]?, path: [UInt8], isDirectory: Bool)] = []
        for (input, given) in inputs {
            let path: [UInt8]
            let isDirectory: Bool
            if let given {
                var info = stat()
                guard FileNameEscaping.withCPath(given, { stat($0, &info) }) == 0 else {
                    throw BatchError.missingInput(input.path)
                }
                isDirectory = info.st_mode & S_IFMT == S_IFDIR
                path = canonicalPath(bytes: given)
            } else {
                var directory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: input.path, isDirectory: &directory) else {
                    throw BatchError.missingInput(input.path)
                }
                isDirectory = directory.boolValue
                path = Array(canonicalPath(input).utf8)
            }
            if isDirectory && isInside(outputBytes, path) {
                throw BatchError.outputInsideInput(output: output.path, input: input.path)
            }
            if isInside(path, outputBytes) {
                throw BatchError.inputInsideOutput(input: input.path, output: output.path)
            }
            roots.append((input, given, path, isDirectory))
        }

        // Each root's prefix as shown, and as escaped (for files whose names are escaped).
        var prefixes: [(shown: String, escaped: String)] = []
        var used: [String: Int] = [:]
        for root in roots {
            let baseBytes: [UInt8]
            if let text = String(validating: root.path, as: UTF8.self) {
                baseBytes = Array(URL(fileURLWithPath: text).lastPathComponent.utf8)
            } else {
                baseBytes = Array(root.path.split(separator: 0x2F, omittingEmptySubsequences: true).last ?? [])
            }
            let base = FileNameEscaping.shown(baseBytes).text
            let count = (used[base] ?? 0) + 1
            used[base] = count
            let suffix = count == 1 ? "" : "-\(count)"
            prefixes.append((base + suffix, FileNameEscaping.escaped(baseBytes) + suffix))
        }

        // Links are followed into roots whose paths are text; a root that is not valid UTF-8
        // is not one a link may lead into (such a link is listed as leading outside).
        let policy = LinkPolicy(roots: roots.compactMap { String(validating: $0.path, as: UTF8.self) },
                                follow: followSymlinks)
        var planned: [PlannedAsset] = []
        var ignored: [IgnoredInput] = []
        var seenFiles = Set<[UInt8]>()
        let confinement = followSymlinks ? nil : roots.map(\.path)
        for (index, root) in roots.enumerated() {
            let several = roots.count > 1
            let rootIsText = String(validating: root.path, as: UTF8.self) != nil
            if !root.isDirectory {
                if seenFiles.insert(root.path).inserted {
                    if let opened = root.opened {
                        let lastName = Array(opened.split(separator: 0x2F, omittingEmptySubsequences: true).last ?? [])
                        let name = several ? prefixes[index].escaped : FileNameEscaping.escaped(lastName)
                        planned.append(PlannedAsset(url: root.url, relativePath: name, pathBytes: opened))
                    } else {
                        let name = several ? prefixes[index].shown : root.url.lastPathComponent
                        planned.append(PlannedAsset(url: root.url, relativePath: name))
                    }
                }
                continue
            }
            let found = walk(root.path, escapedRoot: !rootIsText, skipping: outputPath, links: policy)
            // The folder's path as text (escaped when not UTF-8): only names the files.
            let folderText = FileNameEscaping.shown(root.path).text
            for file in found.files {
                let url = URL(fileURLWithPath: folderText).appendingPathComponent(file.relative)
                let key = file.pathBytes ?? Array(url.path.utf8)
                if seenFiles.insert(key).inserted {
                    let prefix = !several ? "" : (file.pathBytes == nil ? prefixes[index].shown : prefixes[index].escaped) + "/"
                    planned.append(PlannedAsset(url: url, relativePath: prefix + file.relative, pathBytes: file.pathBytes,
                                                confinement: confinement))
                }
            }
            ignored += found.ignored.map {
                var item = $0
                if several {
                    item.path = (item.pathEncoding == nil ? prefixes[index].shown : prefixes[index].escaped) + "/" + $0.path
                }
                return item
            }
        }
        let order: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return InputScan(planned: planned.sorted { order($0.relativePath, $1.relativePath) },
                         ignored: ignored.sorted { order($0.path, $1.path) },
                         roots: roots.map { FileNameEscaping.shown($0.path).text })
    }

    /// Files named on a command line with folders expanded (recursed, hidden entries skipped,
    /// sorted, symbolic links as in `scan`), for commands that write nothing (`inspect`).
    /// Paths that do not exist are kept, so the caller reports them file by file. Names that
    /// are not UTF-8 are kept: each input with its bytes
    /// when the command line gave it as bytes (`url` is then its escaped spelling), and each
    /// file found in a folder with its bytes when its name needed escaping. `relativePath` is
    /// the name to print: the input as given, or the folder input joined with the found path;
    /// with `relative`, a found file's path relative to its folder, as a batch's `source`
    /// (prefixed by the folder's name when there are several inputs).
    public static func inspectionFiles(in inputs: [(url: URL, pathBytes: [UInt8]?)],
                                       relative: Bool = false) -> [PlannedAsset] {
        let policy = LinkPolicy(roots: inputs.map { canonicalPath($0.url) }, follow: false)
        var files: [PlannedAsset] = []
        for (input, bytes) in inputs {
            var isDirectory: ObjCBool = false
            var info = stat()
            let folder: [UInt8]? = if let bytes {
                FileNameEscaping.withCPath(bytes, { stat($0, &info) }) == 0 && info.st_mode & S_IFMT == S_IFDIR ? bytes : nil
            } else if FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory), isDirectory.boolValue {
                Array(input.path.utf8)
            } else {
                nil
            }
            if let folder {
                let found = walk(folder, escapedRoot: bytes != nil, skipping: "\u{0}", links: policy).files
                    .sorted { $0.relative < $1.relative }
                let prefix = inputs.count > 1 ? input.lastPathComponent + "/" : ""
                files += found.map { file in
                    let url = input.appendingPathComponent(file.relative)
                    return PlannedAsset(url: url, relativePath: relative ? prefix + file.relative : url.relativePath,
                                        pathBytes: file.pathBytes)
                }
            } else {
                files.append(PlannedAsset(url: input, relativePath: input.relativePath, pathBytes: bytes))
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

    /// A file found by `walk`: its path relative to the folder (escaped when not UTF-8) and,
    /// for such names, the file system's own bytes for the whole path.
    struct Found: Equatable {
        var relative: String
        var pathBytes: [UInt8]?
    }

    /// Regular files below the folder at `root` (its path's bytes), as paths relative to it,
    /// and what was passed over. Names are read as bytes: one that is not valid UTF-8 is kept,
    /// percent-escaped, with its bytes; so is everything below it, and everything when
    /// `escapedRoot` (a folder whose own path is not valid UTF-8). An escaped relative path is
    /// escaped whole (a `%` in a valid name beside it becomes `%25`), so it decodes losslessly.
    private static func walk(_ root: [UInt8], escapedRoot: Bool, skipping outputPath: String, links: LinkPolicy)
        -> (files: [Found], ignored: [IgnoredInput]) {
        var found: [Found] = []
        var ignored: [IgnoredInput] = []
        // (relative path as shown, relative path as bytes, whether an escaped name is in it)
        var pending: [(shown: String, bytes: [UInt8], escaped: Bool)] = [("", [], escapedRoot)]
        while let (relative, relativeBytes, escapedParent) = pending.popLast() {
            let directoryBytes = relativeBytes.isEmpty ? root : root + [0x2F] + relativeBytes
            let names: [[UInt8]]
            switch listFolder(directoryBytes) {
            case .success(let list): names = list
            case .failure(let failure):
                var item = IgnoredInput(path: relative.isEmpty ? "." : relative,
                                        reason: "unreadable folder: \(String(cString: strerror(failure.code)))")
                if escapedParent { item.pathEncoding = FileNameEscaping.encodingName }
                ignored.append(item)
                continue
            }
            for nameBytes in names where nameBytes.first != 0x2E {
                let name = FileNameEscaping.shown(nameBytes)
                let escaped = escapedParent || name.escaped
                let childBytes = relativeBytes.isEmpty ? nameBytes : relativeBytes + [0x2F] + nameBytes
                let childRelative = escaped ? FileNameEscaping.escaped(childBytes)
                    : relative.isEmpty ? name.text : relative + "/" + name.text
                let childPathBytes = root + [0x2F] + childBytes
                func ignore(_ reason: String) {
                    var item = IgnoredInput(path: childRelative, reason: reason)
                    if escaped { item.pathEncoding = FileNameEscaping.encodingName }
                    ignored.append(item)
                }
                var info = stat()
                guard FileNameEscaping.withCPath(childPathBytes, { lstat($0, &info) }) == 0 else {
                    ignore("cannot read: \(String(cString: strerror(errno)))")
                    continue
                }
                let childPath = String(decoding: childPathBytes, as: UTF8.self)
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if !escaped, canonicalPath(URL(fileURLWithPath: childPath)) == outputPath { continue }
                    pending.append((childRelative, childBytes, escaped))
                case S_IFREG:
                    found.append(Found(relative: childRelative, pathBytes: escaped ? childPathBytes : nil))
                case S_IFLNK:
                    if escaped {
                        ignore("symbolic link whose name is not valid UTF-8 (not followed)")
                    } else if let reason = linkProblem(childPath, links: links) {
                        ignore(reason)
                    } else {
                        found.append(Found(relative: childRelative))
                    }
                default:
                    ignore(specialFileReason(info.st_mode))
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

    /// The names in a folder as the file system spells them (bytes, not necessarily UTF-8),
    /// or the `errno` of the failure to open or read it.
    private static func listFolder(_ path: [UInt8]) -> Result<[[UInt8]], POSIXFailure> {
        guard let stream = FileNameEscaping.withCPath(path, { opendir($0) }) else {
            return .failure(POSIXFailure(operation: "open", code: errno))
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        errno = 0
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
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

    /// `canonicalPath` for a path given as bytes (one that may not be valid UTF-8): the
    /// file system's `realpath`, or, when that fails, the bytes made absolute.
    static func canonicalPath(bytes: [UInt8]) -> [UInt8] {
        if let resolved = FileNameEscaping.withCPath(bytes, { realpath($0, nil) }) {
            defer { free(resolved) }
            return Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map { UInt8(bitPattern: $0) }
        }
        if bytes.first == 0x2F { return bytes }
        return Array(FileManager.default.currentDirectoryPath.utf8) + [0x2F] + bytes
    }

    /// Whether `path` is `folder` or below it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// `isInside` for paths as bytes.
    static func isInside(_ path: [UInt8], _ folder: [UInt8]) -> Bool {
        let stem = folder.last == 0x2F ? folder : folder + [0x2F]
        return path == folder || path.starts(with: stem)
    }
}
