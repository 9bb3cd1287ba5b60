import ArgumentParser
import Dispatch
import Foundation
import JournalMedia

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print each file's format and capture date as JSON, one object per line; nothing is written.",
        discussion: """
            Reads headers only (EXIF, XMP, PNG text chunks, QuickTime/MP4 tags), never pixels. \
            For each file, in the order given (folders recursed, sorted, hidden files skipped):

              {"source":"IMG_0001.JPG","format":"jpeg","mediaType":"image/jpeg","bytes":2481234,
               "captureDate":{"local":"2023-06-01T14:03:22.120","offset":"+02:00",
                              "utc":"2023-06-01T12:03:22.120Z","source":"exif.DateTimeOriginal",
                              "confidence":"exact"},"error":null}

            captureDate sources, in order of trust: exif.DateTimeOriginal, \
            exif.DateTimeDigitized, xmp.exif:DateTimeOriginal, xmp.photoshop:DateCreated, \
            xmp.xmp:CreateDate, png.CreationTime, exif.DateTime; for movies \
            quicktime.creationdate, then quicktime.creation_time (mvhd, UTC); then filename, \
            then fileModified. confidence: exact (local time and zone from the file), \
            offsetInferred (zone from the GPS time), utcOnly, localOnly, filename, \
            fileModified. offset and utc are null when the zone is unknown; local is null when \
            only the instant is known.

            A file that cannot be read or is not a supported format gets an "error" object \
            ({"stage":…,"message":…}) and a null captureDate. \
            Exit status: 0 all files inspected, 1 some failed, 2 usage error.
            """)

    @Argument(help: ArgumentHelp("Files or folders to inspect (folders are recursed).", valueName: "input"))
    var inputs: [String]

    @Option(name: [.short, .long], help: "Files read at once. (default: CPU cores)")
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let files = InputScanner.files(in: inputs.map { URL(fileURLWithPath: $0) })
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
        let lines = InspectLines(count: files.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var mine: [(Int, String, Bool)] = []
            for index in stride(from: worker, to: files.count, by: workers) {
                let inspection = CaptureDateReader.inspect(fileAt: files[index], displayName: files[index].relativePath)
                mine.append((index, inspection.jsonLine(source: files[index].relativePath), inspection.error == nil))
            }
            lines.store(mine)
        }
        var output = lines.joined()
        output.append("\n")
        FileHandle.standardOutput.write(Data(output.utf8))
        if lines.failures > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
    }
}

/// Lines produced by the inspect workers, put back in input order.
private final class InspectLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String]
    private(set) var failures = 0

    init(count: Int) { lines = Array(repeating: "", count: count) }

    func store(_ produced: [(Int, String, Bool)]) {
        lock.lock()
        defer { lock.unlock() }
        for (index, line, ok) in produced {
            lines[index] = line
            if !ok { failures += 1 }
        }
    }

    func joined() -> String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }
}
