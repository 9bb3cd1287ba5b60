import Foundation

/// Nearest populated place to a position, offline: the GeoNames table in `places.bin`
/// (Data/make-places.py builds it; 144,563 places over 1,000 people, about 4 MB) behind a
/// 1° × 1° grid.
///
/// `shared` loads the table once per process, on the first lookup (a few milliseconds: one
/// read, one counting sort into cells); it is looked for at `$JOURNAL_MEDIA_PLACES`, beside
/// the executable, in `../share/journal-media/` from it (the .deb), then in the source tree's
/// `Data/`. Without it every lookup is nil. A lookup reads the cells within a growing radius
/// (50 km, doubled until a place lies within it) and returns the great-circle (haversine)
/// nearest: microseconds. Immutable after loading, so any thread may use it.
public final class PlaceIndex: Sendable {
    private struct Entry {
        var latitude: Double
        var longitude: Double
        var name: UInt32
        var group: UInt32
    }

    private let entries: [Entry]
    private let groups: [(admin1: UInt32, admin2: UInt32, countryCode: UInt32)]
    private let strings: [UInt8]
    /// Entry indices by cell (`cell(latitude, longitude)`), as a CSR table.
    private let cellStart: [Int32]
    private let cellEntries: [Int32]

    private static let earthRadiusKm = 6_371.0088
    private static let cellsPerRow = 360

    /// The table found in the usual places, loaded on first use; nil when there is none.
    public static let shared: PlaceIndex? = candidates().lazy.compactMap { PlaceIndex(contentsOf: $0) }.first

    static func candidates() -> [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment["JOURNAL_MEDIA_PLACES"], !path.isEmpty {
            urls.append(URL(fileURLWithPath: path))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent()
        urls.append(folder.appendingPathComponent("places.bin"))
        urls.append(folder.appendingPathComponent("../share/journal-media/places.bin").standardizedFileURL)
        // Sources/JournalMediaCore/Places/PlaceIndex.swift → Data/places.bin (a build from the repository).
        urls.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../Data/places.bin")
            .standardizedFileURL)
        return urls
    }

