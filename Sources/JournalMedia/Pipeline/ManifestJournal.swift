import Foundation
import JournalMediaCore

/// The append-only journal a running batch keeps beside `manifest.json`
/// (`DIR/.manifest.journal.jsonl`): a header line naming the preset and settings, then one compact JSON
/// line per finished entry, in completion order. It is what lets a killed run resume: the
/// next run reads `manifest.json`, replays the journal over it (a later line for the same
/// source wins) and reuses every entry whose input is unchanged.
///
/// Each entry is written with one `write` as soon as it is finished, so a killed process
/// loses none; the file is flushed to disk with `fdatasync` every
/// `Defaults.journalSyncInterval` seconds or `Defaults.journalSyncEntries` entries. At the
/// end the batch writes the full manifest once (compaction) and removes the journal. Cost per
/// entry: one encode and one write, whatever the size of the batch (the whole manifest used
/// to be rewritten every 2 s, quadratic in the batch size).
final class ManifestJournal {
    static let fileName = ".manifest.journal.jsonl"
    static let formatVersion = 1

    /// The first line: which journal format, rendition specs and other settings its entries
    /// were made with (a header without settings is read as the preset's defaults).
    struct Header: Codable, Equatable {
        var journal: Int
        var preset: [RenditionSpec]
        var settings: OutputSettings?

        func matches(preset: [RenditionSpec], settings wanted: OutputSettings) -> Bool {
            journal == ManifestJournal.formatVersion && self.preset == preset
                && (settings ?? OutputSettings.defaults(for: preset)) == wanted
        }
    }

    private let descriptor: Int32
    private let url: URL
    private let encoder: JSONEncoder
    private var unsynced = 0
    private var lastSync = Date()

    private init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { close(descriptor) }

    /// The entries an interrupted run recorded with the same preset and settings, in the
    /// order written; nil when there is no journal or it belongs to other ones. A line that does
    /// not decode (cut short by a crash) is skipped. Reads the file in 1 MiB pieces.
    static func replay(in folder: URL, name fileName: String = ManifestJournal.fileName,
                       preset: [RenditionSpec], settings: OutputSettings) -> [ManifestEntry]? {
        guard let handle = FileHandle(forReadingAtPath: folder.appendingPathComponent(fileName).path) else { return nil }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var entries: [ManifestEntry] = []
        var header: Header?
        var pending = Data()
        func take(_ line: Data) -> Bool {
            guard !line.isEmpty else { return true }
            guard header != nil else {
                header = try? decoder.decode(Header.self, from: line)
                return header?.matches(preset: preset, settings: settings) == true
            }
            if let entry = try? decoder.decode(ManifestEntry.self, from: line) { entries.append(entry) }
            return true
        }
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            pending.append(chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                guard take(pending[start..<newline]) else { return nil }
                start = pending.index(after: newline)
            }
            pending = Data(pending[start...])
        }
        guard take(pending), header != nil else { return nil }
        return entries
    }

    /// Opens the journal for appending. `continuing`: keep the lines already there (they were
    /// replayed); otherwise start a new journal with a header for `preset`.
    static func open(in folder: URL, name fileName: String = ManifestJournal.fileName, preset: [RenditionSpec],
                     settings: OutputSettings, continuing: Bool) throws -> ManifestJournal {
        let url = folder.appendingPathComponent(fileName)
        if !continuing {
            var header = try JSONEncoder().encode(Header(journal: formatVersion, preset: preset, settings: settings))
            header.append(0x0A)
            try AtomicFile.write(header, to: url)
        }
        let fd = Foundation.open(url.path, O_RDWR | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw POSIXFailure(operation: "open \(url.path)", code: errno) }
        let journal = ManifestJournal(descriptor: fd, url: url)
        // A line cut short by a crash must not swallow the next entry.
        var info = stat()
        if continuing, fstat(fd, &info) == 0, info.st_size > 0, !endsWithNewline(fd: fd, size: Int(info.st_size)) {
            var sink = FileSink(descriptor: fd, name: url.path)
            try sink.write([UInt8(0x0A)])
        }
        return journal
    }

    /// Appends one finished entry (one `write`), and flushes to disk when due. A failure to
    /// write the journal costs only the resumability of that entry, so it is not thrown.
    func append(_ entry: ManifestEntry) {
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        var sink = FileSink(descriptor: descriptor, name: url.path)
        try? sink.write(line)
        unsynced += 1
        if unsynced >= Defaults.journalSyncEntries || Date().timeIntervalSince(lastSync) >= Defaults.journalSyncInterval {
            fdatasync(descriptor)
            unsynced = 0
            lastSync = Date()
        }
    }

    /// Removes the journal once the manifest holding all its entries has been written.
    func remove() {
        unlink(url.path)
    }

    private static func endsWithNewline(fd: Int32, size: Int) -> Bool {
        var last: UInt8 = 0
        return pread(fd, &last, 1, off_t(size - 1)) == 1 && last == 0x0A
    }
}
