import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// What an input folder may hold besides regular files (issue 14, item 8): symbolic links
/// leading outside the inputs are not read unless asked, and dangling links, links to folders,
/// FIFOs and unreadable folders are listed under `ignored` with why.
@Suite(.serialized) struct InputLinkTests {
    /// in/ holds a photo, a link to a file inside in/, a link to a file outside, a dangling
    /// link, a link to a folder and a FIFO.
    func makeTree(_ label: String = #function) throws -> (root: URL, input: URL, secret: URL) {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        let manager = FileManager.default
        try manager.createDirectory(at: input.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        try manager.copyItem(at: TestSupport.sample("photo.heic"), to: input.appendingPathComponent("photo.heic"))
        try manager.copyItem(at: TestSupport.sample("icon.svg"), to: input.appendingPathComponent("sub/real.svg"))
        let secret = root.appendingPathComponent("secret.jpg")
        try manager.copyItem(at: TestSupport.sample("cmyk.jpg"), to: secret)
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("alias.svg").path, withDestinationPath: "sub/real.svg")
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("secret.jpg").path, withDestinationPath: secret.path)
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("dangling.jpg").path, withDestinationPath: "../nothing.jpg")
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("linked-folder").path,
                                       withDestinationPath: root.appendingPathComponent("elsewhere").path)
        #expect(mkfifo(input.appendingPathComponent("sub/pipe").path, 0o644) == 0)
        return (root, input, secret)
    }

    @Test func linksOutsideTheInputsAreIgnoredWithTheReason() async throws {
        let (root, input, secret) = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let output = root.appendingPathComponent("out")
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()

        #expect(manifest.assets.map(\.source) == ["alias.svg", "photo.heic", "sub/real.svg"])
        #expect(manifest.summary.succeeded == 3)
        let reasons = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0.reason) })
        #expect(Set(reasons.keys) == ["dangling.jpg", "linked-folder", "secret.jpg", "sub/pipe"])
        #expect(reasons["secret.jpg"]?.contains("outside the inputs") == true)
        #expect(reasons["dangling.jpg"]?.contains("dangling") == true)
        #expect(reasons["linked-folder"]?.contains("folder") == true)
        #expect(reasons["sub/pipe"]?.contains("FIFO") == true)

        // Nothing of the file behind the link reaches the output: not its digest, not its size.
        let written = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let secretDigest = ContentDigest.sha256(Array(try Data(contentsOf: secret)))
        #expect(!String(decoding: written, as: UTF8.self).contains(secretDigest))
        let decoded = try TestSupport.manifest(in: output)  // also checked against Schemas/manifest.v1.json
        #expect(decoded.ignored == manifest.ignored, "the list is written and read back")

        // Opting in reads it.
        var follow = Batch(inputs: [input], output: root.appendingPathComponent("out-follow"), jobs: 2)
        follow.followSymlinks = true
        let followed = try await follow.run()
        let entry = followed.assets.first { $0.source == "secret.jpg" }
        #expect(entry?.sha256 == secretDigest && entry?.error == nil)
        #expect(!followed.ignored.contains { $0.path == "secret.jpg" })
    }

    /// The CLI prints each ignored item as a note and counts them in its summary line.
    @Test func theCLIReportsIgnoredItems() throws {
        let (root, input, _) = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = try TestSupport.runCLI(["convert", input.path, "-o", root.appendingPathComponent("out").path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("journal-media: note: secret.jpg: ignored: symbolic link to a file outside the inputs"))
        #expect(run.stderr.contains("3 assets: 3 succeeded, 0 failed, 0 skipped, 4 ignored"))
        let follow = try TestSupport.runCLI(["convert", input.path, "-o", root.appendingPathComponent("out2").path, "--follow-symlinks"])
        #expect(follow.stderr.contains("4 assets: 4 succeeded"), "\(follow.stderr)")
    }

    /// An unreadable sub-folder is listed, not silently absent. Root reads any folder, so as
    /// root the run drops to `nobody` with setpriv (mode bits then apply).
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "as root, an unreadable folder needs setpriv to run as another user"))
    func unreadableFoldersAreListed() throws {
        let root = try TestSupport.temporaryFolder()
        defer {
            chmod(root.appendingPathComponent("in/locked").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        let input = root.appendingPathComponent("in")
        let locked = input.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: TestSupport.sample("icon.svg"), to: input.appendingPathComponent("ok.svg"))
        try FileManager.default.copyItem(at: TestSupport.sample("icon.svg"), to: locked.appendingPathComponent("hidden-from-us.svg"))
        let output = root.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        chmod(root.path, 0o755)
        chmod(output.path, 0o777)
        chmod(locked.path, 0o000)

        let arguments = ["convert", input.path, "-o", output.path]
        let run = getuid() == 0
            ? try TestSupport.runCLI(["--reuid=65534", "--regid=65534", "--clear-groups", TestSupport.cli.path] + arguments,
                                     executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
            : try TestSupport.runCLI(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let manifest = try Manifest.decode(try Data(contentsOf: output.appendingPathComponent("manifest.json")))
        #expect(manifest.assets.map(\.source) == ["ok.svg"])
        #expect(manifest.ignored == [IgnoredInput(path: "locked", reason: "unreadable folder: Permission denied")])
    }

    /// Issue 27, item 8: a link the walk found leading inside, retargeted outside before the
    /// file is opened, and a sub-folder swapped for a link to a folder outside: the one open
    /// is checked (`/proc/self/fd`), so neither outside file is read, hashed or converted.
    @Test func aLinkRetargetedAfterTheWalkIsNotRead() async throws {
        let (root, input, secret) = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        let scan = try InputScanner.scanReporting(inputs: [input], output: root.appendingPathComponent("out"))
        #expect(scan.planned.map(\.relativePath) == ["alias.svg", "photo.heic", "sub/real.svg"])

        // Between the walk and the open, as a hostile process could.
        let alias = input.appendingPathComponent("alias.svg")
        try manager.removeItem(at: alias)
        try manager.createSymbolicLink(atPath: alias.path, withDestinationPath: secret.path)
        let elsewhere = root.appendingPathComponent("elsewhere")
        try manager.copyItem(at: secret, to: elsewhere.appendingPathComponent("real.svg"))
        try manager.moveItem(at: input.appendingPathComponent("sub"), to: root.appendingPathComponent("moved-sub"))
        try manager.createSymbolicLink(atPath: input.appendingPathComponent("sub").path, withDestinationPath: elsewhere.path)

        let probes = await Batch.probe(scan.planned, jobs: 1)
        let secretDigest = ContentDigest.sha256(Array(try Data(contentsOf: secret)))
        for name in ["alias.svg", "sub/real.svg"] {
            let probe = try #require(probes.first { $0.name == name })
            #expect(probe.error?.stage == .read, "\(name): \(String(describing: probe.error))")
            #expect(probe.error?.message.contains("outside the inputs") == true, "\(name)")
            #expect(probe.format == nil && probe.size == nil)
            #expect(throws: AssetError.self) { _ = try probe.load() }
        }
        let photo = try #require(probes.first { $0.name == "photo.heic" })
        #expect(photo.error == nil && photo.format == .heic)
        // A probe closed after its walk (a batch past its descriptor budget) is checked again
        // when it is reopened.
        photo.detach()
        #expect(try photo.load().sha256 != secretDigest)

        // --follow-symlinks: links may lead anywhere, so the retargeted one is read.
        let followed = try InputScanner.scanReporting(inputs: [input], output: root.appendingPathComponent("out"),
                                                      followSymlinks: true)
        let aliasProbe = await Batch.probe(followed.planned.filter { $0.relativePath == "alias.svg" }, jobs: 1)
        #expect(try aliasProbe.first?.load().sha256 == secretDigest)
    }
}