    /// Reads a table; nil when the file is missing or not one (wrong magic, counts past the end).
    public convenience init?(contentsOf url: URL) {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    public init?(bytes: [UInt8]) {
        let header = 20
        guard bytes.count >= header, Array(bytes[0..<8]) == Array("JMPLACE1".utf8) else { return nil }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        let placeCount = Int(u32(8)), groupCount = Int(u32(12)), stringBytes = Int(u32(16))
        let groupsAt = header + placeCount * 16, stringsAt = groupsAt + groupCount * 12
        guard placeCount < 10_000_000, groupCount < 10_000_000, stringsAt + stringBytes == bytes.count else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(placeCount)
        for index in 0..<placeCount {
            let at = header + index * 16
            let latitude = Double(Int32(bitPattern: u32(at))) / 1e5, longitude = Double(Int32(bitPattern: u32(at + 4))) / 1e5
            let name = u32(at + 8), group = u32(at + 12)
            guard abs(latitude) <= 90, abs(longitude) <= 180, Int(name) < stringBytes, Int(group) < groupCount else { return nil }
            entries.append(Entry(latitude: latitude, longitude: longitude, name: name, group: group))
        }
        var groups: [(admin1: UInt32, admin2: UInt32, countryCode: UInt32)] = []
        groups.reserveCapacity(groupCount)
        for index in 0..<groupCount {
            let at = groupsAt + index * 12
            let group = (admin1: u32(at), admin2: u32(at + 4), countryCode: u32(at + 8))
            guard Int(group.admin1) < stringBytes, Int(group.admin2) < stringBytes, Int(group.countryCode) < stringBytes
            else { return nil }
            groups.append(group)
        }
        let strings = Array(bytes[stringsAt...])
        guard strings.last == 0 else { return nil }
        // Counting sort of the entries into 1° cells.
        var counts = [Int32](repeating: 0, count: 180 * Self.cellsPerRow + 1)
        for entry in entries { counts[Self.cell(entry.latitude, entry.longitude) + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var fill = counts
        var cellEntries = [Int32](repeating: 0, count: entries.count)
        for (index, entry) in entries.enumerated() {
            let cell = Self.cell(entry.latitude, entry.longitude)
            cellEntries[Int(fill[cell])] = Int32(index)
            fill[cell] += 1
        }
        self.entries = entries
        self.groups = groups
        self.strings = strings
        self.cellStart = counts
        self.cellEntries = cellEntries
    }

    /// Country names in English (ICU), asked per lookup rather than for every group at load:
    /// a process that finds one location pays for one name.
    private static let english = Locale(identifier: "en_US")

    private static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
        let column = min(cellsPerRow - 1, max(0, Int((longitude + 180).rounded(.down))))
        return row * cellsPerRow + column
    }

    private static func string(_ strings: [UInt8], _ offset: UInt32) -> String {
        let start = Int(offset)
        let end = strings[start...].firstIndex(of: 0) ?? strings.count
        return String(decoding: strings[start..<end], as: UTF8.self)
    }

    /// Great-circle distance in kilometres.
    static func haversineKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusKm * asin(min(1, a.squareRoot()))
    }

    /// The index of the nearest entry and its distance; nil only for an empty table.
    func nearestEntry(latitude: Double, longitude: Double) -> (index: Int, km: Double)? {
        guard !entries.isEmpty, latitude.isFinite, longitude.isFinite else { return nil }
        var radius = 50.0
        while true {
            var best: (index: Int, km: Double)?
            let angle = radius / Self.earthRadiusKm
            let dLat = angle * 180 / .pi
            let south = latitude - dLat, north = latitude + dLat
            var dLon = 180.0
            if south > -90 && north < 90 {
                let ratio = sin(angle) / cos(latitude * .pi / 180)
                if ratio < 1 { dLon = asin(ratio) * 180 / .pi }
            }
            let firstRow = max(0, Int((max(-90, south) + 90).rounded(.down)))
            let lastRow = min(179, Int((min(90, north) + 90).rounded(.down)))
            let columns: [Int]
            if dLon >= 180 {
                columns = Array(0..<Self.cellsPerRow)
            } else {
                let west = Int((longitude - dLon + 180).rounded(.down)), east = Int((longitude + dLon + 180).rounded(.down))
                columns = (west...east).map { (($0 % Self.cellsPerRow) + Self.cellsPerRow) % Self.cellsPerRow }
            }
            for row in firstRow...lastRow {
                for column in columns {
                    let cell = row * Self.cellsPerRow + column
                    for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                        let index = Int(cellEntries[slot])
                        let entry = entries[index]
                        let km = Self.haversineKm(latitude, longitude, entry.latitude, entry.longitude)
                        if best == nil || km < best!.km || (km == best!.km && index < best!.index) { best = (index, km) }
                    }
                }
            }
            if let best, best.km <= radius || radius >= 20_100 { return best }
            radius *= 2
        }
    }

    /// The same answer by scanning every entry (tests compare it with the grid search).
    func bruteForceNearest(latitude: Double, longitude: Double) -> (index: Int, km: Double)? {
        var best: (index: Int, km: Double)?
        for (index, entry) in entries.enumerated() {
            let km = Self.haversineKm(latitude, longitude, entry.latitude, entry.longitude)
            if best == nil || km < best!.km { best = (index, km) }
        }
        return best
    }

    /// The nearest populated place to a position.
    public func nearest(latitude: Double, longitude: Double) -> Place? {
        guard let (index, km) = nearestEntry(latitude: latitude, longitude: longitude) else { return nil }
        let entry = entries[index]
        let group = groups[Int(entry.group)]
        let code = Self.string(strings, group.countryCode)
        func optional(_ offset: UInt32) -> String? { offset == 0 ? nil : Self.string(strings, offset) }
        return Place(name: Self.string(strings, entry.name), admin1: optional(group.admin1), admin2: optional(group.admin2),
                     country: Self.english.localizedString(forRegionCode: code) ?? code, countryCode: code, distanceKm: (km * 1_000).rounded() / 1_000)
    }
}
