import CExif
import Foundation
import Testing
@testable import JournalMedia
@testable import JournalMediaCore
@testable import JournalMediaImaging
@testable import JournalMediaMetadata
@testable import JournalMediaVideo

/// Paths and helpers shared by the tests. Everything runs on the committed files in
/// Samples/ or on files the tests make with libvips.
enum TestSupport {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = packageRoot.appendingPathComponent("Samples")

    static func sample(_ name: String) -> URL { samples.appendingPathComponent(name) }

    /// A new empty folder under the system's temporary folder.
    static func temporaryFolder(_ label: String = #function) throws -> URL {
        let clean = label.filter { $0.isLetter || $0.isNumber }
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("jm-tests-\(clean)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The `journal-media` executable built beside the test bundle.
    static var cli: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = exe.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("journal-media")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return exe.deletingLastPathComponent().appendingPathComponent("journal-media")
    }

    struct CLIRun {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the CLI to completion; `folder` is its working directory when given.
    /// `executable` replaces the CLI (a wrapper such as setpriv that then runs it);
    /// `environment` is added to the test's own.
    static func runCLI(_ arguments: [String], in folder: URL? = nil, executable: URL? = nil,
                       environment: [String: String] = [:]) throws -> CLIRun {
        let process = Process()
        process.executableURL = executable ?? cli
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Copies the named samples into `folder` (or all files at the top of Samples/).
    static func copySamples(_ names: [String]? = nil, to folder: URL) throws {
        let all = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: sample(name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        for name in names ?? all {
            try FileManager.default.copyItem(at: sample(name), to: folder.appendingPathComponent(name))
        }
    }
}

/// An encoded image decoded with libvips for pixel checks.
struct TestImage {
    let image: VipsImageHandle

    init(_ bytes: [UInt8]) throws {
        guard let format = FormatSniffer.sniff(bytes), let loader = ImageHeaderReader.loaderName(for: format) else {
            throw VipsError(message: "unrecognised test image")
        }
        image = try bytes.withUnsafeBytes { buffer in
            let load = try VipsOperationCall(loader)
            try load.set("buffer", .borrowedBlob(buffer))
            try load.build()
            // Decoded into memory while the bytes are alive.
            return try load.outputImage().materialised()
        }
    }

    init(contentsOf url: URL) throws {
        try self.init(Array(try Data(contentsOf: url)))
    }

    /// A reference a test made with libvips operations, cast to 8-bit samples (as a rendition
    /// file holds them) and computed into memory.
    init(castToUchar image: VipsImageHandle) throws {
        let cast = try VipsOperationCall("cast")
        try cast.set("in", .image(image))
        try cast.set("format", .nick("uchar"))
        try cast.build()
        self.image = try cast.outputImage().materialised()
    }

    var width: Int { image.width }
    var height: Int { image.height }
    var bands: Int { image.bands }

    /// Band values at one pixel.
    func pixel(_ x: Int, _ y: Int) throws -> [Double] {
        let op = try VipsOperationCall("getpoint")
        try op.set("in", .image(image))
        try op.set("x", .int(x))
        try op.set("y", .int(y))
        try op.build()
        return try op.outputDoubles("out_array")
    }

    /// Mean of each band over a square of `size` pixels centred on (x, y).
    func mean(around x: Int, _ y: Int, size: Int = 9) throws -> [Double] {
        var sums = [Double](repeating: 0, count: bands)
        var count = 0.0
        for dy in -(size / 2)...(size / 2) {
            for dx in -(size / 2)...(size / 2) {
                let px = try pixel(min(max(0, x + dx), width - 1), min(max(0, y + dy), height - 1))
                for band in 0..<bands { sums[band] += px[band] }
                count += 1
            }
        }
        return sums.map { $0 / count }
    }
}


extension VipsImageHandle {
    /// Mean of each band over the whole image.
    func averagePerBand() throws -> [Double] {
        var means: [Double] = []
        for band in 0..<bands {
            let extract = try VipsOperationCall("extract_band")
            try extract.set("in", .image(self))
            try extract.set("band", .int(band))
            try extract.build()
            let avg = try VipsOperationCall("avg")
            try avg.set("in", .image(try extract.outputImage()))
            try avg.build()
            means.append(try avg.outputDouble())
        }
        return means
    }
}

extension TestSupport {
    /// The committed JSON Schemas (Schemas/), loaded once.
    static func schema(_ name: String) throws -> JSONSchemaSubset {
        try JSONSchemaSubset(contentsOf: packageRoot.appendingPathComponent("Schemas").appendingPathComponent(name))
    }

    /// Reads `manifest.json` in `output`, checks it against Schemas/manifest.v1.json (each
    /// problem is a test failure) and decodes it. Every test that reads a manifest the toolkit
    /// wrote goes through here, so the schema is checked on every manifest the suite makes.
    static func manifest(in output: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> Manifest {
        let data = try Data(contentsOf: output.appendingPathComponent("manifest.json"))
        let problems = try schema("manifest.v1.json").problems(in: data)
        #expect(problems.isEmpty, "manifest.json against Schemas/manifest.v1.json: \(problems.prefix(10))",
                sourceLocation: sourceLocation)
        return try Manifest.decode(data)
    }
}
