import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore

/// Issue 17's photo folders as people have them: README.md, notes, JSON and XMP sidecars
/// beside the photos are listed as ignored (not failures); a file name that is not UTF-8 is
/// converted and kept losslessly in the manifest.
@Suite struct FolderContentTests {
    /// A folder with two photos and the files people keep beside them.
    func photoFolder(_ label: String = #function) throws -> (input: URL, output: URL) {
        let root = try TestSupport.temporaryFolder(label)
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try TestSupport.copySamples(["cmyk.jpg", "orientation-6-gps-p3.jpg"], to: input)
        try Data("# Holiday 2023\nPhotos from the trip.\n".utf8).write(to: input.appendingPathComponent("README.md"))
        try Data("milk\neggs\n".utf8).write(to: input.appendingPathComponent("notes.txt"))
        try Data(#"{"album": "Holiday"}"#.utf8).write(to: input.appendingPathComponent("album.json"))
        let xmp = #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>"#
        try Data(xmp.utf8).write(to: input.appendingPathComponent("cmyk.xmp"))
        try Data().write(to: input.appendingPathComponent("empty-notes.txt"))
        return (input, root.appendingPathComponent("out"))
    }

    @Test func filesThatAreNotMediaAreIgnoredWithAReason() async throws {
        let (input, output) = try photoFolder()
        defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
        let manifest = try await Batch(inputs: [input], output: output, jobs: 2).run()
        #expect(manifest.summary.assets == 2 && manifest.summary.failed == 0)
        let ignored = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0) })
        #expect(Set(ignored.keys) == ["README.md", "notes.txt", "album.json", "cmyk.xmp", "empty-notes.txt"])
        #expect(ignored.values.allSatisfy { $0.notMedia == true && $0.reason.hasPrefix("not media: ") })
        #expect(ignored["cmyk.xmp"]?.reason.contains("XMP sidecar") == true)
        #expect(ignored["album.json"]?.reason.contains("JSON") == true)

        // --strict keeps the old rule: they are failed assets.
        var strict = Batch(inputs: [input], output: output, jobs: 2, force: true)
        strict.strict = true
        let old = try await strict.run()
        #expect(old.summary.failed == 5 && old.ignored.isEmpty)
    }

    @Test func aTextFileNamedLikeAPhotoIsStillAFailure() {
        // Content first, but a media extension keeps the file a (broken) photo.
        #expect(NotMediaFile.reason(head: Array("milk\n".utf8), fileName: "photo.jpg") == nil)
        #expect(NotMediaFile.reason(head: [], fileName: "empty.png") == nil)
        // Unknown binary content under an unknown name may be media: not classified.
        #expect(NotMediaFile.reason(head: [0x00, 0x9F, 0x42, 0x17, 0xFE], fileName: "data.bin") == nil)
        // … unless its name says what it is.
        #expect(NotMediaFile.reason(head: [0x00, 0x9F, 0x42, 0x17, 0xFE], fileName: "Font.ttf")?.contains(".ttf file") == true)
        #expect(NotMediaFile.reason(head: Array("PK\u{3}\u{4}rest".utf8), fileName: "photos.zip")?.contains("ZIP") == true)
        // Text in other encodings: UTF-16 with a BOM, Latin-1, an XMP packet with a stray
        // control byte in its header (as ExifTool's and Immich's test files have).
        #expect(NotMediaFile.reason(head: [0xFF, 0xFE, 0x74, 0, 0x68, 0, 0x0A, 0], fileName: "a.txt") == "not media: a text file")
        #expect(NotMediaFile.reason(head: Array("this ".utf8) + [0xE9] + Array(" is Latin1\r\n".utf8), fileName: "b.txt")
            == "not media: a text file")
        #expect(NotMediaFile.reason(head: Array("<?xpacket begin=\"\u{1A}\"?><x:xmpmeta>".utf8), fileName: "c.xmp")?
            .contains("XMP sidecar") == true)
    }

    @Test func theCLIExitsZeroForAFolderWithAReadme() throws {
        let (input, output) = try photoFolder()
        defer { try? FileManager.default.removeItem(at: input.deletingLastPathComponent()) }
        let run = try TestSupport.runCLI(["convert", input.path, "--output", output.path, "--size", "64"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("README.md: ignored: not media"))
        #expect(run.stderr.contains("2 succeeded, 0 failed") && run.stderr.contains("5 ignored"))
        let strict = try TestSupport.runCLI(["convert", input.path, "--output", output.path, "--size", "64", "--strict"])
        #expect(strict.status == 1)
    }

    @Test func aNameThatIsNotUTF8IsConvertedAndKeptLosslessly() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let photo = try Data(contentsOf: TestSupport.sample("cmyk.jpg"))
        // "bad\xffbyte.jpg": not valid UTF-8 (Foundation cannot spell it), written through open(2).
        let rawName = Array(input.path.utf8) + Array("/bad".utf8) + [0xFF] + Array("byte.jpg".utf8)
        let descriptor = FileNameEscaping.withCPath(rawName) { open($0, O_CREAT | O_WRONLY | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        try photo.write(to: input.appendingPathComponent("100%.jpg"))

        let manifest = try await Batch(inputs: [input], output: root.appendingPathComponent("out"), jobs: 2).run()
        #expect(manifest.summary.assets == 2 && manifest.summary.failed == 0)
        let escaped = try #require(manifest.assets.first { $0.source == "bad%FFbyte.jpg" })
        #expect(escaped.sourceEncoding == "percent" && escaped.renditions.count == 2)
        #expect(escaped.sha256 == ContentDigest.sha256(Array(photo)))
        #expect(FileNameEscaping.unescaped(escaped.source) == Array("bad".utf8) + [0xFF] + Array("byte.jpg".utf8))
        // A valid UTF-8 name is never escaped, even with a % in it.
        let plain = try #require(manifest.assets.first { $0.source == "100%.jpg" })
        #expect(plain.sourceEncoding == nil)
        #expect(FileNameEscaping.escaped(Array("100%".utf8) + [0xC3]) == "100%25%C3")
        let shown = FileNameEscaping.shown(Array("é".utf8))
        #expect(shown.text == "é" && !shown.escaped)
    }

    /// Issue 27, item 7: the literal name `%FF%FE%80bad.jpg` and the bytes 0xFF 0xFE 0x80
    /// followed by `bad.jpg` (shown `%FF%FE%80bad.jpg`, flagged escaped) are two inputs with two
    /// sets of outputs, each entry's renditions showing its own file's pixels; a re-run
    /// reuses both.
    @Test func aLiteralEscapedNameAndTheBytesItSpellsGetTheirOwnOutputs() async throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // Landscape (600×400) under the literal name, square (300×300) under the bytes.
        try FileManager.default.copyItem(at: TestSupport.sample("cmyk.jpg"),
                                         to: input.appendingPathComponent("%FF%FE%80bad.jpg"))
        let square = try Data(contentsOf: TestSupport.sample("alpha-disc.png"))
        let rawName = Array(input.path.utf8) + [0x2F, 0xFF, 0xFE, 0x80] + Array("bad.jpg".utf8)
        let descriptor = FileNameEscaping.withCPath(rawName) { open($0, O_CREAT | O_WRONLY | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        _ = square.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)

        let output = root.appendingPathComponent("out")
        var batch = Batch(inputs: [input], output: output, jobs: 2)
        batch.options.renditions = [RenditionSpec(role: "image", format: .webp, width: 64, height: 64)]
        let manifest = try await batch.run()
        #expect(manifest.summary.assets == 2 && manifest.summary.failed == 0)
        let literal = try #require(manifest.assets.first { $0.sourceEncoding == nil })
        let bytes = try #require(manifest.assets.first { $0.sourceEncoding == "percent" })
        #expect(literal.source == "%FF%FE%80bad.jpg" && bytes.source == "%FF%FE%80bad.jpg")
        let literalPath = try #require(literal.renditions.first?.path)
        let bytesPath = try #require(bytes.renditions.first?.path)
        #expect(literalPath == "%25FF%25FE%2580bad.jpg.image.webp")
        #expect(bytesPath == "%FF%FE%80bad.jpg.image.webp", "names that are not UTF-8 keep their output names")
        let literalImage = try TestImage(contentsOf: output.appendingPathComponent(literalPath))
        let bytesImage = try TestImage(contentsOf: output.appendingPathComponent(bytesPath))
        #expect(literalImage.width == 64 && literalImage.height == 43, "the landscape JPEG's pixels")
        #expect(bytesImage.width == 64 && bytesImage.height == 64, "the square PNG's pixels")
        #expect(literal.sha256 != bytes.sha256)

        let again = try await batch.run()
        #expect(again.summary.skipped == 2 && again.summary.failed == 0)
        #expect(Set(again.assets.compactMap(\.renditions.first?.path)) == [literalPath, bytesPath])
    }

    /// `inspect` of such a name given as an argument (the shell passes the raw bytes; Swift's
    /// `CommandLine.arguments` would turn 0xFF into U+FFFD) and found in a folder: both read
    /// the file and print it escaped, flagged as in the manifest.
    @Test func inspectReadsANameThatIsNotUTF8FromTheCommandLine() throws {
        let folder = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Data(contentsOf: TestSupport.sample("dates/local-only.jpg"))
        let rawName = Array(folder.path.utf8) + Array("/bad".utf8) + [0xFF] + Array("name.jpg".utf8)
        let descriptor = FileNameEscaping.withCPath(rawName) { open($0, O_CREAT | O_WRONLY | O_EXCL, 0o644) }
        try #require(descriptor >= 0)
        _ = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        // sh's printf makes the byte; exec hands it to the CLI as argv[2] unchanged.
        let named = try TestSupport.runCLI(["-c", #"exec "$0" inspect "$(printf 'bad\377name.jpg')""#, TestSupport.cli.path],
                                           in: folder, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(named.status == 0, "\(named.stdout) \(named.stderr)")
        #expect(named.stdout.hasPrefix(#"{"source":"bad%FFname.jpg","format":"jpeg""#), "\(named.stdout)")
        #expect(named.stdout.contains(#""error":null,"sourceEncoding":"percent"}"#), "\(named.stdout)")
        #expect(named.stdout.contains(#""source":"exif.DateTimeOriginal""#), "the file's own date was read")
        let listed = try TestSupport.runCLI(["inspect", "."], in: folder)
        #expect(listed.status == 0 && listed.stdout.contains(#""source":"./bad%FFname.jpg""#)
                && listed.stdout.contains(#""sourceEncoding":"percent""#), "\(listed.stdout)")
        // A valid name has no sourceEncoding key.
        let plain = try TestSupport.runCLI(["inspect", TestSupport.sample("dates/local-only.jpg").path])
        #expect(plain.status == 0 && !plain.stdout.contains("sourceEncoding"))
    }

    /// `convert` of such a name given as an argument, as a file and as a folder (issue 17):
    /// the shell passes the raw bytes, the CLI opens them, and the manifest keeps the name
    /// escaped and flagged; renditions get escaped (valid UTF-8) names and decode.
    @Test func convertReadsNamesThatAreNotUTF8FromTheCommandLine() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photo = try Data(contentsOf: TestSupport.sample("cmyk.jpg"))
        func writeRaw(_ path: [UInt8]) throws {
            let descriptor = FileNameEscaping.withCPath(path) { open($0, O_CREAT | O_WRONLY | O_EXCL, 0o644) }
            try #require(descriptor >= 0)
            let written = photo.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try #require(written == photo.count)
        }
        let base = Array(root.path.utf8)
        try writeRaw(base + Array("/bad".utf8) + [0xFF] + Array("name.jpg".utf8))
        let folder = base + Array("/dir".utf8) + [0xFE]
        try #require(FileNameEscaping.withCPath(folder) { mkdir($0, 0o755) } == 0)
        try writeRaw(folder + Array("/50%.jpg".utf8))

        // A file: sh's printf makes the byte; exec hands it to the CLI as argv[2] unchanged.
        let file = try TestSupport.runCLI(
            ["-c", #"exec "$0" convert "$(printf 'bad\377name.jpg')" --output out1 --size 64"#, TestSupport.cli.path],
            in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(file.status == 0, "\(file.stderr)")
        let single = try TestSupport.manifest(in: root.appendingPathComponent("out1"))
        let entry = try #require(single.assets.first)
        #expect(single.assets.count == 1 && entry.error == nil)
        #expect(entry.source == "bad%FFname.jpg" && entry.sourceEncoding == "percent")
        #expect(FileNameEscaping.unescaped(entry.source) == Array("bad".utf8) + [0xFF] + Array("name.jpg".utf8))
        #expect(entry.sha256 == ContentDigest.sha256(Array(photo)))
        let path = try #require(entry.renditions.first?.path)
        #expect(path == "bad%FFname.jpg.image.webp")
        let image = try TestImage(contentsOf: root.appendingPathComponent("out1").appendingPathComponent(path))
        #expect(max(image.width, image.height) == 64)

        // A folder, beside a file: every name under it is escaped whole ("%" too) and flagged.
        let both = try TestSupport.runCLI(
            ["-c", #"exec "$0" convert "$(printf 'dir\376')" "$(printf 'bad\377name.jpg')" --output out2 --size 64"#,
             TestSupport.cli.path],
            in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(both.status == 0, "\(both.stderr)")
        let manifest = try TestSupport.manifest(in: root.appendingPathComponent("out2"))
        #expect(manifest.assets.map(\.source) == ["bad%FFname.jpg", "dir%FE/50%25.jpg"])
        #expect(manifest.assets.allSatisfy { $0.sourceEncoding == "percent" && $0.error == nil })
        #expect(FileNameEscaping.unescaped("dir%FE/50%25.jpg") == Array("dir".utf8) + [0xFE] + Array("/50%.jpg".utf8))
        for asset in manifest.assets {
            let rendition = try #require(asset.renditions.first?.path)
            #expect(try TestImage(contentsOf: root.appendingPathComponent("out2").appendingPathComponent(rendition)).width > 0)
        }

        // A name that is not UTF-8 and names nothing is still reported missing (exit 2).
        let missing = try TestSupport.runCLI(
            ["-c", #"exec "$0" convert "$(printf 'nope\377.jpg')" --output out3"#, TestSupport.cli.path],
            in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(missing.status == 2 && missing.stderr.contains("nope%FF.jpg does not exist"), "\(missing.stderr)")

        // inspect walks such a folder too.
        let listed = try TestSupport.runCLI(["-c", #"exec "$0" inspect "$(printf 'dir\376')""#, TestSupport.cli.path],
                                            in: root, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(listed.status == 0 && listed.stdout.hasPrefix(#"{"source":"dir%FE/50%25.jpg","format":"jpeg""#)
                && listed.stdout.contains(#""sourceEncoding":"percent""#), "\(listed.stdout)")
    }
}
