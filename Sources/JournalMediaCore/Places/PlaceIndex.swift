import Foundation

/// Nearest populated place to a position, offline: the GeoNames table in `places.bin`
/// (Data/make-places.py builds it; 144,563 places over 1,000 people, each with its IANA time
/// zone, about 4.4 MB), laid out on disk as a 1° × 1° grid.
///
/// `shared` maps the file on the first lookup and checks its header and cell table (65 k
/// integers: well under a millisecond); nothing is decoded or sorted, and only the pages a
/// lookup touches are read from disk. It is looked for at `$JOURNAL_MEDIA_PLACES`, beside the
/// executable, in `../share/journal-media/` from it (the .deb), then in the source tree's
/// `Data/`. Without it every lookup is nil. A lookup reads the cells within a growing radius
/// (50 km, doubled until a place lies within it) and returns the great-circle (haversine)
/// nearest: microseconds. Immutable after loading, so any thread may use it.
public final class PlaceIndex: Sendable {
    /// The whole file (mapped when read from disk).
    private let data: Data
    private let placeCount: Int
    private let groupCount: Int
    private let cellsAt = 20
    private let placesAt: Int
    private let groupsAt: Int
    private let stringsAt: Int

    private static let earthRadiusKm = 6_371.0088
    private static let cellsPerRow = 360
    private static let cellCount = 180 * cellsPerRow
    private static let magic = Array("JMPLACE2".utf8)

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

    /// Maps a table; nil when the file is missing or not one (wrong magic, counts past the end).
    public convenience init?(contentsOf url: URL) {
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        self.init(data: data)
    }

    public convenience init?(bytes: [UInt8]) {
        self.init(data: Data(bytes))
    }

    /// Checks the header, the cell table (non-decreasing, ending at the place count) and the
    /// string area's last NUL; names, groups and strings are bounds-checked when read.
    init?(data: Data) {
        let header = 20
        guard data.count >= header + (Self.cellCount + 1) * 4 else { return nil }
        let checked: (Int, Int, Int, Int, Int)? = data.withUnsafeBytes { raw in
            guard Array(raw[0..<8]) == Self.magic else { return nil }
            let placeCount = Int(Self.u32(raw, 8)), groupCount = Int(Self.u32(raw, 12))
            let stringBytes = Int(Self.u32(raw, 16))
            let placesAt = header + (Self.cellCount + 1) * 4
            let groupsAt = placesAt + placeCount * 16, stringsAt = groupsAt + groupCount * 16
            guard placeCount < 10_000_000, groupCount < 10_000_000, stringBytes > 0,
                  stringsAt + stringBytes == raw.count, raw[raw.count - 1] == 0 else { return nil }
            var previous: UInt32 = 0
            for cell in 0...Self.cellCount {
                let start = Self.u32(raw, header + cell * 4)
                guard start >= previous else { return nil }
                previous = start
            }
            guard Self.u32(raw, header) == 0, Int(previous) == placeCount else { return nil }
            return (placeCount, groupCount, placesAt, groupsAt, stringsAt)
        }
        guard let (placeCount, groupCount, placesAt, groupsAt, stringsAt) = checked else { return nil }
        self.data = data
        self.placeCount = placeCount
        self.groupCount = groupCount
        self.placesAt = placesAt
        self.groupsAt = groupsAt
        self.stringsAt = stringsAt
    }

    @inline(__always)
    private static func u32(_ raw: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }

    /// Country names in English (ICU), asked per lookup rather than for every group at load:
    /// a process that finds one location pays for one name.
    private static let english = Locale(identifier: "en_US")

    private static func cell(_ latitude: Double, _ longitude: Double) -> Int {
        let row = min(179, max(0, Int((latitude + 90).rounded(.down))))
        let column = min(cellsPerRow - 1, max(0, Int((longitude + 180).rounded(.down))))
        return row * cellsPerRow + column
    }

    /// Great-circle distance in kilometres.
    static func haversineKm(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * earthRadiusKm * asin(min(1, a.squareRoot()))
    }

    /// Latitude and longitude of place `index` (degrees).
    @inline(__always)
    private func position(_ raw: UnsafeRawBufferPointer, _ index: Int) -> (Double, Double) {
        let at = placesAt + index * 16
        return (Double(Int32(bitPattern: Self.u32(raw, at))) / 1e5, Double(Int32(bitPattern: Self.u32(raw, at + 4))) / 1e5)
    }

    /// The index of the nearest entry and its distance; nil only for an empty table.
    func nearestEntry(latitude: Double, longitude: Double) -> (index: Int, km: Double)? {
        guard placeCount > 0, latitude.isFinite, longitude.isFinite else { return nil }
        return data.withUnsafeBytes { raw in
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
                        let start = Int(Self.u32(raw, cellsAt + cell * 4)), end = Int(Self.u32(raw, cellsAt + cell * 4 + 4))
                        for index in start..<end {
                            let (lat, lon) = position(raw, index)
                            let km = Self.haversineKm(latitude, longitude, lat, lon)
                            if let current = best, km > current.km || (km == current.km && index > current.index) { continue }
                            best = (index, km)
                        }
                    }
                }
                if let best, best.km <= radius || radius >= 20_100 { return best }
                radius *= 2
            }
        }
    }

    /// The same answer by scanning every entry (tests compare it with the grid search).
    func bruteForceNearest(latitude: Double, longitude: Double) -> (index: Int, km: Double)? {
        data.withUnsafeBytes { raw in
            var best: (index: Int, km: Double)?
            for index in 0..<placeCount {
                let (lat, lon) = position(raw, index)
                let km = Self.haversineKm(latitude, longitude, lat, lon)
                if best == nil || km < best!.km { best = (index, km) }
            }
            return best
        }
    }

    /// The nearest populated place to a position; nil for an empty table or one whose entry
    /// points outside it.
    public func nearest(latitude: Double, longitude: Double) -> Place? {
        guard let (index, km) = nearestEntry(latitude: latitude, longitude: longitude) else { return nil }
        return data.withUnsafeBytes { raw -> Place? in
            let at = placesAt + index * 16
            let name = Self.u32(raw, at + 8), group = Int(Self.u32(raw, at + 12))
            guard group < groupCount else { return nil }
            let groupAt = groupsAt + group * 16
            func string(_ offset: UInt32) -> String? {
                let start = stringsAt + Int(offset)
                guard start < raw.count else { return nil }
                var end = start
                while raw[end] != 0 { end += 1 }  // the last byte is a NUL (checked at load)
                return String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
            }
            func optional(_ offset: UInt32) -> String? { offset == 0 ? nil : string(offset) }
            guard let placeName = string(name), let code = string(Self.u32(raw, groupAt + 8)) else { return nil }
            let zone = optional(Self.u32(raw, groupAt + 12))
            return Place(name: placeName, admin1: optional(Self.u32(raw, groupAt)), admin2: optional(Self.u32(raw, groupAt + 4)),
                         country: Self.english.localizedString(forRegionCode: code) ?? code, countryCode: code,
                         timeZone: zone, distanceKm: (km * 1_000).rounded() / 1_000)
        }
    }
}
