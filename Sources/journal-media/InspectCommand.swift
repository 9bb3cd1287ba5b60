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

              {"source":"IMG_0001.JPG","format":"jpeg","mediaType":"image/jpeg",
               "bytes":2481234,"captureDate":{"local":"2023-06-01T14:03:22.120",
               "offset":"+02:00","utc":"2023-06-01T12:03:22.120Z",
               "source":"exif.DateTimeOriginal","confidence":"exact"},
               "location":{"latitude":47.3769,"longitude":8.5417,"altitude":408,
               "horizontalAccuracy":4.7,"direction":123.5,"speed":0,"source":"exif.GPS"},
               "camera":{"make":"Apple","model":"iPhone 15 Pro","lens":"iPhone 15 Pro back \
            triple camera 6.765mm f/1.78","software":"17.5","focalLength":6.765,"focalLength35":24,
               "fNumber":1.78,"exposureTime":0.001,"iso":64},
               "contentIdentifier":"5F0E6A4C-2B1D-4E8A-9C3F-7A1B2C3D4E01",
               "durationSeconds":null,"error":null}

            captureDate sources, in order of trust: an XMP sidecar's full timestamp \
            (xmp-sidecar.*: IMG_0001.JPG.xmp, else IMG_0001.xmp, beside the file), \
            exif.DateTimeOriginal, exif.DateTimeDigitized, xmp.exif:DateTimeOriginal, \
            xmp.photoshop:DateCreated, xmp.xmp:CreateDate (full timestamps before a date \
            alone), png.CreationTime, exif.DateTime, exif.GPSDateTime, a HEIF sequence's mvhd; \
            for movies quicktime.creationdate, then quicktime.creation_time (mvhd, UTC), \
            matroska.DateUTC (UTC) or riff.IDIT (AVI, local time), h264.DateTimeOriginal \
            (an AVCHD camcorder's date inside the H.264 stream, with its zone); then filename, then \
            fileModified. PSD files are read for their date only. confidence: exact (local time and zone from the file), \
            offsetInferred (zone from the GPS time), offsetFromPlace (zone of the place nearest \
            to the GPS position, named in timeZone), utcOnly, localOnly, filename, \
            fileModified. offset and utc are null when the zone is unknown; local is null when \
            only the instant is known.

            location: degrees (WGS 84, north/east positive), metres, m/s; source exif.GPS, \
            xmp.exif:GPS, quicktime.location.ISO6709 or quicktime.©xyz. A position at 0/0, out \
            of range, not a number, with a zero denominator, without its N/S/E/W reference or \
            with GPSStatus V is reported as null with a line in "warnings" (present only then). \
            place: the nearest GeoNames populated place to the location (name, admin1, admin2, \
            country, countryCode, timeZone, distanceKm), offline from places.bin (GeoNames, \
            CC BY 4.0). --no-location leaves location and place out (null), and an offset taken \
            from the place's zone (the date is then localOnly). camera: EXIF Make/Model/LensModel/\
            Software and exposure (stills), QuickTime make/model/software (movies), trimmed.

            A name that is not valid UTF-8 (given as an argument or found in a folder) is \
            printed percent-escaped with "sourceEncoding":"percent", as in the manifest. \
            A file that cannot be read or is not a supported format gets an "error" object \
            ({"stage":…,"reason":…,"message":…}) and a null captureDate. contentIdentifier is \
            the Live Photo identifier of a still or movie; durationSeconds a movie's or \
            audio file's (estimated from the streams when the header declares none, as in \
            MPEG-TS). The lines follow Schemas/inspect-line.v1.json. \
            Paths are printed as given (a folder's files as FOLDER/…), so each line names a file \
            one can open; --relative prints them as the manifest's "source" instead. \
            Exit status: 0 all files inspected, 1 some failed, 2 usage error (including an input \
            that does not exist, or a file named that is plainly not media, such as notes.txt).
            """)

    @Argument(help: ArgumentHelp("Files or folders to inspect (folders are recursed).", valueName: "input"))
    var inputs: [String]

    @Option(name: [.short, .long], help: "Files read at once. (default: CPU cores)")
    var jobs: Int?

    @Flag(name: .long, help: ArgumentHelp("""
        Print the files found in a folder relative to it, as `convert` writes "source" in the \
        manifest (with several inputs, prefixed by the input's name).
        """))
    var relative = false
    @Flag(name: .long, help: "Report no location (null), for output that leaves the machine.")
    var noLocation = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        try NamedInputs.require(inputs, notMedia: true)
        let files = InputScanner.inspectionFiles(in: inputs.map { input in
            (URL(fileURLWithPath: input), RawArguments.pathBytes(for: input))
        }, relative: relative)
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
        let lines = InspectLines(count: files.count)
        let sidecars = XMPSidecars.listing()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: files.count, by: workers) {
                let file = files[index]
                var inspection = CaptureDateReader.inspect(ProbedAsset.open(
                    file.url, name: file.relativePath, keepMediaOpen: false, pathBytes: file.pathBytes, sidecars: sidecars))
                if noLocation { inspection = inspection.withoutLocation() }
                lines.store(index, inspection.jsonLine(source: file.relativePath), ok: inspection.error == nil)
            }
        }
        if lines.failures > 0 { throw ExitCode(ExitStatus.someAssetsFailed) }
    }
}

/// Lines produced by the inspect workers, written to standard output in input order as soon
/// as every earlier line is written: output streams while a large folder is read.
private final class InspectLines: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Int: String] = [:]
    private var next = 0
    private(set) var failures = 0

    init(count: Int) { pending.reserveCapacity(min(count, 1024)) }

    func store(_ index: Int, _ line: String, ok: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if !ok { failures += 1 }
        pending[index] = line
        var ready = ""
        while let line = pending.removeValue(forKey: next) {
            ready += line
            ready += "\n"
            next += 1
        }
        if !ready.isEmpty { FileHandle.standardOutput.write(Data(ready.utf8)) }
    }
}
